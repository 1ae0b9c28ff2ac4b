package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// emailCount counts the recorded emails of kind to an address.
func emailCount(t *testing.T, a *app.App, kind, to string) int {
	t.Helper()
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM emails WHERE kind = $1 AND to_address = $2`, kind, to).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// progress asks a workflow for its progress query, "" when it cannot answer.
func progress(a *app.App, id string) string {
	v, err := a.Temporal.QueryWorkflow(context.Background(), id, "", workflows.ProgressQuery)
	if err != nil {
		return ""
	}
	var s string
	if v.Get(&s) != nil {
		return ""
	}
	return s
}

// TestOfferWorkflowWaitsForCommit holds an offer decision's transaction
// open after its RsvpDeadline start was queued. While it is open no
// workflow exists (the old code started it inside the transaction, where
// it could announce offers before they were visible and email no one);
// after the commit every offered applicant is emailed.
func TestOfferWorkflowWaitsForCommit(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	admin := account(t, a, "admin@example.com", "Admin", "admin")
	var ids []uuid.UUID
	for _, name := range []string{"ana", "ben", "cy"} {
		id := seedApplication(t, a, account(t, a, name+"@example.com", name, "member"), "submitted")
		ids = append(ids, id)
	}
	ctx := context.Background()
	batch := uuid.New()
	deadline := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
	req := workflows.RsvpDeadlineRequest(workflows.RsvpDeadlineInput{BatchID: batch, Deadline: deadline, PublicURL: "http://hackdesk.test"})
	detail, _ := json.Marshal(map[string]any{"decision": "offer", "batch_id": batch})
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.DecisionApply(ctx, db.DecisionApplyParams{ActorID: admin, Detail: detail, Ids: ids,
			Decision: "offer", RsvpDeadline: &deadline}); err != nil {
			return err
		}
		if _, err := outbox.Enqueue(ctx, q, req); err != nil {
			return err
		}
		// Held open well past a dispatcher's reaction time.
		time.Sleep(2 * time.Second)
		_, err := a.Temporal.DescribeWorkflowExecution(ctx, req.ID, "")
		var nf *serviceerror.NotFound
		if !errors.As(err, &nf) {
			t.Errorf("the workflow exists before the commit (describe: %v)", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return sentTo(t, a, "offer", "ana@example.com") && sentTo(t, a, "offer", "ben@example.com") &&
			sentTo(t, a, "offer", "cy@example.com"), "offer emails to every applicant"
	})
}

// TestDecisionIdempotencyKey: a retried decision request with the same key
// answers the stored response and sends no second email; the key reused
// for another request is 422.
func TestDecisionIdempotencyKey(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	id := seedApplication(t, a, account(t, a, "ana@example.com", "Ana", "member"), "submitted")
	body := map[string]any{"application_ids": []uuid.UUID{id}, "decision": "offer",
		"rsvp_deadline": time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)}
	first := admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", body, "Idempotency-Key", "retry-1")
	again := admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", body, "Idempotency-Key", "retry-1")
	var b1, b2 decAnswer
	first.JSON(t, &b1)
	again.JSON(t, &b2)
	if b1 != b2 || b1.BatchID == uuid.Nil {
		t.Fatalf("retry answered %+v, first %+v: want the same answer", b2, b1)
	}
	if n := len(decEvents(t, a, id)); n != 1 {
		t.Fatalf("%d decision events, want 1", n)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) { return sentTo(t, a, "offer", "ana@example.com"), "the offer email" })

	other := map[string]any{"application_ids": []uuid.UUID{id}, "decision": "waitlist"}
	r := admin.expect(http.StatusUnprocessableEntity, "POST", "/api/admin/applications/decisions", other, "Idempotency-Key", "retry-1")
	if r.Map(t)["error"] != "Idempotency key reused" {
		t.Fatalf("reused key body %s", r.Body)
	}
	admin.expect(http.StatusBadRequest, "POST", "/api/admin/applications/decisions", other, "Idempotency-Key", "bad key with spaces")

	// A failed request stores nothing: the key stays usable.
	missing := map[string]any{"application_ids": []uuid.UUID{uuid.New()}, "decision": "reject"}
	admin.expect(http.StatusNotFound, "POST", "/api/admin/applications/decisions", missing, "Idempotency-Key", "retry-2")
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions",
		map[string]any{"application_ids": []uuid.UUID{id}, "decision": "offer",
			"rsvp_deadline": time.Now().Add(96 * time.Hour).UTC().Format(time.RFC3339)}, "Idempotency-Key", "retry-2")

	time.Sleep(time.Second) // a second email, if any, would be recorded by now
	if n := emailCount(t, a, "offer", "ana@example.com"); n != 1 {
		t.Fatalf("%d offer emails, want 1", n)
	}
}

// TestReofferSendsNoSecondOfferEmail: offering again an application whose
// offer is open (a new deadline) announces nothing new; the new batch's
// workflow owns the offer from then on.
func TestReofferSendsNoSecondOfferEmail(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	held := seedApplication(t, a, account(t, a, "held@example.com", "Held", "member"), "submitted")
	fresh := seedApplication(t, a, account(t, a, "fresh@example.com", "Fresh", "member"), "submitted")
	var b1, b2 decAnswer
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{
		"application_ids": []uuid.UUID{held}, "decision": "offer",
		"rsvp_deadline": time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)}).JSON(t, &b1)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) { return sentTo(t, a, "offer", "held@example.com"), "the first offer email" })
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{
		"application_ids": []uuid.UUID{held, fresh}, "decision": "offer",
		"rsvp_deadline": time.Now().Add(96 * time.Hour).UTC().Format(time.RFC3339)}).JSON(t, &b2)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return progress(a, workflows.RsvpDeadlineID(b2.BatchID)) == "waiting to remind", "the second batch's announcement"
	})
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return sentTo(t, a, "offer", "fresh@example.com"), "the new applicant's offer email"
	})
	if n := emailCount(t, a, "offer", "held@example.com"); n != 1 {
		t.Fatalf("%d offer emails to the re-offered applicant, want 1", n)
	}
}

// TestWorkflowsListedByKind: an admin filters runs in the Temporal UI by
// the search attributes; a sign-up's confirmation email is found by kind
// and idempotency key (never by its recipient: the UI shows search
// attributes to everyone who can open it).
func TestWorkflowsListedByKind(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	email := "listed-" + uuid.NewString()[:8] + "@example.com"
	signup(t, a, anon, email, "correct horse battery", "Listed")
	e := sentEmail(t, a, email, "confirm")
	byAddress, err := a.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: "HackdeskSubject = '" + email + "'"})
	if err != nil || len(byAddress.Executions) != 0 {
		t.Fatalf("runs whose subject is the recipient's address: %v (%v), want none", byAddress.GetExecutions(), err)
	}
	query := "HackdeskKind = 'email' AND HackdeskSubject = '" + e.IdempotencyKey + "'"
	var ids []string
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		resp, err := a.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatalf("list %q: %v", query, err)
		}
		ids = ids[:0]
		for _, e := range resp.Executions {
			ids = append(ids, e.Execution.WorkflowId)
		}
		return len(ids) > 0, "the workflow in the visibility store"
	})
	if len(ids) != 1 || len(ids[0]) < len("email:confirm:") || ids[0][:len("email:confirm:")] != "email:confirm:" {
		t.Fatalf("workflows listed for %s: %v", email, ids)
	}
}

// TestCrashBetweenCommitAndStart: an API process answers a sign-up (the
// commit happened) and dies before its dispatcher starts the email's
// workflow. The next process on the same database starts it, once.
func TestCrashBetweenCommitAndStart(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	ctx := context.Background()
	crashed, err := app.Open(ctx, cfg, testenv.Logger(t), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := crashed.Listen(); err != nil { // an API with no dispatcher running
		t.Fatal(err)
	}
	anon := &client{t: t, base: crashed.URL()}
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": "late@example.com", "password": "correct horse battery", "display_name": "Late"})
	var id string
	if err := crashed.Store.Pool().QueryRow(ctx, `SELECT workflow_id FROM workflow_starts WHERE started_at IS NULL`).Scan(&id); err != nil {
		t.Fatalf("the sign-up queued no workflow start: %v", err)
	}
	var nf *serviceerror.NotFound
	if _, err := crashed.Temporal.DescribeWorkflowExecution(ctx, id, ""); !errors.As(err, &nf) {
		t.Fatalf("describe before any dispatch: %v, want not found", err)
	}
	crashed.Close()

	restarted := testenv.App(t, cfg)
	sentEmail(t, restarted, "late@example.com", "confirm")
	var attempts, emails int
	if err := restarted.Store.Pool().QueryRow(ctx, `
		SELECT (SELECT attempts FROM workflow_starts WHERE workflow_id = $1),
		       (SELECT count(*) FROM emails WHERE kind = 'confirm' AND status = 'sent' AND attempts = 1)`, id).Scan(&attempts, &emails); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 || emails != 1 {
		t.Fatalf("after the restart: %d start attempts, %d confirmation emails sent once; want 1 and 1", attempts, emails)
	}
}
