package hiring_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/seed"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/mail"
)

func TestFinalizationPlanPromoteDemoteWelcome(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	r, err := seed.SeedHiringRound(ctx, store, "fin", 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	president := newProfile(t, store, "pres@example.com")

	// Only the hiring term (the one that starts last) is finalized.
	start := func(termID uuid.UUID, link string) (db.HiringFinalization, error) {
		var f db.HiringFinalization
		err := store.InTx(ctx, func(q *db.Queries) (err error) {
			_, f, err = hiring.StartFinalization(ctx, q, president, hiring.FinalizeInput{TermID: termID.String(), AllHandsURL: link}, "wf-"+termID.String())
			return err
		})
		return f, err
	}
	if _, err := start(r.OldTerm, "https://cal.example.com/a"); !errors.Is(err, hiring.ErrNotHiringTerm) {
		t.Fatalf("old term: %v", err)
	}
	if _, err := start(uuid.New(), "https://cal.example.com/a"); !errors.Is(err, term.ErrMissing) {
		t.Fatalf("unknown term: %v", err)
	}
	f, err := start(r.NewTerm, " https://cal.example.com/a ")
	if err != nil || f.AllHandsUrl != "https://cal.example.com/a" || f.WorkflowID != "wf-"+r.NewTerm.String() {
		t.Fatalf("claim: %+v %v", f, err)
	}
	// A repeated request keeps the first link.
	if f, err := start(r.NewTerm, "https://cal.example.com/b"); err != nil || f.AllHandsUrl != "https://cal.example.com/a" {
		t.Fatalf("second claim: %+v %v", f, err)
	}

	plan, err := hiring.LoadPlan(ctx, store.Queries, hiring.PlanInput{TermID: r.NewTerm})
	if err != nil || plan.TermName != "fin new" || len(plan.Hires) != 3 || len(plan.Previous) != 2 {
		t.Fatalf("plan %+v %v", plan, err)
	}
	execs := map[string]string{}
	for _, h := range plan.Hires {
		execs[h.Email] = h.Exec
		if h.Name == "" || h.Position == "" {
			t.Errorf("hire %+v", h)
		}
	}
	if execs["fin.hire1@example.com"] != "President" || execs["fin.hire2@example.com"] != "VP" || execs["fin.hire3@example.com"] != "Exec" {
		t.Fatalf("exec roles %v", execs)
	}
	if _, err := hiring.LoadPlan(ctx, store.Queries, hiring.PlanInput{TermID: uuid.New()}); !errors.Is(err, term.ErrMissing) {
		t.Fatalf("plan of an unknown term: %v", err)
	}

	// Promote and demote, twice each: the second run changes nothing.
	for range 2 {
		var n int
		if err := store.InTx(ctx, func(q *db.Queries) (err error) {
			n, err = hiring.Promote(ctx, q, hiring.PromoteInput{TermID: r.NewTerm, Hires: plan.Hires})
			return err
		}); err != nil || n != 3 {
			t.Fatalf("promote: %d %v", n, err)
		}
		if err := store.InTx(ctx, func(q *db.Queries) error {
			return hiring.Demote(ctx, q, hiring.DemoteInput{TermID: r.NewTerm, ProfileIDs: plan.Previous})
		}); err != nil {
			t.Fatalf("demote: %v", err)
		}
	}
	roles := map[string]string{}
	rows, err := store.Pool().Query(ctx, `
		SELECT p.email, p.role || ':' || coalesce(string_agg(e.position || '@' || (e.term_id = $1)::text, ',' ORDER BY e.position), '')
		FROM profiles p LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
		WHERE p.email LIKE 'fin.%' GROUP BY p.email, p.role`, r.NewTerm)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var email, role string
		if err := rows.Scan(&email, &role); err != nil {
			t.Fatal(err)
		}
		roles[email] = role
	}
	rows.Close()
	want := map[string]string{
		"fin.hire1@example.com": "admin:President@true", "fin.hire2@example.com": "admin:VP@true",
		"fin.hire3@example.com": "admin:Exec@true",
		"fin.prev1@example.com": "superadmin:", // keeps their role, loses the exec role
		"fin.prev2@example.com": "member:",
	}
	for email, w := range want {
		if roles[email] != w {
			t.Errorf("%s: %q, want %q", email, roles[email], w)
		}
	}

	// Welcome emails: one per hire, the same refs on a retry.
	in := hiring.WelcomeInput{TermID: r.NewTerm, TermName: plan.TermName, Hires: plan.Hires,
		OnboardingURL: "https://hackdesk.test/onboarding", AllHandsURL: f.AllHandsUrl}
	var first []mail.Ref
	for i := range 2 {
		var refs []mail.Ref
		if err := store.InTx(ctx, func(q *db.Queries) (err error) {
			refs, err = hiring.Welcome(ctx, q, in)
			return err
		}); err != nil || len(refs) != 3 {
			t.Fatalf("welcome: %v %v", refs, err)
		}
		if i == 0 {
			first = refs
		} else if !slices.Equal(refs, first) {
			t.Fatalf("retry refs %v, want %v", refs, first)
		}
	}
	if first[0].Key != hiring.WelcomeKey(r.NewTerm, plan.Hires[0].ProfileID) || first[0].Kind != hiring.WelcomeKind {
		t.Fatalf("ref %+v", first[0])
	}
	var emails int
	if err := store.Pool().QueryRow(ctx, `SELECT count(*) FROM emails WHERE kind = 'exec_welcome'`).Scan(&emails); err != nil || emails != 3 {
		t.Fatalf("%d welcome emails recorded, %v", emails, err)
	}

	// The outcome is recorded once, and the team view shows it.
	for _, res := range []hiring.Result{{TermID: r.NewTerm, Promoted: 3, Demoted: 2, Welcomed: 3}, {TermID: r.NewTerm, Promoted: 9}} {
		if err := hiring.RecordResult(ctx, store.Queries, res); err != nil {
			t.Fatal(err)
		}
	}
	got, err := store.HiringFinalizationGet(ctx, r.NewTerm)
	if err != nil || got.FinalizedAt == nil || got.Promoted == nil || *got.Promoted != 3 || *got.Welcomed != 3 {
		t.Fatalf("recorded %+v %v", got, err)
	}
	team, err := hiring.Team(ctx, store.Queries, r.NewTerm.String())
	if err != nil || team.FinalizedAt == nil || len(team.NewExecs) != 3 {
		t.Fatalf("team %+v %v", team, err)
	}
}

func TestStartFinalizationNeedsAnAcceptedOffer(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	tm := newTerm(t, store, "2026-2027", "2026-09-01", "2027-08-31")
	err := store.InTx(ctx, func(q *db.Queries) error {
		_, _, err := hiring.StartFinalization(ctx, q, newProfile(t, store, "p@example.com"),
			hiring.FinalizeInput{TermID: tm.ID.String(), AllHandsURL: "https://cal.example.com/a"}, "wf")
		return err
	})
	if !errors.Is(err, hiring.ErrNothingToFinalize) {
		t.Fatalf("no accepted offer: %v", err)
	}
	if _, err := store.HiringFinalizationGet(ctx, tm.ID); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("a refused finalization was claimed: %v", err)
	}
}
