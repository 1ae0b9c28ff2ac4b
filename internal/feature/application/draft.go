package application

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
)

// Errors of the applicant's own application, as the API answers them.
var (
	ErrNoApplication    = apperr.WithMessage(apperr.NotFound, "No application found", "Create an application first")
	ErrAlreadySubmitted = apperr.WithMessage(apperr.Conflict, "Application already submitted", "A submitted application cannot be changed")
	errNotOwnProfile    = apperr.WithMessage(apperr.Forbidden, "Forbidden", "profile_id must be your own")
	errAlreadyExists    = apperr.New(apperr.Conflict, "Application already exists")
	errNotOwnSource     = apperr.WithMessage(apperr.Forbidden, "Forbidden", "copy_from must name one of your own applications")
	errSourceIsCurrent  = apperr.WithMessage(apperr.Conflict, "Cannot copy from the current hackathon",
		"copy_from names your application of the current hackathon; copy from an earlier one")
)

// CreateRequest starts an application for a profile in the current
// edition, blank or copied from one of the caller's earlier applications.
type CreateRequest struct {
	ProfileID string  `json:"profile_id"`
	CopyFrom  *string `json:"copy_from"`

	copyFrom uuid.UUID // CopyFrom parsed by Validate
}

// Validate checks that profile_id and copy_from (when set) are UUIDs.
func (r *CreateRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ProfileID); err != nil {
		f.Add("profile_id", "must be a UUID")
	}
	if r.CopyFrom != nil {
		id, err := uuid.Parse(*r.CopyFrom)
		if err != nil {
			f.Add("copy_from", "must be a UUID")
		}
		r.copyFrom = id
	}
	return f
}

// ObjectCopier copies a stored object to a new key (storage.Store): a
// résumé copied from an earlier application gets an object of its own.
type ObjectCopier interface {
	Copy(ctx context.Context, src, dst string) error
}

// Create starts the caller's draft (me, whose account email is email) in
// the current edition. Outside its window that is the 403 "Applications
// are closed", before anything else. profile_id must be the caller's own
// (403). Blank, the draft is prefilled with their email; with copy_from it
// copies that application's contact, about-you, demographic, education,
// experience and link fields and its résumé, whose object is copied to a
// key of its own (ResumeKeyFor) through blob; never its answers, team,
// positions or agreements. copy_from must name one of the caller's own
// applications (403 otherwise, an unknown id included), of an earlier
// edition (409 for the current one's). A second application in the
// edition is 409. req has passed Validate.
func Create(ctx context.Context, q *db.Queries, blob ObjectCopier, me uuid.UUID, email string, req CreateRequest) (View, error) {
	h, err := hackathon.OpenForWrites(ctx, q)
	if err != nil {
		return View{}, err
	}
	if id, err := uuid.Parse(req.ProfileID); err != nil || id != me {
		return View{}, errNotOwnProfile
	}
	var src *db.Application
	if req.CopyFrom != nil {
		s, err := q.ApplicationGet(ctx, req.copyFrom)
		switch {
		case errors.Is(err, db.ErrNotFound), err == nil && s.ProfileID != me:
			return View{}, errNotOwnSource
		case err != nil:
			return View{}, err
		case s.HackathonID == h.ID:
			return View{}, errSourceIsCurrent
		}
		src = &s
	}
	var a db.Application
	if src == nil {
		a, err = q.ApplicationInsert(ctx, db.ApplicationInsertParams{ProfileID: me, HackathonID: &h.ID, Email: &email})
	} else {
		a, err = q.ApplicationInsertCopy(ctx, db.ApplicationInsertCopyParams{HackathonID: h.ID, SourceID: src.ID})
	}
	if errors.Is(err, db.ErrConflict) {
		return View{}, errAlreadyExists
	}
	if err != nil {
		return View{}, err
	}
	if src != nil && src.ResumeKey != nil {
		if a, err = copyResume(ctx, q, blob, a, *src); err != nil {
			return View{}, err
		}
	}
	return ToView(a), nil
}

// CheckDraft checks, without a lock, that the application window is open
// and that the profile has an application in the current edition it may
// still change: ErrNoApplication without one, ErrAlreadySubmitted once
// submitted. An upload checks it before reading its body.
func CheckDraft(ctx context.Context, q *db.Queries, profileID uuid.UUID) error {
	h, err := hackathon.OpenForWrites(ctx, q)
	if err != nil {
		return err
	}
	a, err := q.ApplicationGetIn(ctx, db.ApplicationGetInParams{ProfileID: profileID, HackathonID: h.ID})
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

// lockDraft checks the application window (the 403 "Applications are
// closed" before anything else) and loads the profile's application of
// the current edition for change: ErrNoApplication without one,
// ErrAlreadySubmitted once submitted.
func lockDraft(ctx context.Context, q *db.Queries, profileID uuid.UUID) (db.Application, error) {
	h, err := hackathon.OpenForWrites(ctx, q)
	if err != nil {
		return db.Application{}, err
	}
	a, err := q.ApplicationLockIn(ctx, db.ApplicationLockInParams{ProfileID: profileID, HackathonID: h.ID})
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
	row, err := q.ApplicationGet(ctx, a.ID)
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
