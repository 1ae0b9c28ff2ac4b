// Package term holds the club's terms: their dates, the two exec-form
// windows each may have (onboarding and returning), which term is active,
// and the rules a term's fields follow. The API's term routes and every
// feature that needs the active term read it here, so "no active term" is
// answered one way.
package term

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// The errors the API answers for terms.
var (
	// ErrNoActive is a 404: no term is active.
	ErrNoActive = apperr.New(apperr.NotFound, "No active term")
	// ErrMissing is a 404: the term asked for does not exist.
	ErrMissing = apperr.New(apperr.NotFound, "Term not found")
	// ErrExists is a 409: term names are unique.
	ErrExists = apperr.WithMessage(apperr.Conflict, "Term exists", "A term with this name exists already")
)

// DateLayout is how a term's start and end dates are written.
const DateLayout = "2006-01-02"

// View is a term as the API shows it.
type View struct {
	ID                 uuid.UUID  `json:"id"`
	Name               string     `json:"name"`
	StartsOn           string     `json:"starts_on"`
	EndsOn             string     `json:"ends_on"`
	OnboardingOpensAt  *time.Time `json:"onboarding_opens_at"`
	OnboardingClosesAt *time.Time `json:"onboarding_closes_at"`
	ReturningOpensAt   *time.Time `json:"returning_opens_at"`
	ReturningClosesAt  *time.Time `json:"returning_closes_at"`
	Active             bool       `json:"active"`
	CreatedAt          time.Time  `json:"created_at"`
	UpdatedAt          time.Time  `json:"updated_at"`
}

// ToView converts a term row to its View.
func ToView(t db.Term) View {
	return View{ID: t.ID, Name: t.Name, StartsOn: t.StartsOn.Format(DateLayout), EndsOn: t.EndsOn.Format(DateLayout),
		OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
		ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt,
		Active: t.Active, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

// Active is the active term, or ErrNoActive.
func Active(ctx context.Context, q *db.Queries) (db.Term, error) {
	t, err := q.TermActive(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return t, ErrNoActive
	}
	return t, err
}

// Get is the term id, or ErrMissing.
func Get(ctx context.Context, q *db.Queries, id uuid.UUID) (db.Term, error) {
	t, err := q.TermGet(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return t, ErrMissing
	}
	return t, err
}

// List is every term, latest start first (a club has a few a year, so
// the list is read whole and paged by the caller).
func List(ctx context.Context, q *db.Queries) ([]db.Term, error) {
	return q.TermList(ctx)
}
