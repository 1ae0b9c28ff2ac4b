package runs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/runs"
	"hackdesk/workflows"
)

// TestKindsListEveryKind: every Kind constant the workflows package
// declares is one the operator's page counts and lists (runs.Kinds), the
// scheduled jobs' included, each once.
func TestKindsListEveryKind(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(testenv.RepoRoot(), "workflows", "request.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []workflows.Kind
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Kind" {
			return true
		}
		for _, v := range vs.Values {
			if lit, ok := v.(*ast.BasicLit); ok {
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				declared = append(declared, workflows.Kind(s))
			}
		}
		return true
	})
	if len(declared) < 10 {
		t.Fatalf("found %d Kind constants in workflows/request.go: has it moved?", len(declared))
	}
	for _, k := range declared {
		if !slices.Contains(runs.Kinds, k) {
			t.Errorf("kind %q is not in runs.Kinds: its failures would be neither counted nor listed", k)
		}
	}
	if len(runs.Kinds) != len(declared) {
		t.Errorf("runs.Kinds has %d kinds, the workflows package declares %d", len(runs.Kinds), len(declared))
	}
}
