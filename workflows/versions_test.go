package workflows_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/payloadcodec"
	hdworker "hackdesk/worker"
)

// change is one workflow.GetVersion call in the workflows' source: its
// change id and the versions it supports.
type change struct {
	id       string
	min, max int // min is -1 for workflow.DefaultVersion
}

// TestWorkflowVersionsHaveHistories lists every version of every workflow
// type (each change id its code reads with workflow.GetVersion, in the
// workflow's own function or any it calls, and each version from the
// oldest supported to maxSupported) and fails when one has no recorded
// history in testdata/ that TestReplay replays: a version shipped without
// a history cannot be proven to replay after the next change. For a
// version, a history of the type with that change id's marker at that
// version; for workflow.DefaultVersion, one without the marker (recorded
// before the change). `go test -run TestWorkflowVersionsHaveHistories -v`
// prints the list (the release notes' list of markers).
func TestWorkflowVersionsHaveHistories(t *testing.T) {
	// bornAfter lists, for a workflow type first shipped after a change
	// its helpers read, the change ids whose DefaultVersion it never ran:
	// every run of it records the marker.
	bornAfter := map[string][]string{
		"ApplicationWindow": {"send-all-bounded"},
		"EventDay":          {"send-all-bounded"},
	}
	changes := sourceChanges(t)
	histories := recordedHistories(t)
	for _, w := range hdworker.Workflows {
		name := runtime.FuncForPC(reflect.ValueOf(w.Fn).Pointer()).Name()
		fn := name[strings.LastIndex(name, ".")+1:]
		cs := changes[fn]
		if len(cs) == 0 {
			t.Logf("%s: no GetVersion change", w.Name)
		}
		own := histories[w.Name]
		if len(own) == 0 {
			t.Errorf("%s: no recorded history in testdata/", w.Name)
			continue
		}
		for _, c := range cs {
			for _, v := range c.versions() {
				if v == -1 && slices.Contains(bornAfter[w.Name], c.id) {
					continue
				}
				var files []string
				for _, h := range own {
					got, ok := h.markers[c.id]
					if (v == -1 && !ok) || (ok && got == v) {
						files = append(files, h.file)
					}
				}
				label := fmt.Sprintf("%s: %s %s", w.Name, c.id, versionName(v))
				if len(files) == 0 {
					t.Errorf("%s has no recorded history in testdata/ (record one: testdata/README.md)", label)
					continue
				}
				t.Logf("%s: %s", label, strings.Join(files, ", "))
			}
		}
	}
}

// versions are the versions a change's runs may have recorded: the
// DefaultVersion (no marker) when still supported, then each
// maxSupported the change has had (1, 2, ...).
func (c change) versions() []int {
	var out []int
	for v := c.min; v <= c.max; v++ {
		if v == 0 && c.min < 0 {
			continue // after DefaultVersion comes 1
		}
		out = append(out, v)
	}
	return out
}

func versionName(v int) string {
	if v == -1 {
		return "DefaultVersion (before the marker)"
	}
	return strconv.Itoa(v)
}

// sourceChanges reads the workflows package's source: for each function,
// the GetVersion changes it makes itself or through the package's
// functions it calls.
func sourceChanges(t *testing.T) map[string][]change {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	calls := map[string][]string{}
	own := map[string][]change{}
	var decls []*ast.FuncDecl
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					vs, ok := s.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								consts[n.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			case *ast.FuncDecl:
				decls = append(decls, d)
			}
		}
	}
	for _, d := range decls {
		name := d.Name.Name
		ast.Inspect(d, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				calls[name] = append(calls[name], fun.Name)
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "workflow" && fun.Sel.Name == "GetVersion" {
					own[name] = append(own[name], getVersion(t, fset, call, consts))
				}
			}
			return true
		})
	}
	out := map[string][]change{}
	for _, d := range decls {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(fn string) {
			if seen[fn] {
				return
			}
			seen[fn] = true
			out[d.Name.Name] = append(out[d.Name.Name], own[fn]...)
			for _, c := range calls[fn] {
				walk(c)
			}
		}
		walk(d.Name.Name)
		sort.Slice(out[d.Name.Name], func(i, j int) bool { return out[d.Name.Name][i].id < out[d.Name.Name][j].id })
		out[d.Name.Name] = slices.CompactFunc(out[d.Name.Name], func(a, b change) bool { return a == b })
	}
	return out
}

// getVersion reads a workflow.GetVersion(ctx, changeID, min, max) call.
func getVersion(t *testing.T, fset *token.FileSet, call *ast.CallExpr, consts map[string]string) change {
	t.Helper()
	at := fset.Position(call.Pos())
	if len(call.Args) != 4 {
		t.Fatalf("%s: GetVersion with %d arguments", at, len(call.Args))
	}
	id, ok := call.Args[1].(*ast.Ident)
	if !ok || consts[id.Name] == "" {
		t.Fatalf("%s: GetVersion's change id must be a string constant of the package", at)
	}
	version := func(e ast.Expr) int {
		switch e := e.(type) {
		case *ast.SelectorExpr:
			if e.Sel.Name == "DefaultVersion" {
				return -1
			}
		case *ast.BasicLit:
			if n, err := strconv.Atoi(e.Value); err == nil {
				return n
			}
		}
		t.Fatalf("%s: GetVersion's versions must be workflow.DefaultVersion or numbers", at)
		return 0
	}
	return change{id: consts[id.Name], min: version(call.Args[2]), max: version(call.Args[3])}
}

// history is one recorded history: its file and the version each change
// id's marker recorded.
type history struct {
	file    string
	markers map[string]int
}

// recordedHistories reads testdata/*.json by workflow type.
func recordedHistories(t *testing.T) map[string][]history {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Histories recorded from a test run have their markers' details
	// encrypted under the tests' key, as every payload.
	codec, err := payloadcodec.FromEnv(testenv.PayloadKeys)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]history{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var h historypb.History
		if err := protojson.Unmarshal(data, &h); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(h.GetEvents()) == 0 {
			t.Fatalf("%s: no events", path)
		}
		typ := h.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowType().GetName()
		rec := history{file: filepath.Base(path), markers: map[string]int{}}
		for _, ev := range h.GetEvents() {
			m := ev.GetMarkerRecordedEventAttributes()
			if m == nil || m.GetMarkerName() != "Version" {
				continue
			}
			var id string
			var v int
			idp, err := codec.Decode(m.GetDetails()["change-id"].GetPayloads())
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			vp, err := codec.Decode(m.GetDetails()["version"].GetPayloads())
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if len(idp) != 1 || len(vp) != 1 || json.Unmarshal(idp[0].GetData(), &id) != nil || json.Unmarshal(vp[0].GetData(), &v) != nil {
				t.Fatalf("%s: a version marker without its change id and version", path)
			}
			rec.markers[id] = v
		}
		out[typ] = append(out[typ], rec)
	}
	return out
}
