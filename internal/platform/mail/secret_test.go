package mail

import (
	"strings"
	"testing"
)

// The kinds whose bodies carry one-time links are marked secret, so the
// audit trail can hide and redact them; account_exists carries none.
func TestRenderSecretKinds(t *testing.T) {
	t.Parallel()
	for kind, want := range map[string]bool{"confirm": true, "reset": true, "account_exists": false, "offer": false, "notice": false} {
		data := map[string]string{"name": "Ada", "link": "https://x.example/l?token=t", "deadline": "soon",
			"subject": "s", "body": "b", "login": "https://x.example/login", "reset": "https://x.example/forgot-password"}
		r, err := Render(kind, data)
		if err != nil {
			t.Fatalf("Render(%s): %v", kind, err)
		}
		if r.Secret != want {
			t.Errorf("Render(%s).Secret = %v, want %v", kind, r.Secret, want)
		}
	}
	r, err := Render("account_exists", map[string]string{"name": "Ada", "login": "https://x.example/login", "reset": "https://x.example/forgot-password"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Hi Ada,", "https://x.example/login", "https://x.example/forgot-password"} {
		if !strings.Contains(r.Text, want) || !strings.Contains(r.HTML, strings.TrimSuffix(want, ",")) {
			t.Errorf("account_exists lacks %q:\n%s\n%s", want, r.Text, r.HTML)
		}
	}
	if strings.Contains(RedactedText, "token") || !strings.HasPrefix(RedactedHTML, "<p>") {
		t.Errorf("redaction notice %q / %q", RedactedText, RedactedHTML)
	}
}
