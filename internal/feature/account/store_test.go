package account_test

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const publicURL = "http://hackdesk.test/"

var linkToken = regexp.MustCompile(`http://hackdesk\.test(/[a-z/-]+)\?token=([A-Za-z0-9_%-]+)`)

// tokenOf reads the one-time token out of a recorded email's link, which
// must lead to path.
func tokenOf(t *testing.T, s *db.Store, ref mail.Ref, path string) string {
	t.Helper()
	e, err := s.EmailGetByKey(context.Background(), ref.Key)
	if err != nil {
		t.Fatal(err)
	}
	m := linkToken.FindStringSubmatch(e.TextBody)
	if m == nil || m[1] != path {
		t.Fatalf("%s email has no %s link:\n%s", ref.Kind, path, e.TextBody)
	}
	tok, err := url.QueryUnescape(m[2])
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func hash(t *testing.T, pw string) string {
	t.Helper()
	h, err := auth.HashPassword(context.Background(), pw, auth.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func signup(t *testing.T, s *db.Store, req account.SignupRequest) mail.Ref {
	t.Helper()
	ctx := context.Background()
	if f := req.Validate(); len(f) != 0 {
		t.Fatal(f)
	}
	var refs []mail.Ref
	err := s.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = account.Signup(ctx, q, publicURL, req, hash(t, req.Password), true)
		return err
	})
	if err != nil || len(refs) != 1 {
		t.Fatalf("sign-up: %v, %v", refs, err)
	}
	return refs[0]
}

func isCode(err error, code apperr.Code, title string) bool {
	e, ok := apperr.As(err)
	return ok && e.Code == code && e.Title == title
}

func TestSignupConfirm(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ref := signup(t, s, account.SignupRequest{Email: "Ada@example.com", Password: "analytical-engine", DisplayName: "Ada"})
	if ref.Kind != account.PurposeConfirm || ref.To != "Ada@example.com" {
		t.Fatalf("signup email %+v", ref)
	}
	tok := tokenOf(t, s, ref, "/auth/confirm")

	// A second sign-up with the address makes no account: its owner is
	// told, without a token.
	again := signup(t, s, account.SignupRequest{Email: "ada@EXAMPLE.com", Password: "another-long-one", DisplayName: "Eve"})
	if again.Kind != account.AccountExistsKind || again.To != "Ada@example.com" {
		t.Fatalf("second sign-up email %+v", again)
	}
	if e, err := s.EmailGetByKey(ctx, again.Key); err != nil || linkToken.MatchString(e.TextBody) {
		t.Fatalf("account_exists email carries a token (%v):\n%s", err, e.TextBody)
	}
	// Beyond the caller's per-address rate nothing is recorded.
	err := s.InTx(ctx, func(q *db.Queries) error {
		refs, err := account.Signup(ctx, q, publicURL, account.SignupRequest{Email: "ada@example.com",
			Password: "another-long-one", DisplayName: "Eve"}, hash(t, "another-long-one"), false)
		if err == nil && len(refs) != 0 {
			t.Errorf("sign-up without notice recorded %+v", refs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var told int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM emails WHERE kind = $1`, account.AccountExistsKind).Scan(&told); err != nil || told != 1 {
		t.Fatalf("%d account-exists emails (%v), want the first only", told, err)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM profiles`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d accounts (%v), want 1", n, err)
	}

	if _, err := account.Login(ctx, s.Queries, account.LoginRequest{Email: "ada@example.com", Password: "analytical-engine"}); !errors.Is(err, account.ErrUnconfirmed) {
		t.Fatalf("login before confirming: %v", err)
	}
	for _, bad := range []string{"", "short", tok + "x"} {
		if err := account.Confirm(ctx, s.Queries, bad); !errors.Is(err, account.ErrBadToken) {
			t.Errorf("confirm with %q: %v", bad, err)
		}
	}
	if err := s.InTx(ctx, func(q *db.Queries) error { return account.Confirm(ctx, q, tok) }); err != nil {
		t.Fatal(err)
	}
	if err := account.Confirm(ctx, s.Queries, tok); !errors.Is(err, account.ErrBadToken) {
		t.Fatalf("a token used twice: %v", err)
	}
	p, err := s.ProfileGetByEmail(ctx, "ada@example.com")
	if err != nil || p.EmailConfirmedAt == nil || p.Role != account.RoleMember || *p.DisplayName != "Ada" {
		t.Fatalf("after confirming: %+v (%v)", p, err)
	}
}

func TestLoginSessions(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	p, err := account.Create(ctx, s.Queries, "ada@example.com", "Ada", "analytical-engine", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []account.LoginRequest{
		{Email: "ada@example.com", Password: "wrong-password"},
		{Email: "ghost@example.com", Password: "analytical-engine"},
	} {
		if _, err := account.Login(ctx, s.Queries, req); !errors.Is(err, account.ErrBadCredentials) {
			t.Errorf("login %s: %v, want bad credentials", req.Email, err)
		}
	}
	first, err := account.Login(ctx, s.Queries, account.LoginRequest{Email: " ADA@example.com ", Password: "analytical-engine"})
	if err != nil {
		t.Fatal(err)
	}
	if first.User.ID != p.ID || first.User.Role != account.RoleMember || !first.User.EmailConfirmed || first.Token == "" {
		t.Fatalf("opened %+v", first)
	}
	second, err := account.Login(ctx, s.Queries, account.LoginRequest{Email: "ada@example.com", Password: "analytical-engine"})
	if err != nil {
		t.Fatal(err)
	}
	row, err := account.Authenticate(ctx, s.Queries, second.Token)
	if err != nil || row.ProfileID != p.ID || row.Email != "ada@example.com" {
		t.Fatalf("authenticate: %+v (%v)", row, err)
	}
	me := account.Caller{ProfileID: p.ID, SessionID: row.SessionID, Role: row.Role}
	list, err := account.Sessions(ctx, s.Queries, me)
	if err != nil || len(list) != 2 || list[0].Current == list[1].Current {
		t.Fatalf("sessions %+v (%v), want two, one current", list, err)
	}
	for _, v := range list {
		if v.Current != (v.ID == row.SessionID) || !v.ExpiresAt.After(time.Now()) {
			t.Errorf("session %+v: current is the caller's, and it ends ahead", v)
		}
	}
	if n, err := account.RevokeOthers(ctx, s.Queries, me); err != nil || n != 1 {
		t.Fatalf("revoked %d (%v), want 1", n, err)
	}
	if _, err := account.Authenticate(ctx, s.Queries, first.Token); !errors.Is(err, account.ErrBadSession) {
		t.Fatalf("a revoked session authenticates: %v", err)
	}
	if err := account.Logout(ctx, s.Queries, row.SessionID); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{second.Token, "not-a-token"} {
		if _, err := account.Authenticate(ctx, s.Queries, tok); !errors.Is(err, account.ErrBadSession) {
			t.Errorf("authenticate %q after logout: %v", tok, err)
		}
	}
}

func TestResetPassword(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	if _, err := account.Create(ctx, s.Queries, "ada@example.com", "Ada", "analytical-engine", ""); err != nil {
		t.Fatal(err)
	}
	old, err := account.Login(ctx, s.Queries, account.LoginRequest{Email: "ada@example.com", Password: "analytical-engine"})
	if err != nil {
		t.Fatal(err)
	}
	request := func(email string) []mail.Ref {
		var refs []mail.Ref
		err := s.InTx(ctx, func(q *db.Queries) (err error) {
			refs, err = account.RequestReset(ctx, q, publicURL, email)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return refs
	}
	if refs := request("ghost@example.com"); len(refs) != 0 {
		t.Fatalf("reset mailed to no account: %+v", refs)
	}
	stale := tokenOf(t, s, request(" ada@example.com")[0], "/reset-password")
	refs := request("ada@example.com")
	if len(refs) != 1 || refs[0].Kind != account.PurposeReset {
		t.Fatalf("reset emails %+v", refs)
	}
	tok := tokenOf(t, s, refs[0], "/reset-password")

	if err := account.CheckReset(ctx, s.Queries, account.ResetRequest{Token: stale, Password: "a brand new secret"}); !errors.Is(err, account.ErrBadToken) {
		t.Fatalf("the older link still works: %v", err)
	}
	if err := account.CheckReset(ctx, s.Queries, account.ResetRequest{Token: tok, Password: "ada@example.com"}); !isCode(err, apperr.Invalid, "Validation failed") {
		t.Fatalf("a password like the account's email: %v", err)
	}
	req := account.ResetRequest{Token: tok, Password: "a brand new secret"}
	if err := account.CheckReset(ctx, s.Queries, req); err != nil {
		t.Fatal(err)
	}
	h := hash(t, req.Password)
	if err := s.InTx(ctx, func(q *db.Queries) error { return account.ResetPassword(ctx, q, req.Token, h) }); err != nil {
		t.Fatal(err)
	}
	if err := account.ResetPassword(ctx, s.Queries, req.Token, h); !errors.Is(err, account.ErrBadToken) {
		t.Fatalf("a reset token used twice: %v", err)
	}
	if _, err := account.Authenticate(ctx, s.Queries, old.Token); !errors.Is(err, account.ErrBadSession) {
		t.Fatalf("a session from before the reset survives: %v", err)
	}
	if _, err := account.Login(ctx, s.Queries, account.LoginRequest{Email: "ada@example.com", Password: "analytical-engine"}); !errors.Is(err, account.ErrBadCredentials) {
		t.Fatalf("the old password works: %v", err)
	}
	if _, err := account.Login(ctx, s.Queries, account.LoginRequest{Email: "ada@example.com", Password: req.Password}); err != nil {
		t.Fatalf("the new password: %v", err)
	}
}

func TestCreate(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	p, err := account.Create(ctx, s.Queries, "root@example.com", "  Root ", "password-root", "superadmin")
	if err != nil || p.Role != account.RoleSuperadmin || p.EmailConfirmedAt == nil || *p.DisplayName != "Root" {
		t.Fatalf("created %+v (%v)", p, err)
	}
	for name, args := range map[string][4]string{
		"taken email":  {"root@example.com", "", "password-root", ""},
		"not an email": {"Root <root@x.org>", "", "password-root", ""},
		"short":        {"a@example.com", "", "short", ""},
		"role":         {"a@example.com", "", "password-root", "owner"},
		"name":         {"a@example.com", "CLI\r\nUser", "password-root", ""},
	} {
		if _, err := account.Create(ctx, s.Queries, args[0], args[1], args[2], args[3]); err == nil {
			t.Errorf("%s: created", name)
		}
	}
}

func TestGrant(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	create := func(email, role string) uuid.UUID {
		p, err := s.ProfileInsert(ctx, db.ProfileInsertParams{Email: email, PasswordHash: "$argon2id$test", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	grant := func(id uuid.UUID, c account.Change) error {
		return s.InTx(ctx, func(q *db.Queries) error { return account.Grant(ctx, q, id, c) })
	}
	role := func(id uuid.UUID) string {
		v, err := s.ProfileView(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return v.Role
	}
	root := create("root@example.com", "superadmin")
	ada := create("ada@example.com", "member")

	if err := grant(root, account.Change{Role: "admin"}); !errors.Is(err, account.ErrLastSuperadmin) || role(root) != "superadmin" {
		t.Fatalf("demoting the last superadmin: %v, role %s", err, role(root))
	}
	if err := grant(ada, account.Change{Role: "superadmin"}); err != nil {
		t.Fatal(err)
	}
	if err := grant(root, account.Change{Role: "member"}); err != nil || role(root) != "member" {
		t.Fatalf("demoting one of two superadmins: %v, role %s", err, role(root))
	}
	if err := grant(ada, account.Change{Role: "member"}); !errors.Is(err, account.ErrLastSuperadmin) {
		t.Fatalf("demoting the new last superadmin: %v", err)
	}
	if err := grant(uuid.New(), account.Change{Role: "admin"}); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("an unknown account: %v", err)
	}

	// Two demotions at once leave one superadmin.
	if err := grant(root, account.Change{Role: "superadmin"}); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for _, id := range []uuid.UUID{root, ada} {
		go func() { errs <- grant(id, account.Change{Role: "admin"}) }()
	}
	refused := 0
	for range 2 {
		if err := <-errs; errors.Is(err, account.ErrLastSuperadmin) {
			refused++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if locked, err := s.ProfileSuperadminsLock(ctx); err != nil || refused != 1 || len(locked) != 1 {
		t.Fatalf("concurrent demotions: %d refused, %d superadmins left (%v)", refused, len(locked), err)
	}

	// Exec roles, by term name; the shell's GrantByEmail may demote the
	// last superadmin.
	term, err := s.TermInsert(ctx, db.TermInsertParams{Name: "2026-2027",
		StartsOn: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), EndsOn: time.Date(2027, 8, 31, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := account.GrantByEmail(ctx, s, "ADA@example.com", account.Change{Exec: "VP", Subteam: " Tech ", Term: "2026-2027"}); err != nil {
		t.Fatal(err)
	}
	v, err := s.ProfileView(ctx, ada)
	if err != nil || *v.ExecPosition != "VP" || *v.ExecSubteam != "Tech" || *v.ExecTermID != term.ID {
		t.Fatalf("exec role %+v (%v)", v, err)
	}
	last := root
	if role(root) != "superadmin" {
		last = ada
	}
	email := map[uuid.UUID]string{root: "root@example.com", ada: "ada@example.com"}[last]
	if err := account.GrantByEmail(ctx, s, email, account.Change{Role: "member", Exec: "none"}); err != nil || role(last) != "member" {
		t.Fatalf("the shell demoting the last superadmin: %v", err)
	}
	if v, _ := s.ProfileView(ctx, ada); last == ada && v.ExecPosition != nil {
		t.Fatalf("exec role not ended: %+v", v)
	}
	for name, c := range map[string]account.Change{
		"unknown term": {Exec: "Exec", Term: "1999"},
		"bad change":   {},
	} {
		if err := account.GrantByEmail(ctx, s, "ada@example.com", c); err == nil {
			t.Errorf("%s: granted", name)
		}
	}
	if err := account.GrantByEmail(ctx, s, "ghost@example.com", account.Change{Role: "admin"}); err == nil || err.Error() != "no account with email ghost@example.com" {
		t.Errorf("unknown email: %v", err)
	}
}

func TestProfileAndSearch(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ada, err := account.Create(ctx, s.Queries, "ada@example.com", "Ada", "analytical-engine", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"grace@example.com", "a_da@example.com"} {
		if _, err := account.Create(ctx, s.Queries, e, "", "analytical-engine", ""); err != nil {
			t.Fatal(err)
		}
	}
	// An unconfirmed account is never found.
	signup(t, s, account.SignupRequest{Email: "adam@example.com", Password: "analytical-engine", DisplayName: "Adam"})

	p := account.ProfilePatch{}
	p.DisplayName.Set, p.DisplayName.V = true, " Countess "
	p.MarketingOptIn.Set, p.MarketingOptIn.V = true, true
	if f := p.Validate(); len(f) != 0 {
		t.Fatal(f)
	}
	u, err := account.UpdateProfile(ctx, s.Queries, ada.ID, p)
	if err != nil || *u.DisplayName != "Countess" || !u.MarketingOptIn || u.ExecRole != nil || u.ActiveMembership != nil {
		t.Fatalf("updated %+v (%v)", u, err)
	}

	grace, err := s.ProfileGetByEmail(ctx, "grace@example.com")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q      string
		emails []string
	}{
		{"ada", []string{"ada@example.com"}},             // a local part's start (not the unconfirmed Adam)
		{"DA@", nil},                                     // an address is compared whole
		{"ADA@example.com", []string{"ada@example.com"}}, // the whole address
		{"countess", []string{"ada@example.com"}},        // the name's start
		{"da", nil},                            // too short: refused below
		{"dam", nil},                           // the middle of a word
		{"a_da", []string{"a_da@example.com"}}, // words of the local part; _ is no wildcard
		{"example", nil},                       // the domain is never searched
		{"grace", nil},                         // never the caller
	}
	for _, c := range cases {
		search, err := account.ParseSearch(c.q, "")
		if c.q == "da" {
			if err == nil {
				t.Errorf("search %q was not refused", c.q)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := account.SearchConfirmed(ctx, s.Queries, grace.ID, search, account.MaxSearchRows)
		if err != nil || len(got) != len(c.emails) {
			t.Errorf("search %q: %+v (%v), want %v", c.q, got, err, c.emails)
			continue
		}
		for i, g := range got {
			if g.Email != c.emails[i] {
				t.Errorf("search %q: %d is %s, want %s", c.q, i, g.Email, c.emails[i])
			}
		}
	}
}
