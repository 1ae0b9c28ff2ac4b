package main

import (
	"context"
	"testing"
	"time"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
)

// TestUsersGrantTerm covers `users grant --exec ... --term`: the term by
// name or id, the Exec position, and the refusals.
func TestUsersGrantTerm(t *testing.T) {
	url := testenv.DatabaseURL(t)
	t.Setenv("DATABASE_URL", url)
	ctx := context.Background()
	store, err := db.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p, err := account.Create(ctx, store.Queries, "exec@example.com", "Exec", "vivid orchard tempo", "member")
	if err != nil {
		t.Fatal(err)
	}
	term, err := store.TermInsert(ctx, db.TermInsertParams{Name: "2026-2027",
		StartsOn: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), EndsOn: time.Date(2027, 8, 31, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"2026-2027", term.ID.String()} {
		if out, err := runCmd(t, "", "users", "grant", "--email", "exec@example.com", "--exec", "Exec", "--subteam", "Tech", "--term", ref); err != nil {
			t.Fatalf("grant --term %s: %v\n%s", ref, err, out)
		}
		v, err := store.ProfileView(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.ExecPosition == nil || *v.ExecPosition != "Exec" || v.ExecTermID == nil || *v.ExecTermID != term.ID {
			t.Fatalf("after grant --term %s: %+v", ref, v)
		}
	}
	for name, args := range map[string][]string{
		"UnknownTerm":     {"--exec", "President", "--term", "1999"},
		"TermWithoutExec": {"--role", "admin", "--term", "2026-2027"},
		"TermWithNone":    {"--exec", "none", "--term", "2026-2027"},
	} {
		t.Run(name, func(t *testing.T) {
			args = append([]string{"users", "grant", "--email", "exec@example.com"}, args...)
			if out, err := runCmd(t, "", args...); err == nil {
				t.Fatalf("%v succeeded: %s", args, out)
			}
		})
	}
}
