package membership_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/feature/term"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const (
	dues     = 2000
	termName = "2026-2027"
)

// fixture is a fresh database with an active term.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	store *db.Store
	term  uuid.UUID
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, ctx: context.Background(), store: testenv.Store(t)}
	f.term = f.one(`INSERT INTO terms (name, starts_on, ends_on, active) VALUES ($1, '2026-09-01', '2027-04-30', true) RETURNING id`, termName)
	return f
}

// one runs sql and scans the id it returns.
func (f *fixture) one(sql string, args ...any) uuid.UUID {
	f.t.Helper()
	var id uuid.UUID
	if err := f.store.Pool().QueryRow(f.ctx, sql, args...).Scan(&id); err != nil {
		f.t.Fatal(err)
	}
	return id
}

// scan reads one row of sql into dest.
func (f *fixture) scan(sql string, args []any, dest ...any) {
	f.t.Helper()
	if err := f.store.Pool().QueryRow(f.ctx, sql, args...).Scan(dest...); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) profile(email string) uuid.UUID {
	f.t.Helper()
	return f.one(`INSERT INTO profiles (email, display_name, password_hash) VALUES ($1, 'Member', '$argon2id$x') RETURNING id`, email)
}

// emailTo is the address of the email recorded under key.
func (f *fixture) emailTo(key string) string {
	f.t.Helper()
	var to string
	f.scan(`SELECT to_address FROM emails WHERE idempotency_key = $1`, []any{key}, &to)
	return to
}

// emails counts the recorded emails with key.
func (f *fixture) emails(key string) int {
	f.t.Helper()
	var n int
	f.scan(`SELECT count(*) FROM emails WHERE idempotency_key = $1`, []any{key}, &n)
	return n
}

// tx runs fn in a transaction.
func (f *fixture) tx(fn func(q *db.Queries) error) error {
	return f.store.InTx(f.ctx, fn)
}

