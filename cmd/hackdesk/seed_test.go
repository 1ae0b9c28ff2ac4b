package main

import (
	"context"
	"strings"
	"testing"

	"hackdesk/db"
	"hackdesk/dev/testenv"
)

func TestSeedCommand(t *testing.T) {
	url := testenv.DatabaseURL(t)
	t.Setenv("DATABASE_URL", url)
	// The test cluster is not the dev cluster: refused without --force,
	// and nothing is written.
	out, err := runCmd(t, "", "seed", "--applications", "5", "--reviewers", "1", "--reviews", "5")
	if err == nil || !strings.Contains(err.Error(), "--force") || !strings.Contains(err.Error(), "not the dev cluster") {
		t.Fatalf("seed without --force on a non-dev database: %v\n%s", err, out)
	}
	out, err = runCmd(t, "", "seed", "--force", "--applications", "50", "--reviewers", "3", "--reviews", "60")
	if err != nil {
		t.Fatalf("seed: %v\n%s", err, out)
	}
	for _, want := range []string{"seeded 50 applications, 3 reviewers and 60 reviews in ", "reviewer0@seed.hackdesk.test with password hackdesk-seed", "reviews      60/60"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	store, err := db.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var apps, reviews int
	if err := store.Pool().QueryRow(context.Background(),
		`SELECT (SELECT count(*) FROM applications WHERE status = 'submitted'), (SELECT count(*) FROM reviews)`).Scan(&apps, &reviews); err != nil {
		t.Fatal(err)
	}
	if apps != 50 || reviews != 60 {
		t.Fatalf("%d submitted applications and %d reviews, want 50 and 60", apps, reviews)
	}

	for name, args := range map[string][]string{
		"ErrTooManyReviews": {"seed", "--force", "--applications", "5", "--reviewers", "2", "--reviews", "11"},
		"ErrBadFlag":        {"seed", "--force", "--applicants", "5"},
		"ErrExtraArgument":  {"seed", "--force", "now"},
	} {
		t.Run(name, func(t *testing.T) {
			if out, err := runCmd(t, "", args...); err == nil {
				t.Fatalf("%v succeeded: %s", args, out)
			}
		})
	}
}

// --demo makes accounts (a superadmin among them) with printed passwords,
// so it runs only on the dev cluster: a DATABASE_URL elsewhere is refused,
// --force or not, and nothing is written.
func TestSeedDemoRefused(t *testing.T) {
	url := testenv.DatabaseURL(t)
	t.Setenv("DATABASE_URL", url)
	for name, args := range map[string][]string{
		"ErrNotDevCluster": {"seed", "--demo"},
		"ErrForced":        {"seed", "--demo", "--force"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := runCmd(t, "", args...)
			if err == nil || !strings.Contains(err.Error(), "--demo") || !strings.Contains(err.Error(), "dev cluster") {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
		})
	}
	store, err := db.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var n int
	if err := store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM profiles WHERE email LIKE '%@demo.hackdesk.test'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("a refused --demo made %d accounts", n)
	}
}
