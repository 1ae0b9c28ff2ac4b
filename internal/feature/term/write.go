package term

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
)

// Create inserts the term of a (validated) create input; {active:true}
// makes it the active term in the same transaction. A name already taken
// is ErrExists. The caller starts the term's TermWindow workflow in the
// same transaction.
func Create(ctx context.Context, q *db.Queries, in *Input) (db.Term, error) {
	var t db.Term
	if err := in.Apply(&t); err != nil {
		return t, err
	}
	t, err := q.TermInsert(ctx, db.TermInsertParams{Name: t.Name, StartsOn: t.StartsOn, EndsOn: t.EndsOn,
		OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
		ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt})
	if err != nil {
		return t, written(err)
	}
	if in.activates() {
		return activate(ctx, q, t.ID)
	}
	return t, nil
}

// Update applies a (validated) patch input to term id (ErrMissing when
// there is none) and, with {active:true}, makes it the active term. It
// answers the term and whether its window times changed, which the caller
// signals to the term's TermWindow workflow in the same transaction.
func Update(ctx context.Context, q *db.Queries, id uuid.UUID, in *Input) (db.Term, bool, error) {
	t, err := q.TermLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return t, false, ErrMissing
	}
	if err != nil {
		return t, false, err
	}
	before := t
	if err := in.Apply(&t); err != nil {
		return t, false, err
	}
	changed := WindowsChanged(before, t)
	if t, err = q.TermUpdate(ctx, db.TermUpdateParams{ID: id, Name: t.Name, StartsOn: t.StartsOn, EndsOn: t.EndsOn,
		OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
		ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt}); err != nil {
		return t, changed, written(err)
	}
	if in.activates() {
		t, err = activate(ctx, q, id)
	}
	return t, changed, err
}

// activate moves the active flag to id.
func activate(ctx context.Context, q *db.Queries, id uuid.UUID) (db.Term, error) {
	if err := q.TermClearActive(ctx, id); err != nil {
		return db.Term{}, err
	}
	if err := q.TermSetActive(ctx, id); err != nil {
		return db.Term{}, err
	}
	return q.TermGet(ctx, id)
}

// written maps a term write's conflict: the name is unique.
func written(err error) error {
	if errors.Is(err, db.ErrConflict) {
		return ErrExists
	}
	return err
}
