package broadcast_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/platform/signing"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// world is a fresh database with a superadmin, an active term and an
// older one, and people in them:
//
//	paid     paid member of the active term, opted in to marketing
//	unpaid   unpaid member of the active term
//	pending  member of the active term whose email is not confirmed
//	old      paid member of the older term only
//	exec     holder of an exec role
type world struct {
	store         *db.Store
	root          uuid.UUID
	active, older uuid.UUID
	people        map[string]uuid.UUID
}

func newWorld(t *testing.T) world {
	t.Helper()
	ctx := context.Background()
	w := world{store: testenv.Store(t), people: map[string]uuid.UUID{}}
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := w.store.Pool().Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	person := func(name string, confirmed, optIn bool) uuid.UUID {
		t.Helper()
		var id uuid.UUID
		if err := w.store.Pool().QueryRow(ctx, `INSERT INTO profiles (email, password_hash, email_confirmed_at, marketing_opt_in)
			VALUES ($1, '$argon2id$x', CASE WHEN $2 THEN now() END, $3) RETURNING id`, name+"@example.com", confirmed, optIn).Scan(&id); err != nil {
			t.Fatal(err)
		}
		w.people[name] = id
		return id
	}
	w.root = person("root", true, false)
	exec(`UPDATE profiles SET role = 'superadmin' WHERE id = $1`, w.root)
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	for i, id := range []*uuid.UUID{&w.older, &w.active} {
		tm, err := w.store.TermInsert(ctx, db.TermInsertParams{Name: []string{"Fall", "Winter"}[i],
			StartsOn: start.AddDate(0, 4*i, 0), EndsOn: start.AddDate(0, 4*i+3, 0)})
		if err != nil {
			t.Fatal(err)
		}
		*id = tm.ID
	}
	if err := w.store.TermSetActive(ctx, w.active); err != nil {
		t.Fatal(err)
	}
	member := func(who string, term uuid.UUID, paid bool) {
		t.Helper()
		if paid {
			exec(`INSERT INTO memberships (profile_id, term_id, status, amount_cents, method, paid_at, confirmed_by)
				VALUES ($1, $2, 'paid', 1000, 'cash', now(), $3)`, w.people[who], term, w.root)
		} else {
			exec(`INSERT INTO memberships (profile_id, term_id) VALUES ($1, $2)`, w.people[who], term)
		}
	}
	person("paid", true, true)
	person("unpaid", true, false)
	person("pending", false, true)
	person("old", true, true)
	person("exec", true, false)
	member("paid", w.active, true)
	member("unpaid", w.active, false)
	member("pending", w.active, false)
	member("old", w.older, true)
	exec(`INSERT INTO exec_roles (profile_id, position, subteam) VALUES ($1, 'Exec', 'web')`, w.people["exec"])
	return w
}

// request decodes and validates a request as the API does.
func request(t *testing.T, body string) broadcast.Request {
	t.Helper()
	var r broadcast.Request
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate().Err(); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return r
}

func (w world) create(t *testing.T, body string) (db.Broadcast, error) {
	t.Helper()
	ctx := context.Background()
	id := uuid.New()
	var b db.Broadcast
	err := w.store.InTx(ctx, func(q *db.Queries) (err error) {
		b, err = broadcast.Create(ctx, q, broadcast.New{ID: id, WorkflowID: "broadcast:" + id.String(), CreatedBy: w.root, Request: request(t, body)})
		return err
	})
	return b, err
}

// preview decodes and validates a preview request as the API does and
// counts its audience.
func (w world) preview(t *testing.T, body string) (int32, error) {
	t.Helper()
	var r broadcast.PreviewRequest
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate().Err(); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return broadcast.Preview(context.Background(), w.store.Queries, r)
}

