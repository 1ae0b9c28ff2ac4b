package onboarding_test

import (
	"testing"

	"hackdesk/db"
	"hackdesk/internal/feature/onboarding"
)

// TestKeptHeadshot keeps the object the submission points at, and any
// object while there is no submission; an object no longer pointed at may
// go.
func TestKeptHeadshot(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cur := w.term("2026-2027", "2026-09-01", open(), nil)
	me := w.person("ada@example.com", &cur, "web", true)
	jpg := onboarding.HeadshotKey(cur.ID, onboarding.Onboarding, me, "jpg")
	png := onboarding.HeadshotKey(cur.ID, onboarding.Onboarding, me, "png")
	kept := func(kind onboarding.Kind, key string) string {
		t.Helper()
		var why string
		if err := w.store.InTx(w.ctx, func(q *db.Queries) (err error) {
			why, err = onboarding.KeptHeadshot(w.ctx, q, cur.ID, kind, me, key)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return why
	}
	if got := kept(onboarding.Onboarding, jpg); got != "kept: no submission points anywhere yet" {
		t.Fatalf("without a submission: %q", got)
	}
	if err := w.store.InTx(w.ctx, func(q *db.Queries) error {
		_, err := onboarding.Submit(w.ctx, q, memObjects{jpg: []byte("jpeg")}, cur, onboarding.Onboarding, me, onboarding.Answers{
			DisplayName: "Ada", Email: "ada@example.com", Role: "VP", TermType: "fall", DsCompetency: "none",
			SetHeadshotKey: true, HeadshotKey: &jpg, SetHeadshotConsent: true, HeadshotConsent: true})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind onboarding.Kind
		key  string
		want string
	}{
		{onboarding.Onboarding, jpg, "kept: it is the current headshot"},
		{onboarding.Onboarding, png, ""},
		{onboarding.Returning, jpg, "kept: no submission points anywhere yet"},
	} {
		if got := kept(c.kind, c.key); got != c.want {
			t.Errorf("KeptHeadshot(%s, %s) = %q, want %q", c.kind, c.key, got, c.want)
		}
	}
}
