package activities_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/temporal"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/mail"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fakeSender records messages and fails as told.
type fakeSender struct {
	mu   sync.Mutex
	sent []mail.Message
	errs []error // returned in order before succeeding
}

func (f *fakeSender) Send(_ context.Context, m mail.Message) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		return "", err
	}
	f.sent = append(f.sent, m)
	return "fake-" + m.Key, nil
}

func setup(t *testing.T, sender *fakeSender) (*activities.EmailActivities, *db.Store) {
	t.Helper()
	s := testenv.Store(t)
	a := &activities.EmailActivities{Store: s, Mailer: sender, MailFrom: "hackdesk <no-reply@example.com>"}
	created, err := a.RecordEmail(context.Background(), activities.RecordEmailInput{
		Key: "k", Kind: "notice", To: "ada@example.com", Data: map[string]string{"subject": "Hi", "body": "Hello <b>"},
	})
	if err != nil || !created {
		t.Fatalf("RecordEmail = %v, %v", created, err)
	}
	return a, s
}

func TestRecordEmail(t *testing.T) {
	t.Parallel()
	a, s := setup(t, &fakeSender{})
	ctx := context.Background()
	created, err := a.RecordEmail(ctx, activities.RecordEmailInput{
		Key: "k", Kind: "notice", To: "other@example.com", Data: map[string]string{"subject": "Changed", "body": "x"},
	})
	if err != nil || created {
		t.Fatalf("second RecordEmail = %v, %v; want false, nil", created, err)
	}
	e, err := s.EmailGetByKey(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if e.ToAddress != "ada@example.com" || e.Subject != "Hi" || !strings.HasPrefix(e.HtmlBody, "<p>Hello &lt;b&gt;</p>") {
		t.Fatalf("stored %+v: the first recording must win and HTML must be escaped", e)
	}

	_, err = a.RecordEmail(ctx, activities.RecordEmailInput{Key: "k2", Kind: "nope", To: "a@example.com",
		Data: map[string]string{"x": "y"}})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || !appErr.NonRetryable() {
		t.Fatalf("unknown kind: err = %v, want non-retryable", err)
	}

	// Without data the row must come from the starter's transaction: until
	// it commits, the activity fails in a way Temporal retries.
	_, err = a.RecordEmail(ctx, activities.RecordEmailInput{Key: "k3", Kind: "confirm", To: "a@example.com"})
	if err == nil || (errors.As(err, &appErr) && appErr.NonRetryable()) {
		t.Fatalf("missing row without data: err = %v, want retryable", err)
	}
	if _, err := s.EmailGetByKey(ctx, "k3"); err == nil {
		t.Fatal("a row was recorded without data")
	}
}

func TestDeliverEmail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("SendsOnce", func(t *testing.T) {
		t.Parallel()
		sender := &fakeSender{}
		a, s := setup(t, sender)
		for i := 0; i < 3; i++ {
			res, err := a.DeliverEmail(ctx, "k")
			if err != nil || res.Status != "sent" || res.ProviderID != "fake-k" || res.AlreadyDone != (i > 0) {
				t.Fatalf("attempt %d = %+v, %v", i, res, err)
			}
		}
		if len(sender.sent) != 1 {
			t.Fatalf("sent %d times, want 1", len(sender.sent))
		}
		m := sender.sent[0]
		if m.To != "ada@example.com" || m.Subject != "Hi" || m.From != "hackdesk <no-reply@example.com>" {
			t.Fatalf("message = %+v", m)
		}
		e, _ := s.EmailGetByKey(ctx, "k")
		if e.Status != "sent" || e.SentAt == nil || e.Attempts != 1 {
			t.Fatalf("row = %+v", e)
		}
	})

	t.Run("TransientFailureIsRetried", func(t *testing.T) {
		t.Parallel()
		sender := &fakeSender{errs: []error{errors.New("connection reset")}}
		a, s := setup(t, sender)
		if _, err := a.DeliverEmail(ctx, "k"); err == nil {
			t.Fatal("want the transient error back for a retry")
		}
		e, _ := s.EmailGetByKey(ctx, "k")
		if e.Status != "pending" || e.LastError == nil {
			t.Fatalf("after a transient failure row = %+v, want pending with the error", e)
		}
		res, err := a.DeliverEmail(ctx, "k")
		if err != nil || res.Status != "sent" || len(sender.sent) != 1 {
			t.Fatalf("retry = %+v, %v, sent %d", res, err, len(sender.sent))
		}
	})

	t.Run("PermanentFailureStops", func(t *testing.T) {
		t.Parallel()
		sender := &fakeSender{errs: []error{&mail.PermanentError{Err: errors.New("550 no such user")}}}
		a, s := setup(t, sender)
		_, err := a.DeliverEmail(ctx, "k")
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || !appErr.NonRetryable() || appErr.Type() != activities.ErrTypeDeliveryFailed {
			t.Fatalf("err = %v, want non-retryable DeliveryFailed", err)
		}
		res, err := a.DeliverEmail(ctx, "k")
		if err != nil || res.Status != "failed" || len(sender.sent) != 0 {
			t.Fatalf("after failure = %+v, %v, sent %d", res, err, len(sender.sent))
		}
		e, _ := s.EmailGetByKey(ctx, "k")
		if e.Status != "failed" {
			t.Fatalf("status = %s", e.Status)
		}
	})

	t.Run("InterruptedAttemptIsNotResent", func(t *testing.T) {
		t.Parallel()
		sender := &fakeSender{}
		a, s := setup(t, sender)
		// An earlier attempt claimed the row and died before recording the outcome.
		if _, err := s.Pool().Exec(ctx, `UPDATE emails SET status = 'sending', attempts = 1,
			updated_at = now() - $1::interval WHERE idempotency_key = 'k'`, mail.ClaimTimeout.String()); err != nil {
			t.Fatal(err)
		}
		_, err := a.DeliverEmail(ctx, "k")
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeOutcomeUnknown {
			t.Fatalf("err = %v, want OutcomeUnknown", err)
		}
		if len(sender.sent) != 0 {
			t.Fatal("an interrupted email was sent again")
		}
		e, _ := s.EmailGetByKey(ctx, "k")
		if e.Status != "failed" {
			t.Fatalf("status = %s, want failed", e.Status)
		}
	})

	t.Run("ClaimInProgressIsRetryable", func(t *testing.T) {
		t.Parallel()
		sender := &fakeSender{}
		a, s := setup(t, sender)
		e, _ := s.EmailGetByKey(ctx, "k")
		if err := s.EmailMarkSending(ctx, e.ID); err != nil {
			t.Fatal(err)
		}
		_, err := a.DeliverEmail(ctx, "k")
		var appErr *temporal.ApplicationError
		if err == nil || (errors.As(err, &appErr) && appErr.NonRetryable()) {
			t.Fatalf("err = %v, want a retryable error", err)
		}
		e, _ = s.EmailGetByKey(ctx, "k")
		if e.Status != "sending" || len(sender.sent) != 0 {
			t.Fatalf("status = %s, sent %d; want the claim left alone", e.Status, len(sender.sent))
		}
	})

	t.Run("ConcurrentAttemptsSendOnce", func(t *testing.T) {
		t.Parallel()
		sender := &fakeSender{}
		a, s := setup(t, sender)
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = a.DeliverEmail(ctx, "k")
			}()
		}
		wg.Wait()
		if len(sender.sent) != 1 {
			t.Fatalf("sent %d times, want 1", len(sender.sent))
		}
		e, _ := s.EmailGetByKey(ctx, "k")
		if e.Status != "sent" || e.Attempts != 1 {
			t.Fatalf("row = %s after %d attempts, want sent after 1", e.Status, e.Attempts)
		}
	})

	t.Run("ErrUnknownKey", func(t *testing.T) {
		t.Parallel()
		a, _ := setup(t, &fakeSender{})
		_, err := a.DeliverEmail(ctx, "missing")
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || !appErr.NonRetryable() {
			t.Fatalf("err = %v, want non-retryable", err)
		}
	})
}