// TestCreate: the recipient list is the audience's confirmed accounts,
// and for marketing only those who opted in; a by-term audience without a
// term is of the active one. The preview counts the same people.
func TestCreate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, tc := range []struct {
		name, audience string
		marketing      bool
		term           *uuid.UUID
		want           []string
	}{
		{"MembersOfTheActiveTerm", `{"kind":"members"}`, false, &w.active, []string{"paid", "unpaid"}},
		{"MarketingToMembers", `{"kind":"members"}`, true, &w.active, []string{"paid"}},
		{"PaidMembersOfTheActiveTerm", `{"kind":"paid_members"}`, false, &w.active, []string{"paid"}},
		{"PaidMembersOfAnOlderTerm", `{"kind":"paid_members","term_id":"` + w.older.String() + `"}`, false, &w.older, []string{"old"}},
		{"Execs", `{"kind":"execs"}`, false, nil, []string{"exec"}},
		{"ApplicantsNoneYet", `{"kind":"applicants","status":"offer"}`, false, nil, nil},
	} {
		body := `{"subject":"Hack night","body":"Friday.","audience":` + tc.audience + `,"marketing":` + map[bool]string{true: "true", false: "false"}[tc.marketing] + `}`
		preview, err := w.preview(t, `{"audience":`+tc.audience+`,"marketing":`+map[bool]string{true: "true", false: "false"}[tc.marketing]+`}`)
		if err != nil {
			t.Fatalf("%s: preview: %v", tc.name, err)
		}
		b, err := w.create(t, body)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if preview != b.Total {
			t.Errorf("%s: preview %d, created with %d recipients", tc.name, preview, b.Total)
		}
		if (tc.term == nil) != (b.TermID == nil) || tc.term != nil && *b.TermID != *tc.term || b.Marketing != tc.marketing || b.Status != string(broadcast.Sending) {
			t.Errorf("%s: broadcast %+v", tc.name, b)
		}
		rows, err := w.store.Pool().Query(context.Background(), `SELECT profile_id FROM broadcast_recipients WHERE broadcast_id = $1 ORDER BY seq`, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := map[uuid.UUID]bool{}
		for rows.Next() {
			var id uuid.UUID
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			got[id] = true
		}
		rows.Close()
		if int(b.Total) != len(tc.want) || len(got) != len(tc.want) {
			t.Errorf("%s: total %d, %d recipients, want %v", tc.name, b.Total, len(got), tc.want)
		}
		for _, who := range tc.want {
			if !got[w.people[who]] {
				t.Errorf("%s: %s is not a recipient", tc.name, who)
			}
		}
	}
}

