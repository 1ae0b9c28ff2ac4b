package e2e

import (
	"context"
	"testing"
	"time"

	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

// TestTermWindowWorkflow runs TermWindow on the real Temporal server: a new
// term without windows starts a run that ends at once; setting windows a
// few seconds ahead (PATCH) signal-with-starts a fresh run, which announces
// each form to the people it is for when it opens and records each close.
func TestTermWindowWorkflow(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	prev := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", false)
	term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	vp := as(t, a, anon, execAccount(t, a, "vp@example.com", "admin", "VP", "design", &term))
	execAccount(t, a, "old@example.com", "admin", "Exec", "web", &prev)
	account(t, a, "m@example.com", "M", "member")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id := workflows.TermWindowID(term)
	// The run started with the term has nothing to wait for.
	var res workflows.TermWindowResult
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND started_at IS NOT NULL`, id) == 1, "the first run"
	})
	if err := a.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Announced != 0 || len(res.Closed) != 0 {
		t.Fatalf("first run %+v", res)
	}

	now := time.Now().UTC().Truncate(time.Second)
	oOpens, oCloses := now.Add(2*time.Second), now.Add(7*time.Second)
	rOpens, rCloses := now.Add(3*time.Second), now.Add(8*time.Second)
	super.expect(200, "PATCH", "/api/admin/terms/"+term.String(), map[string]any{
		"onboarding_opens_at": oOpens.Format(time.RFC3339), "onboarding_closes_at": oCloses.Format(time.RFC3339),
		"returning_opens_at": rOpens.Format(time.RFC3339), "returning_closes_at": rCloses.Format(time.RFC3339)})
	// Changing the name alone signals nothing.
	super.expect(200, "PATCH", "/api/admin/terms/"+term.String(), map[string]any{"name": "2026-2027"})
	if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND signal = 'dates'`, id); n != 1 {
		t.Fatalf("%d signal rows, want 1", n)
	}

	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return sentTo(t, a, "exec_form_open", "vp@example.com"), "the onboarding announcement"
	})
	if time.Now().Before(oOpens) {
		t.Fatal("announced before the window opened")
	}
	vp.expect(201, "PUT", "/api/onboarding", formSubmission("Vee", "VP"))
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return sentTo(t, a, "exec_form_open", "old@example.com"), "the returning announcement"
	})

	runCtx, cancelRun := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelRun()
	if err := a.Temporal.GetWorkflow(runCtx, id, "").Get(runCtx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Announced != 2 || res.Reminded != 0 || len(res.Closed) != 2 {
		t.Fatalf("result %+v", res)
	}
	if n := countRows(t, a, `SELECT count(*) FROM term_window_closings WHERE term_id = $1 AND kind = 'onboarding' AND submitted = 1 AND recorded_at >= $2`, term, oCloses); n != 1 {
		t.Errorf("onboarding close not recorded")
	}
	if n := countRows(t, a, `SELECT count(*) FROM term_window_closings WHERE term_id = $1 AND kind = 'returning' AND submitted = 0`, term); n != 1 {
		t.Errorf("returning close not recorded")
	}
	// Each person got each announcement once, and nobody else any.
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE kind = 'exec_form_open'`); n != 2 {
		t.Errorf("%d announcements, want 2", n)
	}
	testenv.RecordHistory(t, a.Temporal, id, "term_window")
}
