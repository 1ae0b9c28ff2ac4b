package application

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
)

// Errors of the applicant's own application, as the API answers them.
var (
	ErrNoApplication    = apperr.WithMessage(apperr.NotFound, "No application found", "Create an application first")
	ErrAlreadySubmitted = apperr.WithMessage(apperr.Conflict, "Application already submitted", "A submitted application cannot be changed")
	errNotOwnProfile    = apperr.WithMessage(apperr.Forbidden, "Forbidden", "profile_id must be your own")
	errAlreadyExists    = apperr.New(apperr.Conflict, "Application already exists")
)

// CreateRequest starts an application for a profile.
type CreateRequest struct {
	ProfileID string `json:"profile_id"`
}

// Validate checks that profile_id is a UUID.
func (r *CreateRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ProfileID); err != nil {
		f.Add("profile_id", "must be a UUID")
	}
	return f
}

// Create starts the caller's draft (me, whose account email is email),
// prefilled with their email. profile_id must be the caller's own (403);
// a second application is 409. req has passed Validate.
func Create(ctx context.Context, q *db.Queries, me uuid.UUID, email string, req CreateRequest) (View, error) {
	if id, err := uuid.Parse(req.ProfileID); err != nil || id != me {
		return View{}, errNotOwnProfile
	}
	a, err := q.ApplicationInsert(ctx, db.ApplicationInsertParams{ProfileID: me, Email: &email})
	if errors.Is(err, db.ErrConflict) {
		return View{}, errAlreadyExists
	}
	if err != nil {
		return View{}, err
	}
	return ToView(a), nil
}

// CheckDraft checks, without a lock, that the profile has an application
// it may still change: ErrNoApplication without one, ErrAlreadySubmitted
// once submitted. An upload checks it before reading its body.
func CheckDraft(ctx context.Context, q *db.Queries, profileID uuid.UUID) error {
	a, err := q.ApplicationGetByProfile(ctx, profileID)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ErrNoApplication
	case err != nil:
		return err
	case Status(a.Status) != StatusDraft:
		return ErrAlreadySubmitted
	}
	return nil
}

// Submitted reports whether the profile has an application and it is
// submitted; no application is false.
func Submitted(ctx context.Context, q db.Querier, profileID uuid.UUID) (bool, error) {
	a, err := q.ApplicationGetByProfile(ctx, profileID)
	if errors.Is(err, db.ErrNotFound) {
		return false, nil
	}
	return err == nil && Status(a.Status) == StatusSubmitted, err
}

// lockDraft loads the profile's application for change: ErrNoApplication
// without one, ErrAlreadySubmitted once submitted.
func lockDraft(ctx context.Context, q *db.Queries, profileID uuid.UUID) (db.Application, error) {
	a, err := q.ApplicationLockByProfile(ctx, profileID)
	if errors.Is(err, db.ErrNotFound) {
		return a, ErrNoApplication
	}
	if err != nil {
		return a, err
	}
	if Status(a.Status) != StatusDraft {
		return a, ErrAlreadySubmitted
	}
	return a, nil
}

// CheckTeam resolves team member emails (comma-separated, as stored) to
// the confirmed accounts found for them (never the applicant) and returns
// them comma-separated in the accounts' spelling. An email without a
// confirmed account, or the applicant's own, is a 400 on team_members.
func CheckTeam(team string, applicant uuid.UUID, confirmed []db.ProfilesConfirmedByEmailsRow) (string, error) {
	if team == "" {
		return "", nil
	}
	found := map[string]db.ProfilesConfirmedByEmailsRow{}
	for _, p := range confirmed {
		found[strings.ToLower(p.Email)] = p
	}
	members := strings.Split(team, ",")
	out := make([]string, len(members))
	for i, m := range members {
		p, ok := found[strings.ToLower(m)]
		switch {
		case !ok:
			return "", apperr.ValidationFailed(apperr.Fields{"team_members": m + " has no confirmed account"})
		case p.ID == applicant:
			return "", apperr.ValidationFailed(apperr.Fields{"team_members": "you cannot list yourself"})
		}
		out[i] = p.Email
	}
	return strings.Join(out, ","), nil
}

