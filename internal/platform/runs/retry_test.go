package runs_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/foundry"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/runs"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// queue writes req to the outbox and, when started, marks it started.
func queue(t *testing.T, store *db.Store, req workflows.Request, started bool) {
	t.Helper()
	ctx := context.Background()
	if err := store.InTx(ctx, func(q *db.Queries) error {
		if ok, err := outbox.Enqueue(ctx, q, req); err != nil || !ok {
			t.Fatalf("enqueue %s: %v %v", req.ID, ok, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if started {
		startAll(t, store, req.ID)
	}
}

// startAll marks every pending row of id started, as the dispatcher does.
func startAll(t *testing.T, store *db.Store, id string) {
	t.Helper()
	if _, err := store.Pool().Exec(context.Background(), `UPDATE workflow_starts SET started_at = now(), run_id = 'r'
		WHERE workflow_id = $1 AND started_at IS NULL`, id); err != nil {
		t.Fatal(err)
	}
}

func retry(store *db.Store, id string, st runs.Status) (int, error) {
	var n int
	err := store.InTx(context.Background(), func(q *db.Queries) (err error) {
		n, err = runs.Retry(context.Background(), q, id, st)
		return err
	})
	return n, err
}

// refused asserts a 409 "Not retryable" whose message says want.
func refused(t *testing.T, err error, want string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.Conflict || e.Title != "Not retryable" || !strings.Contains(e.Message, want) {
		t.Fatalf("got %v, want 409 Not retryable saying %q", err, want)
	}
}

type retryRow struct {
	Retry   int
	Input   string
	Pending bool
}

func rowsOf(t *testing.T, store *db.Store, id string) []retryRow {
	t.Helper()
	rows, err := store.Pool().Query(context.Background(), `SELECT retry, input::text, started_at IS NULL
		FROM workflow_starts WHERE workflow_id = $1 ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []retryRow
	for rows.Next() {
		var r retryRow
		if err := rows.Scan(&r.Retry, &r.Input, &r.Pending); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// A failed finalization is retried with its input under the next number;
// a running, queued, completed or otherwise ended one, an unknown id and a
// type outside the four are refused.
func TestRetryRules(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	in := workflows.HiringFinalizationInput{TermID: uuid.New(), TermName: "Fall", AllHandsURL: "https://cal.example.com/x"}
	req := workflows.HiringFinalizationRequest(in)
	queue(t, store, req, true)

	if _, err := retry(store, "hiring-finalize:"+uuid.NewString(), runs.Failed); !errors.Is(err, runs.ErrNoWorkflow) {
		t.Fatalf("unknown id: %v", err)
	}
	_, err := retry(store, req.ID, runs.Running)
	refused(t, err, "is running")
	_, err = retry(store, req.ID, runs.Completed)
	refused(t, err, "completed")
	_, err = retry(store, req.ID, runs.Terminated)
	refused(t, err, "terminated")
	_, err = retry(store, req.ID, runs.Unknown)
	refused(t, err, "not known")

	n, err := retry(store, req.ID, runs.Failed)
	if err != nil || n != 1 {
		t.Fatalf("retry: %d %v", n, err)
	}
	got := rowsOf(t, store, req.ID)
	if len(got) != 2 || got[1].Retry != 1 || !got[1].Pending || got[1].Input != got[0].Input {
		t.Fatalf("rows %+v", got)
	}
	_, err = retry(store, req.ID, runs.Failed)
	refused(t, err, "is running")

	startAll(t, store, req.ID)
	if n, err := retry(store, req.ID, runs.TimedOut); err != nil || n != 2 {
		t.Fatalf("second retry: %d %v", n, err)
	}

	email := workflows.SendEmailRequest(workflows.SendEmailInput{Key: "k1", Kind: "welcome", To: "a@example.com"})
	queue(t, store, email, true)
	_, err = retry(store, email.ID, runs.Failed)
	refused(t, err, "not retried here")

	// Once retention has cleared its input, a start cannot be made again.
	startAll(t, store, req.ID)
	if _, err := store.Pool().Exec(context.Background(),
		`UPDATE workflow_starts SET input = '{}', input_cleared_at = now() WHERE workflow_id = $1`, req.ID); err != nil {
		t.Fatal(err)
	}
	_, err = retry(store, req.ID, runs.Failed)
	refused(t, err, "input has been cleared")
}

// A TermWindow an operator terminated or cancelled is restarted by a
// retry (the reconciler leaves it stopped); a stopped finalization is not.
func TestRetryStoppedTermWindow(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	req := workflows.TermWindowRequest(workflows.TermWindowInput{TermID: uuid.New(), TermName: "Fall"})
	queue(t, store, req, true)
	if n, err := retry(store, req.ID, runs.Terminated); err != nil || n != 1 {
		t.Fatalf("retry of a terminated TermWindow: %d %v", n, err)
	}
	startAll(t, store, req.ID)
	if n, err := retry(store, req.ID, runs.Canceled); err != nil || n != 2 {
		t.Fatalf("retry of a cancelled TermWindow: %d %v", n, err)
	}
	for _, st := range []runs.Status{runs.Terminated, runs.Canceled} {
		if runs.RetryableStatus("HiringFinalization", st) || !runs.RetryableStatus("TermWindow", st) {
			t.Errorf("RetryableStatus(%s) wrong", st)
		}
	}
}

// Two retries sent at once queue one start: the other is refused.
func TestRetryConcurrentQueuesOne(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	req := workflows.TermWindowRequest(workflows.TermWindowInput{TermID: uuid.New(), TermName: "Fall"})
	queue(t, store, req, true)
	for round := 1; round <= 3; round++ {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		nums := make([]int, 2)
		gate := make(chan struct{})
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				nums[i], errs[i] = retry(store, req.ID, runs.Failed)
			}()
		}
		close(gate)
		wg.Wait()
		ok := 0
		for i, err := range errs {
			if err == nil {
				ok++
				if nums[i] != round {
					t.Fatalf("round %d: retry number %d", round, nums[i])
				}
			} else {
				refused(t, err, "is running")
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d retries queued (%v)", round, ok, errs)
		}
		if got := rowsOf(t, store, req.ID); len(got) != round+1 {
			t.Fatalf("round %d: %d rows", round, len(got))
		}
		startAll(t, store, req.ID)
	}
}

// A TermWindow retry takes the latest dates: the input of the id's newest
// row (a signal-with-start after a date change), as a plain start.
func TestRetryTermWindowTakesLatestInput(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	in := workflows.TermWindowInput{TermID: uuid.New(), TermName: "Fall"}
	queue(t, store, workflows.TermWindowRequest(in), true)
	later := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	in.Windows.OnboardingOpensAt = &later
	queue(t, store, workflows.TermWindowSignalRequest(in), true)
	id := workflows.TermWindowID(in.TermID)
	if _, err := retry(store, id, runs.Failed); err != nil {
		t.Fatal(err)
	}
	var input string
	var signal *string
	if err := store.Pool().QueryRow(context.Background(), `SELECT input::text, signal FROM workflow_starts
		WHERE workflow_id = $1 AND retry = 1`, id).Scan(&input, &signal); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(input, "2030-01-02T03:04:05Z") || signal != nil {
		t.Fatalf("retry row: %s signal %v", input, signal)
	}
}

// A FoundryLaunch retry makes its project running again with the steps
// that did not succeed pending; a name taken since is refused and changes
// nothing.
func TestRetryFoundryReopensProject(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	var admin uuid.UUID
	if err := store.Pool().QueryRow(ctx, `INSERT INTO profiles (email, password_hash, role, email_confirmed_at)
		VALUES ('admin@example.com', '$argon2id$x', 'admin', now()) RETURNING id`).Scan(&admin); err != nil {
		t.Fatal(err)
	}
	launch := func(name string) (db.FoundryProject, workflows.Request) {
		id := uuid.New()
		lr := foundry.LaunchRequest{Name: name, Description: "d", ProjectType: "nextjs", Database: "postgresql", TeamSlug: "platform"}
		req := workflows.FoundryLaunchRequest(workflows.FoundryLaunchInput{ProjectID: id, Name: name})
		var p db.FoundryProject
		if err := store.InTx(ctx, func(q *db.Queries) (err error) {
			p, err = foundry.Record(ctx, q, foundry.Launch{ID: id, WorkflowID: req.ID, CreatedBy: admin, Request: lr})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		queue(t, store, req, true)
		return p, req
	}
	fail := func(p db.FoundryProject) {
		for _, u := range []foundry.StepUpdate{
			{ProjectID: p.ID, Step: foundry.StepCreateRepository, Status: foundry.Succeeded},
			{ProjectID: p.ID, Step: foundry.StepGrantTeam, Status: foundry.Failed, Detail: "refused", Project: foundry.Failed},
		} {
			if err := store.InTx(ctx, func(q *db.Queries) error { return foundry.RecordStep(ctx, q, u) }); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := func(p db.FoundryProject) (string, map[string]string) {
		var status string
		if err := store.Pool().QueryRow(ctx, `SELECT status FROM foundry_projects WHERE id = $1`, p.ID).Scan(&status); err != nil {
			t.Fatal(err)
		}
		list, err := store.FoundryStepsList(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, s := range list {
			m[s.Name] = s.Status
			if s.Status == foundry.Pending && (s.FinishedAt != nil || s.Detail != "") {
				t.Errorf("step %s pending with an outcome", s.Name)
			}
		}
		return status, m
	}

	p, req := launch("alpha")
	fail(p)
	if _, err := retry(store, req.ID, runs.Failed); err != nil {
		t.Fatal(err)
	}
	status, m := steps(p)
	if status != foundry.Running || m[foundry.StepCreateRepository] != foundry.Succeeded ||
		m[foundry.StepGrantTeam] != foundry.Pending || m[foundry.StepSetupRun] != foundry.Pending {
		t.Fatalf("after retry: %s %v", status, m)
	}

	q, req2 := launch("beta")
	fail(q)
	launch("Beta") // takes the failed project's name
	_, err := retry(store, req2.ID, runs.Failed)
	refused(t, err, "name")
	status, m = steps(q)
	if status != foundry.Failed || m[foundry.StepGrantTeam] != foundry.Failed {
		t.Fatalf("after a refused retry: %s %v", status, m)
	}
	if got := rowsOf(t, store, req2.ID); len(got) != 1 {
		t.Fatalf("a refused retry left %d rows", len(got))
	}
}

// Only a failed run of a retried type that this deployment queued, with
// nothing queued under its id since it closed, is retryable.
func TestAnnotate(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	hire := workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{TermID: uuid.New(), AllHandsURL: "https://x.example.com"})
	retried := workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{TermID: uuid.New(), AllHandsURL: "https://x.example.com"})
	email := workflows.SendEmailRequest(workflows.SendEmailInput{Key: "k", Kind: "welcome", To: "a@example.com"})
	for _, r := range []workflows.Request{hire, retried, email} {
		queue(t, store, r, true)
	}
	closed := time.Now().Add(time.Minute) // after every row so far
	if _, err := store.Pool().Exec(ctx, `UPDATE workflow_starts SET created_at = now() + interval '1 hour' WHERE workflow_id = $1`, retried.ID); err != nil {
		t.Fatal(err)
	}
	list := []runs.Run{
		{WorkflowID: hire.ID, Type: "HiringFinalization", Status: runs.Failed, ClosedAt: closed},
		{WorkflowID: retried.ID, Type: "HiringFinalization", Status: runs.Failed, ClosedAt: closed},
		{WorkflowID: email.ID, Type: "SendEmail", Status: runs.Failed, ClosedAt: closed},
		{WorkflowID: "hiring-finalize:elsewhere", Type: "HiringFinalization", Status: runs.Failed, ClosedAt: closed},
		{WorkflowID: hire.ID, Type: "HiringFinalization", Status: runs.Terminated, ClosedAt: closed},
	}
	var got []runs.Listed
	if err := store.InTx(ctx, func(q *db.Queries) (err error) {
		got, err = runs.Annotate(ctx, q, list)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, false, false, false}
	for i, l := range got {
		if l.Retryable != want[i] {
			t.Errorf("%d %s %s: retryable %v", i, l.WorkflowID, l.Status, l.Retryable)
		}
	}
}
