package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPassed(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Result
		want bool
	}{
		{"NoChecks", Result{}, false},
		{"AllHold", Result{Checks: []Check{{OK: true}, {OK: true}}}, true},
		{"OneFails", Result{Checks: []Check{{OK: true}, {OK: false}}}, false},
		{"DidNotFinish", Result{Checks: []Check{{OK: true}}, Err: errors.New("setup")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Passed(); got != tc.want {
				t.Fatalf("Passed() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTally(t *testing.T) {
	ta := NewTally()
	for _, s := range []int{200, 200, 503, 500} {
		ta.Add(s, nil)
	}
	ta.Add(0, errors.New("reset"))
	if got, want := ta.String(), "200×2, 500×1, 503×1, no answer×1"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	if got := ta.Others(is2xxOr5xx); got != 1 {
		t.Fatalf("Others(2xx or 5xx) = %d, want 1 (the missing answer)", got)
	}
}

func TestWriteDoc(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reliability.md")
	head, tail := "# Reliability\n\n"+beginMarker+"\n", endMarker+"\n\nAfter.\n"
	if err := os.WriteFile(path, []byte(head+"old table\n"+tail), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Result{Name: "a | b", Answers: NewTally(), Checks: []Check{{What: "x", OK: false, Got: "1\n2"}}}
	if err := writeDoc(path, Table([]*Result{r})); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	got := string(data)
	if !strings.HasPrefix(got, head) || !strings.HasSuffix(got, tail) || strings.Contains(got, "old table") {
		t.Fatalf("document:\n%s", got)
	}
	if !strings.Contains(got, `| 1 | a \| b |`) || !strings.Contains(got, "✗ x: 1 2") || !strings.Contains(got, "**FAIL**") {
		t.Fatalf("row not escaped or marked:\n%s", got)
	}
	if err := writeDoc(filepath.Join(t.TempDir(), "none.md"), ""); err == nil {
		t.Fatal("a missing file was written")
	}
}
