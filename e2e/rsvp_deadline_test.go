package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

// appState is an application's decision and RSVP, "" for none.
func appState(t *testing.T, a *app.App, id uuid.UUID) (decision, rsvp string) {
	t.Helper()
	st := decState(t, a, id)
	if st.Decision != nil {
		decision = *st.Decision
	}
	if st.Rsvp != nil {
		rsvp = *st.Rsvp
	}
	return decision, rsvp
}

func sentTo(t *testing.T, a *app.App, kind, to string) bool {
	t.Helper()
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM emails WHERE kind = $1 AND to_address = $2 AND status = 'sent'`, kind, to).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestRsvpDeadlineWorkflow runs RsvpDeadline on the real Temporal server:
// offers are announced, an unanswered offer expires at its deadline and its
// place goes to the head of the waitlist, whose offer is announced in turn.
func TestRsvpDeadlineWorkflow(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	ids := map[string]uuid.UUID{}
	owners := map[string]uuid.UUID{}
	for _, name := range []string{"yes", "silent", "wait1", "wait2"} {
		owners[name] = account(t, a, name+"@example.com", name, "member")
		ids[name] = seedApplication(t, a, owners[name], "submitted")
	}
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{
		"application_ids": []uuid.UUID{ids["wait1"]}, "decision": "waitlist"})
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{
		"application_ids": []uuid.UUID{ids["wait2"]}, "decision": "waitlist"})
	var batch struct {
		BatchID uuid.UUID `json:"batch_id"`
	}
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{
		"application_ids": []uuid.UUID{ids["yes"], ids["silent"]}, "decision": "offer",
		"rsvp_deadline": time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano),
	}).JSON(t, &batch)

	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return sentTo(t, a, "offer", "yes@example.com") && sentTo(t, a, "offer", "silent@example.com"), "offer emails"
	})
	as(t, a, anon, owners["yes"]).expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]bool{"attending": true})

	// At the deadline the silent offer expires and wait1 (waitlisted first)
	// is offered the place; wait2 stays on the waitlist for now.
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		_, r := appState(t, a, ids["silent"])
		d, _ := appState(t, a, ids["wait1"])
		return r == "expired" && d == "offer", "expiry and promotion"
	})
	if d, r := appState(t, a, ids["yes"]); d != "offer" || r != "attending" {
		t.Fatalf("the answered offer changed: %s/%s", d, r)
	}
	if d, _ := appState(t, a, ids["wait2"]); d != "waitlist" {
		t.Fatalf("wait2 = %s, want still waitlisted (one place freed)", d)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) { return sentTo(t, a, "offer", "wait1@example.com"), "the promoted offer's email" })
	var expiries []decEvent
	for _, e := range decEvents(t, a, ids["silent"]) {
		if e.Kind == "expired" {
			expiries = append(expiries, e)
		}
	}
	if len(expiries) != 1 || expiries[0].Actor != nil {
		t.Fatalf("expiry events %+v; want one, by the system", expiries)
	}

	// The first run's history feeds the replay test.
	desc, err := a.Temporal.DescribeWorkflowExecution(context.Background(), workflows.RsvpDeadlineID(batch.BatchID), "")
	if err != nil {
		t.Fatal(err)
	}
	firstRun := desc.WorkflowExecutionInfo.GetFirstRunId()
	testenv.RecordHistoryRun(t, a.Temporal, workflows.RsvpDeadlineID(batch.BatchID), firstRun, "rsvp_deadline")
}
