package mail

import (
	"testing"

	"hackdesk/db"
)

// The audit trail hides the bodies of secret-bearing emails, unless it is
// the local stack's mail catcher.
func TestShown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                string
		secret, showSecrets bool
		wantText, wantHTML  string
	}{
		{"PlainShown", false, false, "hello", "<p>hello</p>"},
		{"SecretHidden", true, false, RedactedText, RedactedHTML},
		{"SecretInTheMailCatcher", true, true, "hello", "<p>hello</p>"},
	} {
		e := db.Email{IdempotencyKey: "k", Kind: "confirm", ToAddress: "ada@example.com", Subject: "s",
			TextBody: "hello", HtmlBody: "<p>hello</p>", Status: "sent", Secret: tc.secret}
		got := Shown(e, tc.showSecrets)
		if got.Text != tc.wantText || got.HTML != tc.wantHTML || got.To != "ada@example.com" || got.IdempotencyKey != "k" || got.Status != "sent" {
			t.Errorf("%s: %+v", tc.name, got)
		}
	}
}
