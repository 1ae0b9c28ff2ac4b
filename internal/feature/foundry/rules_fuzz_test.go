package foundry

import (
	"net/url"
	"path"
	"strings"
	"testing"
)

// FuzzCheckRepoName: a name is accepted exactly when it is 1 to 100 bytes
// of [A-Za-z0-9._-] other than "." and ".." (checked here byte by byte,
// without the regexp), and an accepted name is safe as one URL path
// segment of the code host's API (/repos/{org}/{name}): it needs no
// escaping and path cleaning leaves it alone.
func FuzzCheckRepoName(f *testing.F) {
	for _, s := range []string{"web", "My_App-2.0", ".github", "...", ".", "..", "", "has space", "slash/name",
		"ünïcode", "semi;colon", "a\n", "\na", "name%2F..", strings.Repeat("a", 100), strings.Repeat("a", 101), "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		why := CheckRepoName(name)
		if ok := repoNameOK(name); ok != (why == "") {
			t.Fatalf("CheckRepoName(%q) = %q, want accepted=%v", name, why, ok)
		}
		if why != "" {
			return
		}
		if url.PathEscape(name) != name {
			t.Fatalf("accepted %q needs escaping in a URL path: %q", name, url.PathEscape(name))
		}
		if p := "/repos/org/" + name; path.Clean(p) != p {
			t.Fatalf("accepted %q moves the API path: %q cleans to %q", name, p, path.Clean(p))
		}
	})
}

func repoNameOK(name string) bool {
	if len(name) < 1 || len(name) > 100 || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}
