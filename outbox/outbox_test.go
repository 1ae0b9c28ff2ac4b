package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/tracing"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fixture is a fresh database, a Temporal client on the shared dev server
// and a private task queue.
type fixture struct {
	store *db.Store
	tc    client.Client
	queue string
	addr  string
}

func setup(t *testing.T) fixture {
	t.Helper()
	cfg := testenv.Config(t)
	store := testenv.Store(t)
	tc := testenv.Temporal(t, cfg)
	return fixture{store: store, tc: tc, queue: cfg.TaskQueue, addr: cfg.TemporalAddress}
}

func (f fixture) dispatcher() *outbox.Dispatcher {
	return &outbox.Dispatcher{Store: f.store, Temporal: f.tc, TaskQueue: f.queue,
		Log: slog.New(slog.DiscardHandler)}
}

// run runs d until the test ends.
func run(t *testing.T, d *outbox.Dispatcher) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// request is a start of a workflow no worker polls for: starting it is
// all these tests look at.
func request(id string) workflows.Request {
	return workflows.Request{ID: id, Type: "SendEmail", Kind: workflows.KindEmail, Subject: id,
		Summary: "Email notice " + id,
		Input:   workflows.SendEmailInput{Key: id, Kind: "notice", To: "ada@example.com"}}
}

func uniqueID(t *testing.T, name string) string {
	return fmt.Sprintf("outbox-test:%s:%d", name, time.Now().UnixNano())
}