func TestCreateTermErrors(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if _, err := w.create(t, `{"subject":"S","body":"B","audience":{"kind":"members","term_id":"`+uuid.NewString()+`"}}`); !errors.Is(err, broadcast.ErrTermNotFound) {
		t.Fatalf("unknown term: %v", err)
	}
	if err := w.store.TermClearActive(context.Background(), uuid.Nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.create(t, `{"subject":"S","body":"B","audience":{"kind":"paid_members"}}`); !errors.Is(err, broadcast.ErrNoActiveTerm) {
		t.Fatalf("no active term: %v", err)
	}
	if _, err := w.preview(t, `{"audience":{"kind":"paid_members"}}`); !errors.Is(err, broadcast.ErrNoActiveTerm) {
		t.Fatalf("preview without an active term: %v", err)
	}
	// Execs are of no term: no active term is needed.
	if _, err := w.create(t, `{"subject":"S","body":"B","audience":{"kind":"execs"}}`); err != nil {
		t.Fatalf("execs without an active term: %v", err)
	}
	var n int
	if err := w.store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM broadcasts`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d broadcasts (%v), want only the execs' one", n, err)
	}
}

// TestCancelAndFinish: a cancel request is recorded once and answered
// again; an ended broadcast cannot be cancelled; ending deletes the list
// and keeps the counts.
func TestCancelAndFinish(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	b, err := w.create(t, `{"subject":"S","body":"B","audience":{"kind":"members"}}`)
	if err != nil {
		t.Fatal(err)
	}
	other, err := w.create(t, `{"subject":"Second","body":"B","audience":{"kind":"execs"}}`)
	if err != nil {
		t.Fatal(err)
	}
	cancel := func(id uuid.UUID) (v broadcast.View, err error) {
		err = w.store.InTx(ctx, func(q *db.Queries) (err error) {
			v, err = broadcast.Cancel(ctx, q, id)
			return err
		})
		return v, err
	}
	first, err := cancel(b.ID)
	if err != nil || first.CancelRequestedAt == nil || first.Status != "sending" || first.Total != 2 || first.Audience.Kind != "members" {
		t.Fatalf("cancel: %+v %v", first, err)
	}
	if again, err := cancel(b.ID); err != nil || !again.CancelRequestedAt.Equal(*first.CancelRequestedAt) {
		t.Fatalf("cancel again: %+v %v", again, err)
	}
	if _, err := cancel(uuid.New()); !errors.Is(err, broadcast.ErrNotFound) {
		t.Fatalf("cancel of no broadcast: %v", err)
	}

	finish := func(in broadcast.FinishInput) (c broadcast.Counts, err error) {
		err = w.store.InTx(ctx, func(q *db.Queries) (err error) {
			c, err = broadcast.Finish(ctx, q, in)
			return err
		})
		return c, err
	}
	if c, err := finish(broadcast.FinishInput{BroadcastID: b.ID, Status: broadcast.Cancelled}); err != nil ||
		c != (broadcast.Counts{Status: "cancelled", Total: 2, RecipientsDeleted: 2}) {
		t.Fatalf("finish: %+v %v", c, err)
	}
	if c, err := finish(broadcast.FinishInput{BroadcastID: b.ID, Status: broadcast.Done}); err != nil || c != (broadcast.Counts{Status: "cancelled", Total: 2}) {
		t.Fatalf("finish again: %+v %v", c, err)
	}
	if _, err := finish(broadcast.FinishInput{BroadcastID: b.ID, Status: broadcast.Sending}); !errors.Is(err, broadcast.ErrBadEnd) {
		t.Fatalf("finish as sending: %v", err)
	}
	if _, err := finish(broadcast.FinishInput{BroadcastID: uuid.New(), Status: broadcast.Done}); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("finish of no broadcast: %v", err)
	}
	if _, err := cancel(b.ID); !errors.Is(err, broadcast.ErrEnded) {
		t.Fatalf("cancel after the end: %v", err)
	}

	items, total, err := broadcast.List(ctx, w.store.Queries, 10, 0)
	if err != nil || total != 2 || len(items) != 2 || items[0].ID != other.ID || items[1].Status != "cancelled" || items[1].FinishedAt == nil {
		t.Fatalf("list %+v of %d: %v", items, total, err)
	}
	if v, err := broadcast.Get(ctx, w.store.Queries, other.ID); err != nil || v.Subject != "Second" || v.Total != 1 {
		t.Fatalf("get %+v %v", v, err)
	}
	if _, err := broadcast.Get(ctx, w.store.Queries, uuid.New()); !errors.Is(err, broadcast.ErrNotFound) {
		t.Fatalf("get of no broadcast: %v", err)
	}
}

// TestPrepareOrder: a batch of a broadcast asked to stop is cancelled
// before the signing key is looked at; a batch past the list is empty.
func TestPrepareOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	b, err := w.create(t, `{"subject":"S","body":"B","audience":{"kind":"members"}}`)
	if err != nil {
		t.Fatal(err)
	}
	signer := broadcast.UnsubscribeSigner([]byte("0123456789abcdef0123456789abcdef"))
	in := broadcast.BatchInput{BroadcastID: b.ID, First: 1, Last: 10, PublicURL: "https://hackdesk.test"}
	if got, err := broadcast.Prepare(ctx, w.store.Queries, in, &signer); err != nil || got.Cancelled || got.Empty || len(got.Send) != 2 {
		t.Fatalf("prepare: %+v %v", got, err)
	}
	if _, err := broadcast.Prepare(ctx, w.store.Queries, in, nil); !errors.Is(err, broadcast.ErrNoSigningKey) {
		t.Fatalf("prepare without a key: %v", err)
	}
	if got, err := broadcast.Prepare(ctx, w.store.Queries, broadcast.BatchInput{BroadcastID: b.ID, First: 3, Last: 12}, nil); err != nil || !got.Empty {
		t.Fatalf("prepare past the list: %+v %v", got, err)
	}
	if _, err := w.store.BroadcastRequestCancel(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := broadcast.Prepare(ctx, w.store.Queries, in, (*signing.Signer)(nil)); err != nil || !got.Cancelled || len(got.Send) != 0 {
		t.Fatalf("prepare after a cancel request: %+v %v", got, err)
	}
}

func TestUnsubscribeClearsOptIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	who := w.people["paid"]
	for range 2 { // again: nothing changes, no error
		if err := w.store.InTx(ctx, func(q *db.Queries) error { return broadcast.Unsubscribe(ctx, q, who) }); err != nil {
			t.Fatal(err)
		}
		var optIn bool
		if err := w.store.Pool().QueryRow(ctx, `SELECT marketing_opt_in FROM profiles WHERE id = $1`, who).Scan(&optIn); err != nil || optIn {
			t.Fatalf("opted in %v (%v) after unsubscribing", optIn, err)
		}
	}
	if err := broadcast.Unsubscribe(ctx, w.store.Queries, uuid.New()); err != nil {
		t.Fatalf("unsubscribe of no profile: %v", err)
	}
}
