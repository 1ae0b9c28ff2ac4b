package hiring

import (
	"context"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
)

// TermChoice is a term the hiring pages offer (Selections, Hiring and the
// onboarding review): whether it is the hiring term or the active one, and
// what there is of it to see. Positions and selections are counted in the
// caller's scope, submissions of both exec forms over the whole term.
type TermChoice struct {
	ID         uuid.UUID `json:"id"`
	Name       string    `json:"name"`
	StartsOn   string    `json:"starts_on"`
	EndsOn     string    `json:"ends_on"`
	Active     bool      `json:"active"`
	Hiring     bool      `json:"hiring"`
	Positions  int       `json:"positions"`
	Selections int       `json:"selections"`
	Onboarding int       `json:"onboarding"`
	Returning  int       `json:"returning"`
}

// Busy reports whether the term has anything for the hiring pages:
// positions or exec form submissions.
func (c TermChoice) Busy() bool { return c.Positions > 0 || c.Onboarding > 0 || c.Returning > 0 }

// TermChoices are the terms the hiring pages offer, the hiring term (the
// one that starts last) first: every term that has positions or exec form
// submissions, and the hiring and active terms always. None without a
// term.
func TermChoices(ctx context.Context, q *db.Queries, scope Scope) ([]TermChoice, error) {
	var subteam *string
	if !scope.All {
		subteam = &scope.Subteam
	}
	rows, err := q.TermHiringChoices(ctx, subteam)
	if err != nil {
		return nil, err
	}
	out := []TermChoice{}
	for i, r := range rows {
		c := TermChoice{ID: r.ID, Name: r.Name, StartsOn: r.StartsOn.Format(term.DateLayout), EndsOn: r.EndsOn.Format(term.DateLayout),
			Active: r.Active, Hiring: i == 0, Positions: int(r.Positions), Selections: int(r.Selections),
			Onboarding: int(r.Onboarding), Returning: int(r.Returning)}
		if c.Busy() || c.Active || c.Hiring {
			out = append(out, c)
		}
	}
	return out, nil
}
