package activities_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// slowSender is a provider that accepts the message, then answers only when
// the activity is being cancelled (a worker shutting down mid-delivery).
type slowSender struct {
	calls   atomic.Int32
	once    sync.Once
	started chan struct{}
}

func (s *slowSender) Send(ctx context.Context, m mail.Message) (string, error) {
	s.calls.Add(1)
	s.once.Do(func() { close(s.started) })
	<-ctx.Done()
	return "accepted-" + m.Key, nil
}

// TestWorkerStoppedDuringDelivery stops the worker while the driver holds
// an email: the send is written down although the activity was cancelled,
// and the next worker finishes the workflow without sending it again.
func TestWorkerStoppedDuringDelivery(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	store := testenv.Store(t)
	tc := testenv.Temporal(t, cfg)
	ctx := context.Background()
	// A key of its own: the Temporal server outlives one run of the test
	// (-count), and a closed SendEmail of the same key is not started again.
	key := "stop-test:" + uuid.NewString()
	if _, err := mail.Record(ctx, store.Queries, key, "notice", "ada@example.com",
		map[string]string{"subject": "Hi", "body": "Hello"}); err != nil {
		t.Fatal(err)
	}

	newWorker := func(sender mail.Sender) sdkworker.Worker {
		w := sdkworker.New(tc, cfg.TaskQueue, sdkworker.Options{WorkerStopTimeout: 300 * time.Millisecond})
		w.RegisterWorkflow(workflows.SendEmail)
		w.RegisterActivity(&activities.EmailActivities{Store: store, Mailer: sender, MailFrom: "hackdesk <no-reply@example.com>"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	slow := &slowSender{started: make(chan struct{})}
	w1 := newWorker(slow)
	run, err := outbox.Start(ctx, tc, cfg.TaskQueue, workflows.SendEmailRequest(workflows.SendEmailInput{Key: key, Kind: "notice", To: "ada@example.com"}))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-slow.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the email never reached the driver")
	}
	w1.Stop()
	// The cancelled attempt writes the send down on its way out.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		e, err := store.EmailGetByKey(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if e.Status == "sent" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the stop the email is %q (%v), want sent", e.Status, e.LastError)
		}
	}

	fresh := &fakeSender{}
	w2 := newWorker(fresh)
	defer w2.Stop()
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var res workflows.SendEmailResult
	if err := run.Get(wctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "sent" || slow.calls.Load() != 1 || len(fresh.sent) != 0 {
		t.Fatalf("result %+v; driver calls %d before the stop, %d after: want one send in all", res, slow.calls.Load(), len(fresh.sent))
	}
}
