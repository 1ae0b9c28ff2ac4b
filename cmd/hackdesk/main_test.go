package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/auth"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func runCmd(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String() + errOut.String(), err
}

func TestUsersCommands(t *testing.T) {
	url := testenv.DatabaseURL(t)
	t.Setenv("DATABASE_URL", url)
	ctx := context.Background()
	store, err := db.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	out, err := runCmd(t, "first-superadmin\n", "users", "create", "--email", "root@example.com", "--name", "Root", "--role", "superadmin")
	if err != nil || !strings.Contains(out, "created root@example.com (superadmin)") {
		t.Fatalf("create: %v\n%s", err, out)
	}
	p, err := store.ProfileGetByEmail(ctx, "root@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if p.Role != "superadmin" || p.EmailConfirmedAt == nil || p.DisplayName == nil || *p.DisplayName != "Root" {
		t.Fatalf("profile = %+v", p)
	}
	if ok, _ := auth.VerifyPassword(context.Background(), "first-superadmin", p.PasswordHash); !ok {
		t.Fatal("the password read from stdin does not verify")
	}

	for name, args := range map[string][]string{
		"ErrDuplicate":  {"users", "create", "--email", "ROOT@example.com", "--password", "vivid orchard tempo"},
		"ErrShortPw":    {"users", "create", "--email", "x@example.com", "--password", "short"},
		"ErrBadRole":    {"users", "create", "--email", "y@example.com", "--password", "vivid orchard tempo", "--role", "king"},
		"ErrVPNoTeam":   {"users", "grant", "--email", "root@example.com", "--exec", "VP"},
		"ErrNoAccount":  {"users", "grant", "--email", "ghost@example.com", "--role", "admin"},
		"ErrNoEmail":    {"users", "grant", "--role", "admin"},
		"ErrNoGrant":    {"users", "grant", "--email", "root@example.com"},
		"ErrBadCommand": {"users", "delete", "--email", "root@example.com"},
	} {
		t.Run(name, func(t *testing.T) {
			if out, err := runCmd(t, "", args...); err == nil {
				t.Fatalf("%v succeeded: %s", args, out)
			}
		})
	}

	// The first superadmin's password passes the sign-up strength rule.
	for _, pw := range []string{"password123", "Zelda Zelda 1", "zelda@example.com!"} {
		out, err := runCmd(t, "", "users", "create", "--email", "zelda@example.com", "--name", "Zelda Zelda", "--password", pw)
		if err == nil || !strings.Contains(err.Error(), "too easy to guess") {
			t.Fatalf("create with weak password %q: %v\n%s", pw, err, out)
		}
	}
	if _, err := store.ProfileGetByEmail(ctx, "zelda@example.com"); err == nil {
		t.Fatal("an account was created with a weak password")
	}

	if out, err := runCmd(t, "", "users", "grant", "--email", "root@example.com", "--exec", "VP", "--subteam", "design", "--role", "admin"); err != nil {
		t.Fatalf("grant: %v\n%s", err, out)
	}
	v, err := store.ProfileView(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Role != "admin" || v.ExecPosition == nil || *v.ExecPosition != "VP" || *v.ExecSubteam != "design" {
		t.Fatalf("after grant: %+v", v)
	}
	// A new exec role replaces the old one; "none" ends it.
	if _, err := runCmd(t, "", "users", "grant", "--email", "root@example.com", "--exec", "President"); err != nil {
		t.Fatal(err)
	}
	if v, _ = store.ProfileView(ctx, p.ID); v.ExecPosition == nil || *v.ExecPosition != "President" {
		t.Fatalf("after President grant: %+v", v)
	}
	if _, err := runCmd(t, "", "users", "grant", "--email", "root@example.com", "--exec", "none"); err != nil {
		t.Fatal(err)
	}
	if v, _ = store.ProfileView(ctx, p.ID); v.ExecPosition != nil {
		t.Fatalf("exec role survived --exec none: %+v", v)
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Setenv("DATABASE_URL", testenv.DatabaseURL(t))
	out, err := runCmd(t, "", "migrate", "up")
	if err != nil || !strings.Contains(out, "applied 0 migration(s)") {
		t.Fatalf("migrate up on a migrated database: %v\n%s", err, out)
	}
	out, err = runCmd(t, "", "migrate", "status")
	if err != nil || !strings.Contains(out, "00001  applied") || strings.Contains(out, "pending") {
		t.Fatalf("migrate status: %v\n%s", err, out)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	if _, err := runCmd(t, "", "serve"); err == nil || !strings.Contains(err.Error(), "DATABASE_URL is not set") {
		t.Fatalf("serve without DATABASE_URL: %v", err)
	}
	if _, err := runCmd(t, "", "bogus"); err == nil {
		t.Fatal("unknown command accepted")
	}
}

func TestDollarsToCents(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"20": 2000, "20.5": 2050, "20.00": 2000, "$1.07": 107, "0.99": 99} {
		if got, err := dollarsToCents(in); err != nil || got != want {
			t.Errorf("dollarsToCents(%q) = %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "1.234", "-1", "1e3", ".5"} {
		if _, err := dollarsToCents(in); err == nil {
			t.Errorf("dollarsToCents(%q) accepted", in)
		}
	}
}
