package activities_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
)

// TestTermActivities runs the TermWindow activities on PostgreSQL: who is
// announced and reminded for each form, that a repeat records nothing new,
// and the close record.
func TestTermActivities(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := store.Pool().Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	term := func(name, starts string) uuid.UUID {
		t.Helper()
		var id uuid.UUID
		if err := store.Pool().QueryRow(ctx, `INSERT INTO terms (name, starts_on, ends_on) VALUES ($1, $2::date, $2::date + 300) RETURNING id`,
			name, starts).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	person := func(email string, termID *uuid.UUID, active bool) uuid.UUID {
		t.Helper()
		var id uuid.UUID
		if err := store.Pool().QueryRow(ctx, `INSERT INTO profiles (email, display_name, password_hash) VALUES ($1, $1, '$argon2id$x') RETURNING id`,
			email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if termID != nil {
			exec(`INSERT INTO exec_roles (profile_id, position, subteam, term_id, active) VALUES ($1, 'Exec', 'web', $2, $3)`, id, *termID, active)
		}
		return id
	}
	first := term("2024-2025", "2024-09-01")
	prev := term("2025-2026", "2025-09-01")
	cur := term("2026-2027", "2026-09-01")
	newExec := person("new@example.com", &cur, true)
	person("new2@example.com", &cur, true)
	person("gone@example.com", &cur, false) // an ended role of the term: not onboarded
	oldExec := person("old@example.com", &prev, false)
	person("older@example.com", &first, true)
	person("member@example.com", nil, false)

	a := &activities.TermActivities{Store: store}
	closes := time.Date(2026, 9, 20, 12, 0, 0, 0, time.UTC)
	in := activities.TermWindowEmailsInput{TermID: cur, Kind: "onboarding", ClosesAt: closes, PublicURL: "https://h.test"}
	// The references name emails by key; their addresses are in the record.
	tos := func(refs []activities.EmailRef) map[string]string {
		m := map[string]string{}
		for _, r := range refs {
			e, err := store.EmailGetByKey(ctx, r.Key)
			if err != nil {
				t.Fatalf("email %s: %v", r.Key, err)
			}
			m[e.ToAddress] = r.Key
		}
		return m
	}
	refs, err := a.RecordWindowAnnouncements(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got := tos(refs)
	if len(got) != 2 || got["new@example.com"] != "term-window:"+cur.String()+":onboarding:open:"+newExec.String() || got["new2@example.com"] == "" {
		t.Fatalf("onboarding announced to %v", got)
	}
	again, err := a.RecordWindowAnnouncements(ctx, in)
	if err != nil || len(again) != 2 {
		t.Fatalf("repeat: %v %v", again, err)
	}
	var n int
	if err := store.Pool().QueryRow(ctx, `SELECT count(*) FROM emails WHERE kind = 'exec_form_open'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d announcement rows after a repeat (%v)", n, err)
	}
	var body string
	if err := store.Pool().QueryRow(ctx, `SELECT text_body FROM emails WHERE to_address = 'new@example.com'`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	if want := "https://h.test/onboarding?term_id=" + cur.String(); !strings.Contains(body, want) || !strings.Contains(body, "2026-2027") {
		t.Errorf("body %q lacks %q", body, want)
	}

	// The returning form: the execs of the term before, ended roles included.
	rin := in
	rin.Kind = "returning"
	refs, err = a.RecordWindowAnnouncements(ctx, rin)
	if err != nil {
		t.Fatal(err)
	}
	if got := tos(refs); len(got) != 1 || got["old@example.com"] == "" {
		t.Fatalf("returning announced to %v", got)
	}
	// The first term has no term before it.
	refs, err = a.RecordWindowAnnouncements(ctx, activities.TermWindowEmailsInput{TermID: first, Kind: "returning", ClosesAt: closes})
	if err != nil || len(refs) != 0 {
		t.Fatalf("first term's returning form: %v %v", refs, err)
	}

	// Reminders go to those without a submission.
	submit := func(termID, profile uuid.UUID, kind string) {
		t.Helper()
		if _, err := store.ExecFormSubmissionUpsert(ctx, db.ExecFormSubmissionUpsertParams{TermID: termID, ProfileID: profile,
			Kind: kind, DisplayName: "X", Email: "x@example.com", Role: "Exec", TermType: "fall", DsCompetency: "none"}); err != nil {
			t.Fatal(err)
		}
	}
	submit(cur, newExec, "onboarding")
	submit(cur, oldExec, "returning")
	refs, err = a.RecordWindowReminders(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got := tos(refs); len(got) != 1 || got["new2@example.com"] == "" {
		t.Fatalf("reminded %v", got)
	}
	refs, err = a.RecordWindowReminders(ctx, rin)
	if err != nil || len(refs) != 0 {
		t.Fatalf("returning reminders %v %v", refs, err)
	}

	// The close, twice: one row, the count of submissions.
	for range 2 {
		count, err := a.RecordWindowClosed(ctx, activities.TermWindowCloseInput{TermID: cur, Kind: "onboarding", ClosesAt: closes})
		if err != nil || count != 1 {
			t.Fatalf("close: %d %v", count, err)
		}
	}
	row, err := store.TermWindowCloseGet(ctx, db.TermWindowCloseGetParams{TermID: cur, Kind: "onboarding"})
	if err != nil || !row.ClosesAt.Equal(closes) || row.Submitted != 1 {
		t.Fatalf("close row %+v %v", row, err)
	}
}

// TestTermWindowDates reads a term's dates as stored (what TermWindow
// follows after a signal), and a term that no longer exists is a
// non-retryable TermNotFound.
func TestTermWindowDates(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	opens := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	closes := opens.Add(14 * 24 * time.Hour)
	term, err := store.TermInsert(ctx, db.TermInsertParams{Name: "2026-2027", StartsOn: opens, EndsOn: closes.Add(300 * 24 * time.Hour),
		OnboardingOpensAt: &opens, OnboardingClosesAt: &closes})
	if err != nil {
		t.Fatal(err)
	}
	a := &activities.TermActivities{Store: store}
	got, err := a.TermWindowDates(ctx, term.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.OnboardingOpensAt == nil || !got.OnboardingOpensAt.Equal(opens) || got.OnboardingClosesAt == nil ||
		!got.OnboardingClosesAt.Equal(closes) || got.ReturningOpensAt != nil || got.ReturningClosesAt != nil {
		t.Fatalf("dates %+v", got)
	}
	if _, err := a.TermWindowDates(ctx, uuid.New()); errType(err) != activities.ErrTypeTermNotFound {
		t.Fatalf("missing term: %v, want %s", err, activities.ErrTypeTermNotFound)
	}
}
