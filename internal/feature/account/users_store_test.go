package account_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/feature/term"
)

// profile inserts an account; an unconfirmed one when confirmed is false.
func profile(t *testing.T, s *db.Store, email, name, role string, confirmed bool) uuid.UUID {
	t.Helper()
	var display *string
	if name != "" {
		display = &name
	}
	var at *time.Time
	if confirmed {
		now := time.Now()
		at = &now
	}
	p, err := s.ProfileInsert(context.Background(), db.ProfileInsertParams{Email: email, DisplayName: display,
		PasswordHash: "$argon2id$test", Role: role, EmailConfirmedAt: at})
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

// newTerm inserts a term, the active one when active.
func newTerm(t *testing.T, s *db.Store, name string, year int, active bool) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	tm, err := s.TermInsert(ctx, db.TermInsertParams{Name: name,
		StartsOn: time.Date(year, 9, 1, 0, 0, 0, 0, time.UTC), EndsOn: time.Date(year+1, 8, 31, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if active {
		if err := s.TermSetActive(ctx, tm.ID); err != nil {
			t.Fatal(err)
		}
	}
	return tm.ID
}

func emails(us []account.AdminUser) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Email
	}
	return out
}

func TestListUsers(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ada := profile(t, s, "Ada@example.com", "Ada Lovelace", "superadmin", true)
	profile(t, s, "grace@example.com", "Grace Hopper", "admin", true)
	profile(t, s, "alan@example.com", "", "member", false)
	profile(t, s, "sale_50%@example.com", "Promo", "member", true)
	for i := range 11 {
		profile(t, s, fmt.Sprintf("m%02d@club.test", i), fmt.Sprintf("Member %d", i), "member", true)
	}
	active := newTerm(t, s, "2025-2026", 2025, true)
	old := newTerm(t, s, "2024-2025", 2024, false)
	if err := account.GrantByEmail(ctx, s, "ada@example.com", account.Change{Exec: "VP", Subteam: "Design", TermID: &active}); err != nil {
		t.Fatal(err)
	}
	if err := account.GrantByEmail(ctx, s, "grace@example.com", account.Change{Exec: "President", TermID: &old}); err != nil {
		t.Fatal(err)
	}

	list := func(uq account.UserQuery) ([]account.AdminUser, int64) {
		t.Helper()
		if f := uq.Validate(); len(f) != 0 {
			t.Fatal(f)
		}
		if uq.Limit == 0 {
			uq.Limit = 25
		}
		us, total, err := account.ListUsers(ctx, s.Queries, uq)
		if err != nil {
			t.Fatal(err)
		}
		return us, total
	}
	cases := []struct {
		name  string
		uq    account.UserQuery
		want  []string
		total int64
	}{
		{"by name, any case", account.UserQuery{Q: "LOVELACE"}, []string{"Ada@example.com"}, 1},
		{"by email", account.UserQuery{Q: " GRACE@ "}, []string{"grace@example.com"}, 1},
		{"name and email", account.UserQuery{Q: "a"}, []string{"Ada@example.com", "alan@example.com", "grace@example.com", "sale_50%@example.com"}, 4},
		{"% matches itself", account.UserQuery{Q: "%"}, []string{"sale_50%@example.com"}, 1},
		{"_ matches itself", account.UserQuery{Q: "e_5"}, []string{"sale_50%@example.com"}, 1},
		{"_ is no wildcard", account.UserQuery{Q: "m_0"}, []string{}, 0},
		{"no match", account.UserQuery{Q: "nobody"}, []string{}, 0},
		{"role", account.UserQuery{Role: "admin"}, []string{"grace@example.com"}, 1},
		{"role and q", account.UserQuery{Role: "member", Q: "example"}, []string{"alan@example.com", "sale_50%@example.com"}, 2},
		{"second page", account.UserQuery{Q: "club.test", Limit: 10, Offset: 10}, []string{"m10@club.test"}, 11},
		{"first page", account.UserQuery{Role: "member", Limit: 3}, []string{"alan@example.com", "m00@club.test", "m01@club.test"}, 13},
	}
	for _, c := range cases {
		got, total := list(c.uq)
		if !slices.Equal(emails(got), c.want) || total != c.total {
			t.Errorf("%s: %v (total %d), want %v (total %d)", c.name, emails(got), total, c.want, c.total)
		}
	}

	// The whole view: the exec role of the active term only.
	got, _ := list(account.UserQuery{Q: "example.com"})
	byEmail := map[string]account.AdminUser{}
	for _, u := range got {
		byEmail[u.Email] = u
	}
	a := byEmail["Ada@example.com"]
	if a.ID != ada || a.Role != "superadmin" || !a.EmailConfirmed || *a.DisplayName != "Ada Lovelace" || a.ExecRole == nil ||
		a.ExecRole.Position != "VP" || *a.ExecRole.Subteam != "Design" || *a.ExecRole.TermID != active {
		t.Errorf("Ada: %+v", a)
	}
	if g := byEmail["grace@example.com"]; g.ExecRole != nil {
		t.Errorf("Grace's exec role of a past term shows: %+v", g.ExecRole)
	}
	if al := byEmail["alan@example.com"]; al.EmailConfirmed || al.DisplayName != nil || al.ExecRole != nil {
		t.Errorf("Alan: %+v", al)
	}
	// The JSON shape of GET /api/admin/users.
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"id":"%s","email":"Ada@example.com","display_name":"Ada Lovelace","role":"superadmin","email_confirmed":true,`+
		`"exec_role":{"position":"VP","subteam":"Design","term_id":"%s"}}`, ada, active)
	if string(b) != want {
		t.Errorf("JSON %s\nwant %s", b, want)
	}
}

// patchUser decodes body as the API does, validates it and applies it.
func patchUser(t *testing.T, s *db.Store, id uuid.UUID, body string) (account.AdminUser, error) {
	t.Helper()
	var p account.UserPatch
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if f := p.Validate(); len(f) != 0 {
		t.Fatalf("%s: %v", body, f)
	}
	return applyPatch(s, id, p)
}

// applyPatch applies a validated patch in a transaction.
func applyPatch(s *db.Store, id uuid.UUID, p account.UserPatch) (account.AdminUser, error) {
	ctx := context.Background()
	var u account.AdminUser
	err := s.InTx(ctx, func(q *db.Queries) (err error) {
		u, err = account.UpdateUser(ctx, q, id, p)
		return err
	})
	return u, err
}

func TestUpdateUser(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	root := profile(t, s, "root@example.com", "Root", "superadmin", true)
	ada := profile(t, s, "ada@example.com", "Ada", "member", true)
	active := newTerm(t, s, "2025-2026", 2025, true)
	old := newTerm(t, s, "2024-2025", 2024, false)

	u, err := patchUser(t, s, ada, `{"role":"admin","exec":{"position":"VP","subteam":" Design ","term_id":"`+active.String()+`"}}`)
	if err != nil || u.Role != "admin" || u.ExecRole == nil || u.ExecRole.Position != "VP" || *u.ExecRole.Subteam != "Design" {
		t.Fatalf("role and exec: %+v (%v)", u, err)
	}
	// GET /api/profile shows it too, and the session's principal reads it.
	if p, err := account.Load(ctx, s.Queries, ada); err != nil || p.Role != "admin" || p.ExecRole == nil || *p.ExecRole.TermID != active {
		t.Fatalf("profile after the patch: %+v (%v)", p, err)
	}
	if u, err := patchUser(t, s, ada, `{}`); err != nil || u.Role != "admin" || u.ExecRole == nil {
		t.Fatalf("an empty patch: %+v (%v)", u, err)
	}
	// An exec role of another term replaces the active one, and the list
	// (of the active term) no longer shows one.
	if u, err := patchUser(t, s, ada, `{"exec":{"position":"Exec","term_id":"`+old.String()+`"}}`); err != nil || u.ExecRole != nil {
		t.Fatalf("an exec role of a past term: %+v (%v)", u, err)
	}
	if p, _ := account.Load(ctx, s.Queries, ada); p.ExecRole == nil || p.ExecRole.Position != "Exec" {
		t.Fatalf("profile's exec role: %+v", p.ExecRole)
	}
	if _, err := patchUser(t, s, ada, `{"exec":{"position":"President","term_id":"`+active.String()+`"}}`); err != nil {
		t.Fatal(err)
	}
	if u, err := patchUser(t, s, ada, `{"exec":null}`); err != nil || u.ExecRole != nil {
		t.Fatalf("exec null: %+v (%v)", u, err)
	}
	if p, _ := account.Load(ctx, s.Queries, ada); p.ExecRole != nil {
		t.Fatalf("exec role after exec null: %+v", p.ExecRole)
	}

	// Unknown account first, then unknown term; nothing changes.
	if _, err := patchUser(t, s, uuid.New(), `{"exec":{"position":"President","term_id":"`+uuid.NewString()+`"}}`); !errors.Is(err, account.ErrUserNotFound) {
		t.Fatalf("an unknown account: %v", err)
	}
	if _, err := patchUser(t, s, ada, `{"role":"member","exec":{"position":"President","term_id":"`+uuid.NewString()+`"}}`); !errors.Is(err, term.ErrMissing) {
		t.Fatalf("an unknown term: %v", err)
	}
	if p, _ := account.Load(ctx, s.Queries, ada); p.Role != "admin" {
		t.Fatalf("the refused patch changed the role to %s", p.Role)
	}

	// UpdateUser checks the patch itself: a caller that skipped Validate
	// gets the validation failure.
	var bad account.UserPatch
	if err := json.Unmarshal([]byte(`{"exec":{"position":"VP","term_id":"x"}}`), &bad); err != nil {
		t.Fatal(err)
	}
	if _, err := applyPatch(s, ada, bad); !isCode(err, "invalid", "Validation failed") {
		t.Fatalf("an unchecked bad patch: %v", err)
	}

	// The last superadmin stays one; with two, one may demote itself.
	if _, err := patchUser(t, s, root, `{"role":"admin"}`); !errors.Is(err, account.ErrLastSuperadmin) || !isCode(err, "conflict", "Last superadmin") {
		t.Fatalf("demoting the last superadmin: %v", err)
	}
	if _, err := patchUser(t, s, ada, `{"role":"superadmin"}`); err != nil {
		t.Fatal(err)
	}
	if u, err := patchUser(t, s, root, `{"role":"member"}`); err != nil || u.Role != "member" {
		t.Fatalf("a superadmin demoting itself: %+v (%v)", u, err)
	}
	if _, err := patchUser(t, s, ada, `{"role":"admin"}`); !errors.Is(err, account.ErrLastSuperadmin) {
		t.Fatalf("demoting the new last superadmin: %v", err)
	}
}

// Two superadmins demoting each other at once leave exactly one: the
// superadmins' rows are locked before either is counted.
func TestUpdateUserMutualDemotion(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	for round := range 5 {
		a := profile(t, s, fmt.Sprintf("a%d@example.com", round), "", "superadmin", true)
		b := profile(t, s, fmt.Sprintf("b%d@example.com", round), "", "superadmin", true)
		if round > 0 { // one superadmin is left from the round before: demote it
			left, err := s.ProfileSuperadminsLock(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range left {
				if id != a && id != b {
					if _, err := patchUser(t, s, id, `{"role":"member"}`); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		demote := account.UserPatch{}
		if err := json.Unmarshal([]byte(`{"role":"admin"}`), &demote); err != nil {
			t.Fatal(err)
		}
		start := make(chan struct{})
		errs := make(chan error, 2)
		for _, id := range []uuid.UUID{b, a} { // a demotes b, b demotes a
			go func() {
				<-start
				_, err := applyPatch(s, id, demote)
				errs <- err
			}()
		}
		close(start)
		refused := 0
		for range 2 {
			if err := <-errs; errors.Is(err, account.ErrLastSuperadmin) {
				refused++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		left, err := s.ProfileSuperadminsLock(context.Background())
		if err != nil || refused != 1 || len(left) != 1 || (left[0] != a && left[0] != b) {
			t.Fatalf("round %d: %d refused, superadmins left %v (%v)", round, refused, left, err)
		}
	}
}
