package seed_test

import (
	"context"
	"testing"

	"hackdesk/db"
	"hackdesk/dev/seed"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/auth"
)

// demoAccount is what the database holds for one demo account.
type demoAccount struct {
	role, exec, subteam string
	confirmed           bool
	hash                string
}

func readDemoAccount(t *testing.T, store *db.Store, email string) demoAccount {
	t.Helper()
	var a demoAccount
	if err := store.Pool().QueryRow(context.Background(), `
		SELECT p.role, coalesce(e.position, ''), coalesce(e.subteam, ''), p.email_confirmed_at IS NOT NULL, p.password_hash
		FROM profiles p
		LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
		LEFT JOIN terms t ON t.id = e.term_id
		WHERE p.email = $1 AND (e.id IS NULL OR t.name = $2)`, email, seed.DemoTermName).
		Scan(&a.role, &a.exec, &a.subteam, &a.confirmed, &a.hash); err != nil {
		t.Fatalf("account %s: %v", email, err)
	}
	return a
}

func mustDemo(t *testing.T, store *db.Store) seed.DemoResult {
	t.Helper()
	res, err := seed.Demo(context.Background(), store)
	if err != nil {
		t.Fatalf("seed.Demo: %v", err)
	}
	return res
}

// checkPassword fails unless password opens the account.
func checkPassword(t *testing.T, a demoAccount, email, password string) {
	t.Helper()
	ok, err := auth.VerifyPassword(context.Background(), password, a.hash)
	if err != nil || !ok {
		t.Fatalf("%s: the printed password does not open the account (%v)", email, err)
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	pool := store.Pool()
	first := mustDemo(t, store)
	if !first.TermCreated || first.Term != seed.DemoTermName {
		t.Fatalf("first run: term %q created %v", first.Term, first.TermCreated)
	}
	want := map[string]demoAccount{
		"applicant@demo.hackdesk.test":  {role: "member"},
		"reviewer@demo.hackdesk.test":   {role: "admin"},
		"superadmin@demo.hackdesk.test": {role: "superadmin"},
		"vp@demo.hackdesk.test":         {role: "admin", exec: "VP", subteam: "Design"},
		"president@demo.hackdesk.test":  {role: "admin", exec: "President", subteam: "Board"},
		"exec@demo.hackdesk.test":       {role: "member", exec: "Exec", subteam: "Design"},
	}
	if len(first.Accounts) != len(want) {
		t.Fatalf("%d accounts, want %d", len(first.Accounts), len(want))
	}
	for _, acc := range first.Accounts {
		w, ok := want[acc.Email]
		if !ok || acc.Existed || len(acc.Password) < 16 {
			t.Fatalf("account %+v", acc)
		}
		got := readDemoAccount(t, store, acc.Email)
		if got.role != w.role || got.exec != w.exec || got.subteam != w.subteam || !got.confirmed {
			t.Errorf("%s: role %s, exec %q %q, confirmed %v; want %s, %q %q", acc.Email,
				got.role, got.exec, got.subteam, got.confirmed, w.role, w.exec, w.subteam)
		}
		checkPassword(t, got, acc.Email, acc.Password)
	}
	if n := count(t, pool, `SELECT count(*) FROM terms WHERE active AND name = $1`, seed.DemoTermName); n != 1 {
		t.Fatalf("the demo term is not the active term")
	}
	var positions string
	if err := pool.QueryRow(context.Background(), `SELECT string_agg(title || ':' || grants, ',' ORDER BY title)
		FROM positions p JOIN terms t ON t.id = p.term_id WHERE t.name = $1`, seed.DemoTermName).Scan(&positions); err != nil {
		t.Fatal(err)
	}
	if positions != "Exec Design:exec,President:president,VP Design:vp" {
		t.Fatalf("positions %s", positions)
	}
	if n := count(t, pool, `SELECT count(*) FROM questions q WHERE NOT EXISTS (
		SELECT 1 FROM position_questions pq WHERE pq.question_id = q.id)`); n != 1 {
		t.Errorf("%d general questions, want 1", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM position_questions pq JOIN positions p ON p.id = pq.position_id
		WHERE p.title = 'VP Design'`); n != 1 {
		t.Errorf("%d questions of VP Design, want 1", n)
	}

	t.Run("Again", func(t *testing.T) {
		again := mustDemo(t, store)
		if again.TermCreated {
			t.Fatal("a second run made another term")
		}
		for i, acc := range again.Accounts {
			if !acc.Existed || acc.Password == first.Accounts[i].Password {
				t.Fatalf("second run: %+v (first password %s)", acc, first.Accounts[i].Password)
			}
			checkPassword(t, readDemoAccount(t, store, acc.Email), acc.Email, acc.Password)
		}
		if n := count(t, pool, `SELECT count(*) FROM positions`); n != 3 {
			t.Errorf("%d positions after two runs, want 3", n)
		}
		if n := count(t, pool, `SELECT count(*) FROM exec_roles`); n != 3 {
			t.Errorf("%d exec roles after two runs, want 3 (none ended and remade)", n)
		}
	})
}

// TestDemoEditions: the demo makes last year's edition (closed, every
// application reviewed and decided, RSVPs answered) and this year's
// (current and open, returning applicants, drafts among them); the demo
// applicant applied last year only. A second run leaves them as they are.
func TestDemoEditions(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	pool := store.Pool()
	res := mustDemo(t, store)
	if !res.EditionsCreated {
		t.Fatal("the first run made no editions")
	}
	for q, want := range map[string]int{
		`SELECT count(*) FROM hackathons WHERE current AND name = '` + seed.DemoCurrentHackathon + `'
		   AND applications_open_at < now() AND applications_close_at > now()`: 1,
		`SELECT count(*) FROM hackathons WHERE NOT current AND name = '` + seed.DemoPastHackathon + `'
		   AND applications_close_at < now() AND ends_at < now()`: 1,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoPastHackathon + `' AND a.status = 'submitted' AND a.decision IS NOT NULL`: 13,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoPastHackathon + `' AND a.rsvp = 'attending'`: 4,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoPastHackathon + `' AND a.review_count = 2`: 13,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoCurrentHackathon + `' AND a.status = 'submitted'`: 5,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoCurrentHackathon + `' AND a.status = 'draft'`: 3,
		`SELECT count(*) FROM applications a JOIN profiles p ON p.id = a.profile_id
		   WHERE p.email = 'applicant@` + seed.DemoDomain + `'`: 1,
		`SELECT count(*) FROM reviewer_stats s JOIN hackathons h ON h.id = s.hackathon_id
		   WHERE h.name = '` + seed.DemoCurrentHackathon + `'`: 1,
		// The event day: some of last year's attendees were checked in;
		// this year three attend and one is waitlisted.
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoPastHackathon + `' AND a.checked_in_at IS NOT NULL`: 3,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoCurrentHackathon + `' AND a.rsvp = 'attending'`: 3,
		`SELECT count(*) FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		   WHERE h.name = '` + seed.DemoCurrentHackathon + `' AND a.decision = 'waitlist'`: 1,
	} {
		if got := count(t, pool, q); got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}
	if n := count(t, pool, `SELECT count(*) FROM reviewer_stats s FULL JOIN (
			SELECT hackathon_id, reviewer_id, count(*) AS n FROM reviews GROUP BY 1, 2) g USING (hackathon_id, reviewer_id)
		WHERE s.review_count IS DISTINCT FROM g.n`); n != 0 {
		t.Errorf("%d reviewer counters differ from the reviews", n)
	}
	if again := mustDemo(t, store); again.EditionsCreated {
		t.Fatal("a second run made the editions again")
	}
	if n := count(t, pool, `SELECT count(*) FROM applications`); n != 13+8 {
		t.Fatalf("%d applications after two runs, want 21", n)
	}
}
