package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxDirectQueries is how many calls of the generated queries the adapters
// (api/ and activities/) may make themselves rather than through a feature
// or platform function. Three are made: the two sweeps
// (activities/sweep.go) and the readiness check (api/health.go), each with
// a comment saying why it stays; docs/decisions.md sets the bar at four.
const maxDirectQueries = 4

// TestDirectQueryCalls counts the calls of db.Querier's methods in the
// non-test files of api/ and activities/: a call found by its method's
// name, whatever it is called on (a Store, its Queries, a Querier). The
// rules behind a query belong to a feature package, and the adapters call
// that; a new direct call fails here.
func TestDirectQueryCalls(t *testing.T) {
	t.Parallel()
	methods := querierMethods(t, filepath.Join("..", "db", "querier.go"))
	if len(methods) < 100 {
		t.Fatalf("found %d methods in db.Querier; the parse is wrong", len(methods))
	}
	var calls []string
	for _, dir := range []string{".", filepath.Join("..", "activities")} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && methods[sel.Sel.Name] {
					calls = append(calls, fset.Position(call.Pos()).String()+" "+sel.Sel.Name)
				}
				return true
			})
		}
	}
	slices.Sort(calls)
	t.Logf("%d direct query calls:\n%s", len(calls), strings.Join(calls, "\n"))
	if len(calls) > maxDirectQueries {
		t.Errorf("%d direct query calls in api/ and activities/, at most %d: move the new ones into a feature package",
			len(calls), maxDirectQueries)
	}
}

// querierMethods are the method names of the Querier interface in file.
func querierMethods(t *testing.T, file string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Querier" {
			return true
		}
		if it, ok := ts.Type.(*ast.InterfaceType); ok {
			for _, m := range it.Methods.List {
				for _, name := range m.Names {
					out[name.Name] = true
				}
			}
		}
		return false
	})
	return out
}
