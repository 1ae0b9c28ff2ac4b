package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// formTag is a <form ...> start tag of a Svelte component (attributes may
// span lines; a `>` inside an attribute's braces does not end it).
var formTag = regexp.MustCompile(`<form\b(?:[^>{]|\{[^}]*\})*>`)

// Every form of the pages that carries a secret or changes data posts: a
// form submitted without its script (a password manager, automation, a
// script that failed) then goes to the page, which answers 303 back and
// reads nothing, instead of putting its fields (a password) in the URL of
// a GET. Only the filter bars above lists are searches, and stay GET.
func TestFormsPost(t *testing.T) {
	t.Parallel()
	forms := 0
	err := filepath.WalkDir("src", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".svelte") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, tag := range formTag.FindAllString(string(src), -1) {
			forms++
			search := strings.Contains(tag, `role="search"`)
			post := strings.Contains(tag, `method="post"`)
			switch {
			case search && post:
				t.Errorf("%s: a search form posts: %s", path, tag)
			case !search && !post:
				t.Errorf("%s: a form without method=\"post\": %s", path, tag)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if forms < 20 {
		t.Fatalf("found %d forms in src/", forms)
	}
}
