package web

import "testing"

func TestSafeNext(t *testing.T) {
	t.Parallel()
	cases := []struct{ raw, want string }{
		// The cases of web/src/lib/utilities/next.test.ts, which the pages'
		// safeNext passes.
		{"", "/"},
		{"/apply", "/apply"},
		{"%2Fapply", "/apply"},
		{"/admin/memberships/1?sig=abc_-", "/admin/memberships/1?sig=abc_-"},
		{"%2Fadmin%2Fmemberships%2F1%3Fsig%3Dabc", "/admin/memberships/1?sig=abc"},
		{"https://evil.example/", "/"},
		{"//evil.example", "/"},
		{"/\\evil.example", "/"},
		{"%2F%2Fevil.example", "/"},
		{"/%2Fevil.example", "/"},
		{"/%5Cevil.example", "/"},
		{"javascript:alert(1)", "/"},
		{"/apply\nx", "/"},
		{"apply", "/"},
		// More of the same rule.
		{"/", "/"},
		{"/apply/submitted", "/apply/submitted"},
		{"/events?x=1&y=a%20b", "/events?x=1&y=a%20b"},
		{"%2fapply", "/apply"},
		{"%252Fapply", "/"}, // only an encoded "/" start is decoded
		{"  /apply\t", "/apply"},
		{"\ufeff/apply", "/apply"},
		{"/a+b", "/a+b"},
		{"/caf%C3%A9", "/caf%C3%A9"},
		{"\\\\evil.example", "/"},
		{"\\/evil.example", "/"},
		{"/%2F%2Fevil.example", "/"},
		{"/%252F%252Fevil.example", "/"},
		{"/%25252F%25252Fevil.example", "/"},
		{"%2F%2F%2Fevil.example", "/"},
		{"%2F%5Cevil.example", "/"},
		{"/\t/evil.example", "/"},
		{"/\r\n/evil.example", "/"},
		{"/%09/evil.example", "/"},
		{"/%0A/evil.example", "/"},
		{"/apply%00", "/"},
		{"/apply\x7f", "/"},
		{"http:/evil.example", "/"},
		{"HTTPS://evil.example", "/"},
		{"data:text/html,x", "/"},
		{"/%zz", "/"},
		{"/%", "/"},
		{"/%C3", "/"},
		{"/\xff", "/"},
		// Payloads of the third review, held.
		{"///evil.example", "/"},
		{"\t//evil.example", "/"},
		{"/%5C%5Cevil.example", "/"},
		{"%2F%252Fevil.example", "/"},
		{"%2F%2F%2F%2Fevil.example%2F", "/"},
		{"//evil.example@hackdesk.test", "/"},
		{"https:evil.example", "/"},
		{"https:/\\evil.example", "/"},
		{"/%E3%80%82evil.example", "/%E3%80%82evil.example"}, // a path of this site
		{"%0D%0A//evil.example", "/"},
		{"/ /evil.example", "/ /evil.example"}, // a path of this site
		{"\u3000//evil.example", "/"},
	}
	for _, c := range cases {
		if got := SafeNext(c.raw); got != c.want {
			t.Errorf("SafeNext(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// The embedded build has the files the server's page table names.
func TestFSHasEntries(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"index.html", "404.html"} {
		if _, err := FS().Open(name); err != nil {
			t.Errorf("embedded build: %v", err)
		}
	}
}
