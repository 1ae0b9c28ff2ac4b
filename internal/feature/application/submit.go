package application

import (
	"context"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
)

// RequiredForSubmit lists what steps 1 to 5 must hold before submission
// (docs/decisions.md). Demographics, dietary restrictions, links, team and
// the marketing opt-in are optional.
func RequiredForSubmit(a db.Application) apperr.Fields {
	f := apperr.Fields{}
	need := func(name string, ok bool, reason string) {
		if !ok {
			f.Add(name, reason)
		}
	}
	set := func(p *string) bool { return p != nil && *p != "" }
	need("email", set(a.Email), "is required")
	need("phone", set(a.Phone), "is required")
	need("discord", set(a.Discord), "is required")
	need("tshirt_size", set(a.TshirtSize), "is required")
	need("age", a.Age != nil, "is required")
	need("country", set(a.Country), "is required")
	need("university", set(a.University), "is required")
	need("program", set(a.Program), "is required")
	need("year_of_study", set(a.YearOfStudy), "is required")
	need("experience_level", set(a.ExperienceLevel), "is required")
	need("hackathons_attended", a.HackathonsAttended != nil, "is required")
	need("resume", set(a.ResumeKey), "upload a resume")
	need("q1_answer", set(a.Q1Answer), "is required")
	need("q2_answer", set(a.Q2Answer), "is required")
	need("coc_agreed", a.CocAgreed, "you must agree to the code of conduct")
	need("info_share_authorized", a.InfoShareAuthorized, "you must authorize information sharing")
	return f
}

// Submit checks steps 1 to 5 of the profile's draft and submits it: the
// required fields and required answers (a 400 naming each missing one),
// the team still confirmed accounts and the positions still open. Answers
// to questions that no longer apply are dropped first. The marketing
// opt-in is copied to the profile, and each chosen position becomes a
// selection in review. It answers the submitted application.
func Submit(ctx context.Context, q *db.Queries, me uuid.UUID) (View, error) {
	a, err := lockDraft(ctx, q, me)
	if err != nil {
		return View{}, err
	}
	if err := q.AnswersDropInapplicable(ctx, db.AnswersDropInapplicableParams{
		ApplicationID: a.ID, PositionIds: hiring.PositionsOf(a)}); err != nil {
		return View{}, err
	}
	missing := RequiredForSubmit(a)
	more, err := hiring.MissingAnswers(ctx, q, a)
	if err != nil {
		return View{}, err
	}
	for k, v := range more {
		missing[k] = v
	}
	if err := missing.Err(); err != nil {
		return View{}, err
	}
	if _, err := resolveTeam(ctx, q, a.TeamMembers, me); err != nil {
		return View{}, err
	}
	if err := checkPositions(ctx, q, a.PositionIds); err != nil {
		return View{}, err
	}
	row, err := q.ApplicationSubmit(ctx, a.ID)
	if err != nil {
		return View{}, err
	}
	// The opt-in decides who marketing broadcasts reach; an unsubscribe
	// clears it later.
	if err := q.ProfileSetMarketingOptIn(ctx, db.ProfileSetMarketingOptInParams{
		ID: me, MarketingOptIn: row.MarketingOptIn}); err != nil {
		return View{}, err
	}
	if _, err = q.SelectionsCreateForApplication(ctx, db.SelectionsCreateForApplicationParams{
		ApplicationID: a.ID, PositionIds: a.PositionIds}); err != nil {
		return View{}, err
	}
	return WithAnswers(ctx, q, row)
}
