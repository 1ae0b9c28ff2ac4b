package codehost

import (
	"strings"
	"testing"
)

func TestCheckRepoName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"web", true},
		{"My_App-2.0", true},
		{".github", true},
		{"...", true},
		{strings.Repeat("a", 100), true},
		{"", false},
		{".", false},
		{"..", false},
		{strings.Repeat("a", 101), false},
		{"has space", false},
		{"slash/name", false},
		{"ünïcode", false},
		{"semi;colon", false},
	} {
		if got := CheckRepoName(c.name) == ""; got != c.ok {
			t.Errorf("CheckRepoName(%q) ok = %v, want %v (%s)", c.name, got, c.ok, CheckRepoName(c.name))
		}
	}
}

func TestOptionSets(t *testing.T) {
	for _, pt := range []string{"nextjs", "express", "fastapi"} {
		if !ValidProjectType(pt) {
			t.Errorf("%s not valid", pt)
		}
	}
	if ValidProjectType("rails") || ValidProjectType("") || ValidDatabase("mysql") || !ValidDatabase("mongodb") {
		t.Error("option sets wrong")
	}
}