// TestJoinAndPay: a member joins the active term once; an exec records
// the payment once, with one confirmation email; the member's reads and
// the exec's page follow.
func TestJoinAndPay(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	q := f.store.Queries
	ana, exec := f.profile("ana@x.test"), f.profile("exec@x.test")

	mine, err := membership.Current(f.ctx, q, ana)
	if err != nil || mine.Term == nil || mine.Term.ID != f.term || mine.Membership != nil {
		t.Fatalf("before joining: %+v, %v", mine, err)
	}
	if _, err := membership.Own(f.ctx, q, ana); err != membership.ErrNotAMember {
		t.Fatalf("Own before joining: %v, want ErrNotAMember", err)
	}
	j, err := membership.Join(f.ctx, q, ana)
	if err != nil || !j.Created || j.Membership.Status != "unpaid" || j.Term.ID != f.term {
		t.Fatalf("Join = %+v, %v", j, err)
	}
	again, err := membership.Join(f.ctx, q, ana)
	if err != nil || again.Created || again.Membership.ID != j.Membership.ID {
		t.Fatalf("Join again = %+v, %v; want the same membership", again, err)
	}
	if id, err := membership.Own(f.ctx, q, ana); err != nil || id != j.Membership.ID {
		t.Fatalf("Own = %s, %v", id, err)
	}

	amount := int64(2500)
	in := membership.PaymentInput{Method: "etransfer", AmountCents: &amount}
	var d membership.Detail
	var e membership.Email
	if err := f.tx(func(q *db.Queries) (err error) {
		d, e, err = membership.RecordPayment(f.ctx, q, j.Membership.ID, exec, in)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	m := d.Membership
	if m.Status != "paid" || *m.Method != "etransfer" || *m.AmountCents != 2500 || *m.ConfirmedBy != exec || m.PaidAt == nil ||
		d.Member.Email != "ana@x.test" || d.Member.DisplayName != "Member" || d.Term.Name != termName {
		t.Fatalf("detail %+v", d)
	}
	if e.Key != membership.ConfirmationKey(m.ID) || e.Kind != membership.ConfirmationKind || f.emailTo(e.Key) != "ana@x.test" || f.emails(e.Key) != 1 {
		t.Fatalf("email %+v, %d recorded", e, f.emails(e.Key))
	}

	err = f.tx(func(q *db.Queries) error {
		_, _, err := membership.RecordPayment(f.ctx, q, j.Membership.ID, exec, in)
		return err
	})
	if err != membership.ErrAlreadyPaid || f.emails(e.Key) != 1 {
		t.Fatalf("a second payment: %v, %d emails; want ErrAlreadyPaid, 1", err, f.emails(e.Key))
	}
	err = f.tx(func(q *db.Queries) error {
		_, _, err := membership.RecordPayment(f.ctx, q, uuid.New(), exec, in)
		return err
	})
	if err != membership.ErrMembershipNotFound {
		t.Fatalf("paying no membership: %v, want ErrMembershipNotFound", err)
	}
	if _, _, err := membership.Pay(f.ctx, q, membership.Payment{MembershipID: uuid.New(), Method: membership.Cash, AmountCents: 2000, ConfirmedBy: &exec}); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("Pay of no membership: %v, want db.ErrNotFound", err)
	}
	if _, err := membership.GetDetail(f.ctx, q, uuid.New()); err != membership.ErrMembershipNotFound {
		t.Fatalf("GetDetail of no membership: %v", err)
	}
	if mine, err := membership.Current(f.ctx, q, ana); err != nil || mine.Membership == nil || mine.Membership.Status != "paid" {
		t.Fatalf("after paying: %+v, %v", mine, err)
	}

	// Without an active term there is nothing to join.
	if _, err := f.store.Pool().Exec(f.ctx, `UPDATE terms SET active = false`); err != nil {
		t.Fatal(err)
	}
	if mine, err := membership.Current(f.ctx, q, ana); err != nil || mine.Term != nil || mine.Membership != nil {
		t.Fatalf("no active term: %+v, %v", mine, err)
	}
	if _, err := membership.Join(f.ctx, q, ana); err != term.ErrNoActive {
		t.Fatalf("Join without an active term: %v", err)
	}
	if _, err := membership.Own(f.ctx, q, ana); err != term.ErrNoActive {
		t.Fatalf("Own without an active term: %v", err)
	}
	if _, _, err := membership.List(f.ctx, q, membership.ListFilter{}, 25, 0); err != term.ErrNoActive {
		t.Fatalf("List without an active term: %v", err)
	}
}

// TestList filters a term's memberships by status and by a literal search.
func TestList(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	q := f.store.Queries
	exec := f.profile("exec@x.test")
	for _, email := range []string{"ana@x.test", "bo_b@x.test", "bob@x.test", "cy@x.test"} {
		j, err := membership.Join(f.ctx, q, f.profile(email))
		if err != nil {
			t.Fatal(err)
		}
		if email == "cy@x.test" {
			if _, _, err := membership.Pay(f.ctx, q, membership.Payment{MembershipID: j.Membership.ID, Method: membership.Cash, AmountCents: 2000, ConfirmedBy: &exec}); err != nil {
				t.Fatal(err)
			}
		}
	}
	other := f.one(`INSERT INTO terms (name, starts_on, ends_on) VALUES ('2025-2026', '2025-09-01', '2026-04-30') RETURNING id`)
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name   string
		filter membership.ListFilter
		want   []string
	}{
		{"All", membership.ListFilter{}, []string{"ana@x.test", "bo_b@x.test", "bob@x.test", "cy@x.test"}},
		{"Paid", membership.ListFilter{Status: str("paid")}, []string{"cy@x.test"}},
		{"Unpaid", membership.ListFilter{Status: str("unpaid")}, []string{"ana@x.test", "bo_b@x.test", "bob@x.test"}},
		{"UnderscoreIsLiteral", membership.ListFilter{Q: str("bo_")}, []string{"bo_b@x.test"}},
		{"OtherTerm", membership.ListFilter{TermID: other.String()}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			filter := c.filter
			if fields := filter.Validate(); len(fields) != 0 {
				t.Fatal(fields)
			}
			items, total, err := membership.List(f.ctx, q, filter, 25, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.Member.Email)
				if it.TermID != f.term && c.filter.TermID == "" {
					t.Errorf("%s is of term %s", it.Member.Email, it.TermID)
				}
			}
			if total != int64(len(c.want)) || len(got) != len(c.want) {
				t.Fatalf("got %v (total %d), want %v", got, total, c.want)
			}
			for _, w := range c.want {
				found := false
				for _, g := range got {
					found = found || g == w
				}
				if !found {
					t.Errorf("got %v, want %v", got, c.want)
				}
			}
		})
	}
	items, total, err := membership.List(f.ctx, q, membership.ListFilter{}, 2, 2)
	if err != nil || len(items) != 2 || total != 4 {
		t.Fatalf("second page of two: %d items of %d, %v", len(items), total, err)
	}
}
