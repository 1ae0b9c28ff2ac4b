package foundry

import (
	"strings"
	"testing"
)

func TestCheckRepoName(t *testing.T) {
	t.Parallel()
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

func TestCheckTeamSlug(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		slug string
		ok   bool
	}{
		{"platform", true},
		{"hackathon-tech", true},
		{"team_2", true},
		{"0day", true},
		{strings.Repeat("a", 100), true},
		{"", false},
		{strings.Repeat("a", 101), false},
		{"..", false},
		{".", false},
		{"-lead", false},
		{"_lead", false},
		{"a/b", false},
		{"a%2Fb", false},
		{"a?b", false},
		{"a#b", false},
		{"a b", false},
		{"Platform", false},
		{"a.b", false},
		{"ünï", false},
		{"a\n", false},
	} {
		if got := CheckTeamSlug(c.slug) == ""; got != c.ok {
			t.Errorf("CheckTeamSlug(%q) ok = %v, want %v (%s)", c.slug, got, c.ok, CheckTeamSlug(c.slug))
		}
	}
}

func TestOptionSets(t *testing.T) {
	t.Parallel()
	for _, pt := range []string{"nextjs", "express", "fastapi"} {
		if !ValidProjectType(pt) {
			t.Errorf("%s not valid", pt)
		}
	}
	if ValidProjectType("rails") || ValidProjectType("") || ValidDatabase("mysql") || !ValidDatabase("mongodb") {
		t.Error("option sets wrong")
	}
}