// resolveTeam looks the team's emails up as confirmed accounts and checks
// them (CheckTeam).
func resolveTeam(ctx context.Context, q *db.Queries, team string, applicant uuid.UUID) (string, error) {
	if team == "" {
		return "", nil
	}
	members := strings.Split(team, ",")
	lower := make([]string, len(members))
	for i, m := range members {
		lower[i] = strings.ToLower(m)
	}
	rows, err := q.ProfilesConfirmedByEmails(ctx, lower)
	if err != nil {
		return "", err
	}
	return CheckTeam(team, applicant, rows)
}

// checkPositions checks that the chosen positions exist, are open and
// belong to one term (a 400 on position_ids otherwise).
func checkPositions(ctx context.Context, q *db.Queries, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	rows, err := q.PositionsByIDs(ctx, ids)
	if err != nil {
		return err
	}
	found := map[uuid.UUID]db.Position{}
	for _, p := range rows {
		found[p.ID] = p
	}
	terms := map[uuid.UUID]bool{}
	for _, id := range ids {
		p, ok := found[id]
		switch {
		case !ok:
			return apperr.ValidationFailed(apperr.Fields{"position_ids": id.String() + " is not a position"})
		case !p.Open:
			return apperr.ValidationFailed(apperr.Fields{"position_ids": p.Title + " is closed"})
		}
		terms[p.TermID] = true
	}
	if len(terms) > 1 {
		return apperr.ValidationFailed(apperr.Fields{"position_ids": "positions must all be of one term"})
	}
	return nil
}

// Update applies a validated patch to the profile's draft: the form
// fields, the team (resolved to confirmed accounts), the positions (open,
// of one term) and the answers (checked against the questions of the
// positions as they stand after the patch; answers to questions of
// positions no longer chosen go). It answers the application as stored.
func Update(ctx context.Context, q *db.Queries, me uuid.UUID, p *Patch) (View, error) {
	a, err := lockDraft(ctx, q, me)
	if err != nil {
		return View{}, err
	}
	p.Apply(&a)
	if p.TeamMembers.Set {
		if a.TeamMembers, err = resolveTeam(ctx, q, a.TeamMembers, me); err != nil {
			return View{}, err
		}
	}
	if err := q.ApplicationUpdate(ctx, updateParams(a)); err != nil {
		return View{}, err
	}
	if p.PositionIDs.Set {
		ids := p.positionIDs
		if ids == nil {
			ids = []uuid.UUID{}
		}
		if err := checkPositions(ctx, q, ids); err != nil {
			return View{}, err
		}
		if err := q.ApplicationSetPositions(ctx, db.ApplicationSetPositionsParams{ID: a.ID, PositionIds: ids}); err != nil {
			return View{}, err
		}
		a.PositionIds = ids
	}
	if p.Answers.Set {
		if err := hiring.SaveAnswers(ctx, q, a, p.Answers.V); err != nil {
			return View{}, err
		}
	}
	if p.PositionIDs.Set {
		if err := q.AnswersDropInapplicable(ctx, db.AnswersDropInapplicableParams{
			ApplicationID: a.ID, PositionIds: a.PositionIds}); err != nil {
			return View{}, err
		}
	}
	row, err := q.ApplicationGetByProfile(ctx, me)
	if err != nil {
		return View{}, err
	}
	return WithAnswers(ctx, q, row)
}

func updateParams(a db.Application) db.ApplicationUpdateParams {
	return db.ApplicationUpdateParams{
		ID: a.ID, Email: a.Email, Phone: a.Phone, Discord: a.Discord, TshirtSize: a.TshirtSize,
		DietaryRestrictions: a.DietaryRestrictions, Age: a.Age, Country: a.Country, Gender: a.Gender,
		Ethnicity: a.Ethnicity, University: a.University, Program: a.Program, YearOfStudy: a.YearOfStudy,
		ExperienceLevel: a.ExperienceLevel, HackathonsAttended: a.HackathonsAttended,
		GithubUrl: a.GithubUrl, LinkedinUrl: a.LinkedinUrl, WebsiteUrl: a.WebsiteUrl,
		Q1Answer: a.Q1Answer, Q2Answer: a.Q2Answer, TeamMembers: a.TeamMembers,
		CocAgreed: a.CocAgreed, InfoShareAuthorized: a.InfoShareAuthorized, MarketingOptIn: a.MarketingOptIn,
	}
}