func enqueue(t *testing.T, s *db.Store, reqs ...workflows.Request) {
	t.Helper()
	err := s.InTx(context.Background(), func(q *db.Queries) error {
		for _, r := range reqs {
			if _, err := outbox.Enqueue(context.Background(), q, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func row(t *testing.T, s *db.Store, id string) db.WorkflowStart {
	t.Helper()
	r, err := s.WorkflowStartGet(context.Background(), id)
	if err != nil {
		t.Fatalf("outbox row %s: %v", id, err)
	}
	return r
}

// waitStarted polls the row until the dispatcher has marked it started.
func waitStarted(t *testing.T, s *db.Store, id string, within time.Duration) db.WorkflowStart {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		r := row(t, s, id)
		if r.StartedAt != nil {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("row %s not started within %v (attempts %d, last error %v)", id, within, r.Attempts, r.LastError)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exists says whether Temporal has a workflow with id, and its run id.
func exists(t *testing.T, tc client.Client, id string) (string, bool) {
	t.Helper()
	d, err := tc.DescribeWorkflowExecution(context.Background(), id, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return d.WorkflowExecutionInfo.Execution.RunId, true
}

func TestNotifyStartsAfterCommit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	d := f.dispatcher()
	d.Sweep = time.Hour // only a notification can wake it
	run(t, d)
	time.Sleep(300 * time.Millisecond) // the listener is connected

	id := uniqueID(t, "notify")
	enqueue(t, f.store, request(id))
	r := waitStarted(t, f.store, id, 10*time.Second)
	runID, ok := exists(t, f.tc, id)
	if !ok || runID != *r.RunID || r.Attempts != 1 {
		t.Fatalf("workflow %v run %s, row run %v attempts %d", ok, runID, *r.RunID, r.Attempts)
	}

	// The UI's search attributes and summary come with the start.
	desc, err := f.tc.DescribeWorkflowExecution(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	sa := desc.WorkflowExecutionInfo.GetSearchAttributes().GetIndexedFields()
	if sa["HackdeskKind"] == nil || sa["HackdeskSubject"] == nil {
		t.Fatalf("search attributes %v", sa)
	}
	if got := string(sa["HackdeskKind"].GetData()); got != `"email"` {
		t.Fatalf("HackdeskKind = %s", got)
	}
	if got := string(sa["HackdeskSubject"].GetData()); got != `"`+id+`"` {
		t.Fatalf("HackdeskSubject = %s", got)
	}
	if desc.ExecutionConfig.GetUserMetadata().GetSummary() == nil {
		t.Fatal("no static summary on the workflow")
	}
}

func TestRollbackStartsNothing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	run(t, f.dispatcher())
	id := uniqueID(t, "rollback")
	boom := errors.New("boom")
	err := f.store.InTx(context.Background(), func(q *db.Queries) error {
		if _, err := outbox.Enqueue(context.Background(), q, request(id)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx = %v", err)
	}
	time.Sleep(time.Second)
	if _, err := f.store.WorkflowStartGet(context.Background(), id); !errors.Is(db.MapError(err), db.ErrNotFound) {
		t.Fatalf("row after rollback: %v", err)
	}
	if _, ok := exists(t, f.tc, id); ok {
		t.Fatal("a rolled-back request started a workflow")
	}
}

// TestSweepFindsLostNotification: with the notification lost (the trigger
// disabled), the periodic sweep still starts the row.
func TestSweepFindsLostNotification(t *testing.T) {
	t.Parallel()
	f := setup(t)
	if _, err := f.store.Pool().Exec(context.Background(), `ALTER TABLE workflow_starts DISABLE TRIGGER workflow_starts_notify`); err != nil {
		t.Fatal(err)
	}
	d := f.dispatcher()
	d.Sweep = 300 * time.Millisecond
	run(t, d)
	time.Sleep(200 * time.Millisecond)
	id := uniqueID(t, "sweep")
	enqueue(t, f.store, request(id))
	waitStarted(t, f.store, id, 10*time.Second)
	if _, ok := exists(t, f.tc, id); !ok {
		t.Fatal("no workflow after the sweep")
	}
}

// TestRestartAfterCrash: the process died after the commit and before the
// start (no dispatcher ran); the next dispatcher starts the workflow once,
// and a row whose workflow was started by a dispatcher that died before
// marking it is found as already started.
func TestRestartAfterCrash(t *testing.T) {
	t.Parallel()
	f := setup(t)
	committed, halfDone := uniqueID(t, "committed"), uniqueID(t, "half-done")
	enqueue(t, f.store, request(committed), request(halfDone))
	if _, err := outbox.Start(context.Background(), f.tc, f.queue, request(halfDone)); err != nil {
		t.Fatal(err)
	}
	before, _ := exists(t, f.tc, halfDone)

	run(t, f.dispatcher()) // the restart
	for _, id := range []string{committed, halfDone} {
		r := waitStarted(t, f.store, id, 10*time.Second)
		runID, ok := exists(t, f.tc, id)
		if !ok || runID != *r.RunID || r.Attempts != 1 {
			t.Fatalf("%s: workflow %v run %s, row run %s, attempts %d", id, ok, runID, *r.RunID, r.Attempts)
		}
	}
	if r := row(t, f.store, halfDone); *r.RunID != before {
		t.Fatalf("half-done row got run %s, want the existing run %s", *r.RunID, before)
	}
}

// TestSameRequestTwice: one business key, one row, one workflow.
func TestSameRequestTwice(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := uniqueID(t, "twice")
	var added []bool
	for range 2 {
		err := f.store.InTx(context.Background(), func(q *db.Queries) error {
			ok, err := outbox.Enqueue(context.Background(), q, request(id))
			added = append(added, ok)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !added[0] || added[1] {
		t.Fatalf("Enqueue twice = %v, want [true false]", added)
	}
	r1, err := outbox.Start(context.Background(), f.tc, f.queue, request(id))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := outbox.Start(context.Background(), f.tc, f.queue, request(id))
	if err != nil {
		t.Fatal(err)
	}
	if r1.GetRunID() != r2.GetRunID() {
		t.Fatalf("two starts gave two runs: %s, %s", r1.GetRunID(), r2.GetRunID())
	}
}

// TestReplicasDispatchEachRowOnce: two dispatchers drain one outbox at
// once; every row is started by exactly one of them (one attempt each).
func TestReplicasDispatchEachRowOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const n = 60
	reqs := make([]workflows.Request, n)
	for i := range reqs {
		reqs[i] = request(uniqueID(t, fmt.Sprintf("replica-%d", i)))
	}
	enqueue(t, f.store, reqs...)
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i := range 2 {
		d := f.dispatcher()
		d.Batch = 7
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := d.Drain(context.Background())
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	if counts[0]+counts[1] != n {
		t.Fatalf("dispatchers started %v rows, want %d in all", counts, n)
	}
	var bad int
	if err := f.store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM workflow_starts WHERE started_at IS NULL OR attempts <> 1`).Scan(&bad); err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Fatalf("%d rows not started exactly once", bad)
	}
}

// TestFailedStartRetriesWithBackoff: a start Temporal refuses is kept,
// with the error and a later due time, and a later dispatch starts it.
func TestFailedStartRetriesWithBackoff(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := uniqueID(t, "retry")
	enqueue(t, f.store, request(id))
	// A client of a namespace the server does not have: every start fails.
	bad, err := client.NewLazyClient(client.Options{HostPort: f.addr, Namespace: "no-such-namespace",
		Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	d := f.dispatcher()
	d.Temporal = bad
	if n, err := d.Drain(context.Background()); err != nil || n != 0 {
		t.Fatalf("Drain with a broken Temporal = %d, %v", n, err)
	}
	r := row(t, f.store, id)
	if r.StartedAt != nil || r.Attempts != 1 || r.LastError == nil || !r.NextAttemptAt.After(r.CreatedAt) {
		t.Fatalf("row after a failed start: %+v", r)
	}
	// Not due yet: a dispatch now leaves it.
	if n, _ := f.dispatcher().Drain(context.Background()); n != 0 {
		t.Fatalf("a row not yet due was dispatched")
	}
	if _, err := f.store.Pool().Exec(context.Background(), `UPDATE workflow_starts SET next_attempt_at = now()`); err != nil {
		t.Fatal(err)
	}
	if n, err := f.dispatcher().Drain(context.Background()); err != nil || n != 1 {
		t.Fatalf("Drain when due = %d, %v", n, err)
	}
	if r := row(t, f.store, id); r.Attempts != 2 || r.LastError != nil {
		t.Fatalf("row after the retry: attempts %d, last error %v", r.Attempts, r.LastError)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	for attempts, want := range map[int]time.Duration{0: time.Second, 1: 2 * time.Second, 4: 16 * time.Second, 8: 256 * time.Second, 9: 5 * time.Minute, 40: 5 * time.Minute} {
		if got := outbox.RetryAfter(attempts); got != want {
			t.Errorf("RetryAfter(%d) = %v, want %v", attempts, got, want)
		}
	}
}

// signalled waits for one "dates" signal and returns it.
func signalled(ctx workflow.Context, in string) (string, error) {
	var got string
	workflow.GetSignalChannel(ctx, "dates").Receive(ctx, &got)
	return in + "+" + got, nil
}

// TestSignalWithStart: a signal row starts the workflow and delivers the
// signal; the raw JSON inputs reach the workflow as its own types.
func TestSignalWithStart(t *testing.T) {
	t.Parallel()
	f := setup(t)
	w := sdkworker.New(f.tc, f.queue, sdkworker.Options{})
	w.RegisterWorkflowWithOptions(signalled, workflow.RegisterOptions{Name: "TestSignalled"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run(t, f.dispatcher())
	id := uniqueID(t, "signal")
	enqueue(t, f.store, workflows.Request{ID: id, Type: "TestSignalled", Input: "term", Kind: workflows.KindTerm,
		Subject: "t1", Summary: "test", Signal: "dates", SignalInput: "2026-09-01"})
	var got string
	deadline := time.Now().Add(15 * time.Second)
	for {
		if err := f.tc.GetWorkflow(context.Background(), id, "").Get(context.Background(), &got); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("signal-with-start did not run the workflow")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got != "term+2026-09-01" {
		t.Fatalf("workflow saw %q", got)
	}
}

// TestTraceParentCarried: a request queued within a span keeps the span's
// traceparent on its row, and the dispatcher starts the workflow under it
// (the start's span is the request span's child); a request queued
// without one keeps none.
func TestTraceParentCarried(t *testing.T) {
	t.Parallel()
	f := setup(t)
	exp := tracetest.NewInMemoryExporter()
	tp, err := tracing.NewProvider(context.Background(), sdktrace.WithSyncer(exp))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	ti, err := tracing.TemporalInterceptor(tp)
	if err != nil {
		t.Fatal(err)
	}
	traced, err := client.NewClientFromExisting(f.tc, client.Options{Interceptors: []interceptor.ClientInterceptor{ti}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(traced.Close)

	ctx, span := tp.Tracer("test").Start(context.Background(), "POST /api/test")
	withSpan, without := uniqueID(t, "traced"), uniqueID(t, "untraced")
	err = f.store.InTx(ctx, func(q *db.Queries) error {
		if _, err := outbox.Enqueue(ctx, q, request(withSpan)); err != nil {
			return err
		}
		_, err := outbox.Enqueue(context.Background(), q, request(without))
		return err
	})
	span.End()
	if err != nil {
		t.Fatal(err)
	}
	if r := row(t, f.store, withSpan); r.TraceParent == nil || *r.TraceParent != tracing.TraceParent(ctx) {
		t.Fatalf("row trace_parent %v, want %s", r.TraceParent, tracing.TraceParent(ctx))
	}
	if r := row(t, f.store, without); r.TraceParent != nil {
		t.Fatalf("row without a span has trace_parent %s", *r.TraceParent)
	}

	d := f.dispatcher()
	d.Temporal = traced
	run(t, d)
	waitStarted(t, f.store, withSpan, 10*time.Second)
	waitStarted(t, f.store, without, 10*time.Second)
	var starts []tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == "StartWorkflow:SendEmail" {
			starts = append(starts, s)
		}
	}
	if len(starts) != 2 {
		t.Fatalf("%d start spans, want 2", len(starts))
	}
	joined := 0
	for _, s := range starts {
		if s.SpanContext.TraceID() == span.SpanContext().TraceID() {
			joined++
			if s.Parent.SpanID() != span.SpanContext().SpanID() {
				t.Fatalf("start span's parent %s, want the request span %s", s.Parent.SpanID(), span.SpanContext().SpanID())
			}
		}
	}
	if joined != 1 {
		t.Fatalf("%d start spans in the request's trace, want 1", joined)
	}
}
