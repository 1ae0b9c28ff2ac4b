package freetext

import (
	"maps"
	"testing"
)

func TestLine(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{
		"Grace Hopper": true, "Zoë Ångström": true, "李小龙": true, "Ada 🚀": true, "a\u00a0b": true, "": true,
		"Eve\r\nBcc: all@example.com": false, "Eve\nAdmin": false, "Eve\tAdmin": false, "Eve\x07": false,
		"Eve\x7f": false, "Eve\u0085x": false, "Eve \u202Egpj.exe": false, "Eve \u2066x\u2069": false,
		"Ad\u200Bmin": false, "\uFEFFAdmin": false, "Eve\u2028Admin": false, "Eve\u2029Admin": false,
	} {
		if got := Line(in) == ""; got != ok {
			t.Errorf("Line(%q) accepts: %v, want %v", in, got, ok)
		}
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{
		"old pond\nfrog jumps in\r\nsplash": true, "func f() {\n\treturn\n}": true, "Zoë": true,
		"a\x07b": false, "a\u202eb": false, "a\u200bb": false, "a\u2028b": false, "a\x1b[31m": false, "a\x0bb": false,
	} {
		if got := Lines(in) == ""; got != ok {
			t.Errorf("Lines(%q) accepts: %v, want %v", in, got, ok)
		}
	}
}

type inner struct {
	Subteam *string `json:"subteam"`
}

type field[T any] struct {
	Set bool
	V   T
}

type body struct {
	Name     string            `json:"name"`
	Bio      string            `json:"bio" text:"lines"`
	Password string            `json:"password" text:"any"`
	Handle   *string           `json:"handle"`
	Nested   *inner            `json:"exec"`
	Patch    field[string]     `json:"title"`
	Answers  map[string]string `json:"answers" text:"lines"`
	Tags     []string          `json:"tags"`
	Skipped  string            `json:"-"`
	Untagged string
	hidden   string
}

func TestCheck(t *testing.T) {
	t.Parallel()
	bad, nl := "a\u202eb", "a\nb"
	b := &body{Name: bad, Bio: nl, Password: "p\x07w", Handle: &nl, Nested: &inner{Subteam: &bad},
		Patch: field[string]{Set: true, V: nl}, Answers: map[string]string{"q1": nl, "q2": bad, "k\x07": "x"},
		Tags: []string{"ok", bad}, Skipped: bad, Untagged: bad, hidden: bad}
	got := Check(b)
	want := map[string]string{"name": LineReason, "handle": LineReason, "exec.subteam": LineReason,
		"title": LineReason, "answers.q2": LinesReason, "answers": LineReason, "tags": LineReason, "Untagged": LineReason}
	if !maps.Equal(got, want) {
		t.Errorf("Check = %v\nwant %v", got, want)
	}
	if got := Check(&body{Name: "Ada", Bio: nl, Answers: map[string]string{"q1": nl}}); len(got) != 0 {
		t.Errorf("Check of acceptable text = %v", got)
	}
}
