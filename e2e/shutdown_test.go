package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// lateSender is a mail provider that accepts a message but answers only
// once the activity is being cancelled, and then a little late: a worker
// stopping mid-delivery, whose bookkeeping runs after the stop.
type lateSender struct {
	once    sync.Once
	started chan struct{}
}

func (s *lateSender) Send(ctx context.Context, m mail.Message) (string, error) {
	s.once.Do(func() { close(s.started) })
	<-ctx.Done()
	time.Sleep(time.Second)
	return "accepted-" + m.Key, nil
}

// TestCloseWaitsForBookkeeping stops the app while the mail driver holds
// an email, and the database pool is closed as soon as Close returns: the
// email the driver accepted is recorded sent, never left "sending" (to
// be marked failed by the next attempt). Close stops the workers, waits
// for the cancelled delivery to write its outcome, then closes the pool.
func TestCloseWaitsForBookkeeping(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	ctx := context.Background()
	a, err := app.Open(ctx, cfg, testenv.Logger(t), testenv.Mail, app.WithWorkerStopTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			a.Close()
		}
	}()
	sender := &lateSender{started: make(chan struct{})}
	a.Mailer = sender
	if err := a.StartWorker(); err != nil {
		t.Fatal(err)
	}
	key := "shutdown:" + uuid.NewString()
	if _, err := mail.Record(ctx, a.Store.Queries, key, "notice", "ada@example.com",
		map[string]string{"subject": "Hi", "body": "Hello"}); err != nil {
		t.Fatal(err)
	}
	if _, err := outbox.Start(ctx, a.Temporal, cfg.TaskQueue, workflows.SendEmailRequest(
		workflows.SendEmailInput{Key: key, Kind: "notice", To: "ada@example.com"})); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sender.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the email never reached the driver")
	}
	a.Close()
	closed = true

	store, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	e, err := store.EmailGetByKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != string(mail.StatusSent) {
		t.Fatalf("after Close the delivered email is %q (%v), want sent", e.Status, e.LastError)
	}
}
