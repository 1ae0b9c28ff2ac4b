package activities_test

import (
	"context"
	"strings"
	"testing"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/mail"
)

// TestDeliverRedactsSecrets: once a confirmation (a secret-bearing kind) is
// sent or given up, the audit row keeps a notice instead of the link,
// unless the worker keeps secret bodies (the local stack's mail catcher).
// Emails without secrets keep their bodies. The driver always gets the
// real body.
func TestDeliverRedactsSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const link = "https://hackdesk.example/auth/confirm?token=SECRET"
	for _, tc := range []struct {
		name       string
		keep       bool
		kind       string
		fail       bool
		wantLinked bool
	}{
		{"OKRedactedOnceSent", false, "confirm", false, false},
		{"OKRedactedOnceFailed", false, "confirm", true, false},
		{"OKKeptByMailCatcher", true, "confirm", false, true},
		{"OKNoSecretKept", false, "offer", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := testenv.Store(t)
			sender := &fakeSender{}
			if tc.fail {
				sender.errs = append(sender.errs, &mail.PermanentError{Err: errString("550 no such user")})
			}
			a := &activities.EmailActivities{Store: s, Mailer: sender, MailFrom: "hackdesk <no-reply@example.com>", KeepSecretBodies: tc.keep}
			data := map[string]string{"name": "Ada", "link": link, "deadline": "tomorrow"}
			if err := s.InTx(ctx, func(q *db.Queries) error {
				_, err := mail.Record(ctx, q, "k", tc.kind, "ada@example.com", data)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			_, _ = a.DeliverEmail(ctx, "k")
			e, err := s.EmailGetByKey(ctx, "k")
			if err != nil {
				t.Fatal(err)
			}
			if e.Secret != (tc.kind == "confirm") {
				t.Errorf("secret = %v for kind %s", e.Secret, tc.kind)
			}
			if want := map[bool]string{true: "failed", false: "sent"}[tc.fail]; e.Status != want {
				t.Fatalf("status %s, want %s", e.Status, want)
			}
			linked := strings.Contains(e.TextBody, link) || strings.Contains(e.HtmlBody, "SECRET")
			if linked != tc.wantLinked {
				t.Fatalf("stored bodies hold the link = %v, want %v:\n%s\n%s", linked, tc.wantLinked, e.TextBody, e.HtmlBody)
			}
			if !tc.wantLinked && (e.TextBody != mail.RedactedText || e.HtmlBody != mail.RedactedHTML) {
				t.Fatalf("redacted bodies %q / %q, want the notice", e.TextBody, e.HtmlBody)
			}
			if !tc.fail && (len(sender.sent) != 1 || !strings.Contains(sender.sent[0].Text, link)) {
				t.Fatalf("the driver got %+v, want the body with the link", sender.sent)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
