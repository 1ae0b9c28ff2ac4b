package activities_test

import (
	"context"
	"errors"
	"html"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
)

// broadcastSender counts what it sends by key, refuses some addresses for
// good and fails once, transiently, before the send numbered failAt.
type broadcastSender struct {
	mu      sync.Mutex
	sent    map[string]int
	headers map[string]map[string]string
	reject  string // an address refused for good
	failAt  int    // 1-based; 0: never
	calls   int
}

func (s *broadcastSender) Send(_ context.Context, m mail.Message) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.calls == s.failAt {
		return "", errors.New("connection reset")
	}
	if m.To == s.reject {
		return "", &mail.PermanentError{Err: errors.New("550 no such user")}
	}
	s.sent[m.Key]++
	s.headers[m.Key] = m.Headers
	return "p-" + m.Key, nil
}

// broadcastFixture is a broadcast of 12 recipients on a fresh database.
type broadcastFixture struct {
	store  *db.Store
	id     uuid.UUID
	people []uuid.UUID // by seq - 1
	emails []string
	sender *broadcastSender
	acts   *activities.BroadcastActivities
	signer signing.Signer
}

func newBroadcastFixture(t *testing.T) *broadcastFixture {
	t.Helper()
	ctx := context.Background()
	store := testenv.Store(t)
	f := &broadcastFixture{store: store, id: uuid.New(),
		sender: &broadcastSender{sent: map[string]int{}, headers: map[string]map[string]string{}}}
	var admin uuid.UUID
	if err := store.Pool().QueryRow(ctx, `INSERT INTO profiles (email, password_hash, role, email_confirmed_at)
		VALUES ('root@example.com', '$argon2id$x', 'superadmin', now()) RETURNING id`).Scan(&admin); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Pool().Exec(ctx, `INSERT INTO profiles (email, password_hash, email_confirmed_at)
		SELECT 'p' || i || '@example.com', '$argon2id$x', now() FROM generate_series(1, 12) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Pool().Exec(ctx, `INSERT INTO exec_roles (profile_id, position, subteam)
		SELECT id, 'Exec', 'web' FROM profiles WHERE email LIKE 'p%'`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.BroadcastInsert(ctx, db.BroadcastInsertParams{ID: f.id, Subject: "Hack night", Body: "Come along.",
		AudienceKind: "execs", WorkflowID: "broadcast:" + f.id.String(), CreatedBy: admin}); err != nil {
		t.Fatal(err)
	}
	n, err := store.BroadcastRecipientsInsert(ctx, db.BroadcastRecipientsInsertParams{BroadcastID: f.id, Kind: "execs"})
	if err != nil || n != 12 {
		t.Fatalf("materialized %d recipients: %v", n, err)
	}
	if _, err := store.BroadcastSetTotal(ctx, db.BroadcastSetTotalParams{ID: f.id, Total: int32(n)}); err != nil {
		t.Fatal(err)
	}
	rows, err := store.Pool().Query(ctx, `SELECT profile_id, email FROM broadcast_recipients WHERE broadcast_id = $1 ORDER BY seq`, f.id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var p uuid.UUID
		var e string
		if err := rows.Scan(&p, &e); err != nil {
			t.Fatal(err)
		}
		f.people, f.emails = append(f.people, p), append(f.emails, e)
	}
	f.signer = broadcast.UnsubscribeSigner([]byte(strings.Repeat("s", 32)))
	f.acts = &activities.BroadcastActivities{Store: store,
		Email:       &activities.EmailActivities{Store: store, Mailer: f.sender, MailFrom: "desk@example.com"},
		Unsubscribe: &f.signer}
	return f
}

// batch runs SendBroadcastBatch once, as one activity attempt.
func (f *broadcastFixture) batch(t *testing.T, first, last int) (activities.BroadcastBatchResult, error) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(f.acts)
	v, err := env.ExecuteActivity(f.acts.SendBroadcastBatch, activities.BroadcastBatchInput{BroadcastID: f.id, First: first, Last: last,
		PublicURL: "https://hackdesk.test/"})
	if err != nil {
		return activities.BroadcastBatchResult{}, err
	}
	var res activities.BroadcastBatchResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	return res, nil
}

func (f *broadcastFixture) counts(t *testing.T) db.Broadcast {
	t.Helper()
	b, err := f.store.BroadcastGet(context.Background(), f.id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSendBroadcastBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("OKRetriedAfterCrashSendsNothingTwice", func(t *testing.T) {
		t.Parallel()
		f := newBroadcastFixture(t)
		f.sender.reject = f.emails[1] // seq 2
		f.sender.failAt = 5           // the attempt dies at its fifth send
		// An earlier attempt sent seq 1 and died before writing it down on
		// the recipient.
		key1 := broadcast.EmailKey(f.id, f.people[0])
		if _, err := mail.Record(ctx, f.store.Queries, key1, broadcast.EmailKind, f.emails[0],
			map[string]string{"subject": "Hack night", "body": "Come along.", "unsubscribe": "https://club.example/api/unsubscribe?token=t"}); err != nil {
			t.Fatal(err)
		}
		if _, err := (&activities.EmailActivities{Store: f.store, Mailer: f.sender}).DeliverEmail(ctx, key1); err != nil {
			t.Fatal(err)
		}

		if _, err := f.batch(t, 1, 10); err == nil {
			t.Fatal("the attempt that lost its connection succeeded")
		}
		res, err := f.batch(t, 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		if res != (activities.BroadcastBatchResult{Sent: 9, Failed: 1}) {
			t.Fatalf("result %+v", res)
		}
		for i := 0; i < 10; i++ {
			key := broadcast.EmailKey(f.id, f.people[i])
			want := 1
			if i == 1 {
				want = 0
			}
			if f.sender.sent[key] != want {
				t.Errorf("seq %d sent %d times, want %d", i+1, f.sender.sent[key], want)
			}
		}
		for i := 10; i < 12; i++ {
			if n := f.sender.sent[broadcast.EmailKey(f.id, f.people[i])]; n != 0 {
				t.Errorf("seq %d, outside the batch, sent %d times", i+1, n)
			}
		}
		if b := f.counts(t); b.Sent != 9 || b.Failed != 1 || b.Total != 12 {
			t.Fatalf("counts sent %d failed %d total %d", b.Sent, b.Failed, b.Total)
		}
		// A third run of the same batch changes nothing.
		if res, err := f.batch(t, 1, 10); err != nil || res != (activities.BroadcastBatchResult{Sent: 9, Failed: 1}) {
			t.Fatalf("repeat: %+v %v", res, err)
		}
		if b := f.counts(t); b.Sent != 9 || b.Failed != 1 {
			t.Fatalf("repeat counted again: sent %d failed %d", b.Sent, b.Failed)
		}
	})

	t.Run("OKEveryEmailCarriesItsUnsubscribeLink", func(t *testing.T) {
		t.Parallel()
		f := newBroadcastFixture(t)
		if _, err := f.batch(t, 11, 12); err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{10, 11} {
			key := broadcast.EmailKey(f.id, f.people[i])
			h := f.sender.headers[key]
			if h["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
				t.Fatalf("headers %v", h)
			}
			link := strings.TrimSuffix(strings.TrimPrefix(h["List-Unsubscribe"], "<"), ">")
			u, err := url.Parse(link)
			if err != nil || u.Scheme != "https" || u.Host != "hackdesk.test" || u.Path != "/api/unsubscribe" {
				t.Fatalf("List-Unsubscribe %q", h["List-Unsubscribe"])
			}
			who, err := broadcast.OpenUnsubscribeToken(f.signer, u.Query().Get("token"))
			if err != nil || who != f.people[i] {
				t.Fatalf("token names %v (%v), want %v", who, err, f.people[i])
			}
			e, err := f.store.EmailGetByKey(ctx, key)
			if err != nil || e.Subject != "Hack night" || e.Kind != "broadcast" || e.ToAddress != f.emails[i] || e.Status != "sent" {
				t.Fatalf("recorded %+v %v", e, err)
			}
			// The same link at the foot of the body, for readers whose
			// mail client shows no unsubscribe button.
			if !strings.HasPrefix(e.TextBody, "Come along.\n") || !strings.HasSuffix(e.TextBody, ": "+link+"\n") {
				t.Fatalf("text body %q lacks the link %q at its foot", e.TextBody, link)
			}
			if !strings.Contains(e.HtmlBody, `<a href="`+html.EscapeString(link)+`">Unsubscribe</a>`) {
				t.Fatalf("HTML body %q lacks the link", e.HtmlBody)
			}
		}
	})

	t.Run("OKSkipsWhoUnsubscribedSince", func(t *testing.T) {
		t.Parallel()
		f := newBroadcastFixture(t)
		// A marketing broadcast to people who had all opted in; p1 and p2
		// then unsubscribe. p2's email had been recorded by an earlier
		// attempt that never sent it; p3's had been sent before p3
		// unsubscribed, so it counts as sent.
		if _, err := f.store.Pool().Exec(ctx, `UPDATE broadcasts SET marketing = true WHERE id = $1`, f.id); err != nil {
			t.Fatal(err)
		}
		if _, err := f.store.Pool().Exec(ctx, `UPDATE profiles SET marketing_opt_in = (email NOT IN ($1, $2, $3))`,
			f.emails[0], f.emails[1], f.emails[2]); err != nil {
			t.Fatal(err)
		}
		data := map[string]string{"subject": "Hack night", "body": "Come along.", "unsubscribe": "https://hackdesk.test/u"}
		for _, i := range []int{1, 2} {
			if _, err := mail.Record(ctx, f.store.Queries, broadcast.EmailKey(f.id, f.people[i]), broadcast.EmailKind, f.emails[i], data); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := (&activities.EmailActivities{Store: f.store, Mailer: f.sender}).DeliverEmail(ctx, broadcast.EmailKey(f.id, f.people[2])); err != nil {
			t.Fatal(err)
		}
		res, err := f.batch(t, 1, 5)
		if err != nil {
			t.Fatal(err)
		}
		if res != (activities.BroadcastBatchResult{Sent: 3, Skipped: 2}) {
			t.Fatalf("result %+v, want 3 sent (one before) and 2 skipped", res)
		}
		for i, want := range []int{0, 0, 1, 1, 1} {
			if got := f.sender.sent[broadcast.EmailKey(f.id, f.people[i])]; got != want {
				t.Errorf("p%d got %d emails, want %d", i+1, got, want)
			}
		}
		if b := f.counts(t); b.Sent != 3 || b.Failed != 0 || b.Skipped != 2 {
			t.Fatalf("counts sent %d failed %d skipped %d, want 3 0 2", b.Sent, b.Failed, b.Skipped)
		}
		// Run again: nothing changes.
		if res, err := f.batch(t, 1, 5); err != nil || res != (activities.BroadcastBatchResult{Sent: 3, Skipped: 2}) {
			t.Fatalf("again: %+v %v", res, err)
		}
		if b := f.counts(t); b.Sent != 3 || b.Skipped != 2 {
			t.Fatalf("counts after a repeat: sent %d skipped %d", b.Sent, b.Skipped)
		}
	})

	t.Run("OKCancelRequestedSendsNothing", func(t *testing.T) {
		t.Parallel()
		f := newBroadcastFixture(t)
		if _, err := f.store.BroadcastRequestCancel(ctx, f.id); err != nil {
			t.Fatal(err)
		}
		res, err := f.batch(t, 1, 10)
		if err != nil || !res.Cancelled || len(f.sender.sent) != 0 {
			t.Fatalf("result %+v %v, %d sent", res, err, len(f.sender.sent))
		}
	})

	t.Run("ErrNoSigningKey", func(t *testing.T) {
		t.Parallel()
		f := newBroadcastFixture(t)
		f.acts.Unsubscribe = nil
		_, err := f.batch(t, 1, 10)
		if err == nil || !strings.Contains(err.Error(), "SIGNING_KEY") || len(f.sender.sent) != 0 {
			t.Fatalf("error %v, %d sent", err, len(f.sender.sent))
		}
	})
}

func TestFinishBroadcast(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newBroadcastFixture(t)
	if _, err := f.batch(t, 1, 10); err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(f.acts)
	finish := func(status broadcast.Status) activities.BroadcastCounts {
		t.Helper()
		v, err := env.ExecuteActivity(f.acts.FinishBroadcast, activities.FinishBroadcastInput{BroadcastID: f.id, Status: status})
		if err != nil {
			t.Fatal(err)
		}
		var c activities.BroadcastCounts
		if err := v.Get(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	got := finish(broadcast.Cancelled)
	want := activities.BroadcastCounts{Status: "cancelled", Total: 12, Sent: 10, RecipientsDeleted: 12}
	if got != want {
		t.Fatalf("finish %+v, want %+v", got, want)
	}
	b := f.counts(t)
	if b.Status != "cancelled" || b.FinishedAt == nil || b.Sent != 10 {
		t.Fatalf("broadcast %+v", b)
	}
	var left int
	if err := f.store.Pool().QueryRow(ctx, `SELECT count(*) FROM broadcast_recipients WHERE broadcast_id = $1`, f.id).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d recipients left (%v)", left, err)
	}
	// Again, even as done: the first end stands.
	if got := finish(broadcast.Done); got != (activities.BroadcastCounts{Status: "cancelled", Total: 12, Sent: 10}) {
		t.Fatalf("repeat %+v", got)
	}
	if _, err := env.ExecuteActivity(f.acts.FinishBroadcast, activities.FinishBroadcastInput{BroadcastID: f.id, Status: "sending"}); err == nil {
		t.Fatal("finished as sending")
	}
	if _, err := env.ExecuteActivity(f.acts.FinishBroadcast, activities.FinishBroadcastInput{BroadcastID: uuid.New(), Status: "done"}); err == nil {
		t.Fatal("finished an unknown broadcast")
	}
}
