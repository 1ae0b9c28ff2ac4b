package term_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/term"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func input(create bool, fields map[string]string) *term.Input {
	in := &term.Input{Create: create}
	for name, v := range fields {
		f := map[string]*struct {
			set *bool
			v   *string
		}{
			"name":                 {&in.Name.Set, &in.Name.V},
			"starts_on":            {&in.StartsOn.Set, &in.StartsOn.V},
			"ends_on":              {&in.EndsOn.Set, &in.EndsOn.V},
			"onboarding_opens_at":  {&in.OnboardingOpensAt.Set, &in.OnboardingOpensAt.V},
			"onboarding_closes_at": {&in.OnboardingClosesAt.Set, &in.OnboardingClosesAt.V},
		}[name]
		*f.set, *f.v = true, v
	}
	return in
}

func TestCreateUpdateAndActive(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	q := store.Queries
	if _, err := term.Active(ctx, q); !errors.Is(err, term.ErrNoActive) {
		t.Fatalf("no term yet: %v", err)
	}
	if _, err := term.Get(ctx, q, uuid.New()); !errors.Is(err, term.ErrMissing) {
		t.Fatalf("unknown term: %v", err)
	}
	create := func(in *term.Input) (db.Term, error) {
		var t db.Term
		err := store.InTx(ctx, func(q *db.Queries) (err error) {
			t, err = term.Create(ctx, q, in)
			return err
		})
		return t, err
	}
	first := input(true, map[string]string{"name": " 2025-2026 ", "starts_on": "2025-09-01", "ends_on": "2026-08-31"})
	first.Active.Set, first.Active.V = true, true
	a, err := create(first)
	if err != nil || a.Name != "2025-2026" || !a.Active {
		t.Fatalf("first: %+v %v", a, err)
	}
	if _, err := create(input(true, map[string]string{"name": "2025-2026", "starts_on": "2026-09-01", "ends_on": "2027-08-31"})); !errors.Is(err, term.ErrExists) {
		t.Fatalf("same name: %v", err)
	}
	if _, err := create(input(true, map[string]string{"name": "x", "starts_on": "2026-09-01", "ends_on": "2026-09-01"})); err == nil {
		t.Fatal("a term that ends as it starts was created")
	}
	b, err := create(input(true, map[string]string{"name": "2026-2027", "starts_on": "2026-09-01", "ends_on": "2027-08-31"}))
	if err != nil || b.Active {
		t.Fatalf("second: %+v %v", b, err)
	}

	update := func(id uuid.UUID, in *term.Input) (db.Term, bool, error) {
		var (
			t       db.Term
			changed bool
		)
		err := store.InTx(ctx, func(q *db.Queries) (err error) {
			t, changed, err = term.Update(ctx, q, id, in)
			return err
		})
		return t, changed, err
	}
	// A window change is reported; a rename is not.
	b, changed, err := update(b.ID, input(false, map[string]string{
		"onboarding_opens_at": "2026-09-01T09:00:00-04:00", "onboarding_closes_at": "2026-09-15T17:00:00Z"}))
	if err != nil || !changed || b.OnboardingOpensAt == nil || !b.OnboardingOpensAt.Equal(time.Date(2026, 9, 1, 13, 0, 0, 0, time.UTC)) {
		t.Fatalf("window: %+v %v %v", b, changed, err)
	}
	if b, changed, err = update(b.ID, input(false, map[string]string{"name": "Renamed"})); err != nil || changed || b.Name != "Renamed" {
		t.Fatalf("rename: %+v %v %v", b, changed, err)
	}
	if _, _, err := update(uuid.New(), input(false, nil)); !errors.Is(err, term.ErrMissing) {
		t.Fatalf("unknown: %v", err)
	}
	if _, _, err := update(b.ID, input(false, map[string]string{"name": "2025-2026"})); !errors.Is(err, term.ErrExists) {
		t.Fatalf("rename onto another: %v", err)
	}
	// Activating moves the flag.
	activate := input(false, nil)
	activate.Active.Set, activate.Active.V = true, true
	if b, _, err = update(b.ID, activate); err != nil || !b.Active {
		t.Fatalf("activate: %+v %v", b, err)
	}
	if act, err := term.Active(ctx, q); err != nil || act.ID != b.ID {
		t.Fatalf("active %+v %v", act, err)
	}
	if a, err = term.Get(ctx, q, a.ID); err != nil || a.Active {
		t.Fatalf("first still active: %+v %v", a, err)
	}
	if list, err := term.List(ctx, q); err != nil || len(list) != 2 || list[0].ID != b.ID {
		t.Fatalf("list %+v %v", list, err)
	}
}
