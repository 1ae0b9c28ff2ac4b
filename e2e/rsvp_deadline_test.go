package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/testenv"
	"hackdesk/workflows"
)

// waitFor polls cond until it holds or 30 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func appState(t *testing.T, a *app.App, id uuid.UUID) (decision, rsvp string) {
	t.Helper()
	var d, r *string
	if err := a.Store.Pool().QueryRow(context.Background(),
		`SELECT decision, rsvp FROM applications WHERE id = $1`, id).Scan(&d, &r); err != nil {
		t.Fatal(err)
	}
	if d != nil {
		decision = *d
	}
	if r != nil {
		rsvp = *r
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
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	ids := map[string]uuid.UUID{}
	owners := map[string]uuid.UUID{}
	for _, name := range []string{"yes", "silent", "wait1", "wait2"} {
		owners[name] = account(t, a, name+"@example.com", name, "member")
		ids[name] = uuid.New()
		seedApplication(t, a, ids[name], owners[name], "submitted")
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

	waitFor(t, "offer emails", func() bool {
		return sentTo(t, a, "offer", "yes@example.com") && sentTo(t, a, "offer", "silent@example.com")
	})
	as(t, a, anon, owners["yes"]).expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]bool{"attending": true})

	// At the deadline the silent offer expires and wait1 (waitlisted first)
	// is offered the place; wait2 stays on the waitlist for now.
	waitFor(t, "expiry and promotion", func() bool {
		_, r := appState(t, a, ids["silent"])
		d, _ := appState(t, a, ids["wait1"])
		return r == "expired" && d == "offer"
	})
	if d, r := appState(t, a, ids["yes"]); d != "offer" || r != "attending" {
		t.Fatalf("the answered offer changed: %s/%s", d, r)
	}
	if d, _ := appState(t, a, ids["wait2"]); d != "waitlist" {
		t.Fatalf("wait2 = %s, want still waitlisted (one place freed)", d)
	}
	waitFor(t, "the promoted offer's email", func() bool { return sentTo(t, a, "offer", "wait1@example.com") })
	var actor *uuid.UUID
	if err := a.Store.Pool().QueryRow(context.Background(),
		`SELECT actor_id FROM application_events WHERE application_id = $1 AND kind = 'expired'`, ids["silent"]).Scan(&actor); err != nil || actor != nil {
		t.Fatalf("expiry event: actor %v, %v; want one event by the system", actor, err)
	}

	// The first run's history feeds the replay test.
	desc, err := a.Temporal.DescribeWorkflowExecution(context.Background(), workflows.RsvpDeadlineID(batch.BatchID), "")
	if err != nil {
		t.Fatal(err)
	}
	firstRun := desc.WorkflowExecutionInfo.GetFirstRunId()
	testenv.RecordHistoryRun(t, a.Temporal, workflows.RsvpDeadlineID(batch.BatchID), firstRun, "rsvp_deadline")
}
