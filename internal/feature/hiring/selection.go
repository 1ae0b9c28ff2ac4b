package hiring

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
)

// The emails a status change sends the applicant.
const (
	OfferKind     = "hiring_offer"
	RejectionKind = "hiring_rejection"
)

// StatusInput is the body of a status change.
type StatusInput struct {
	Status Status `json:"status"`
}

// Validate checks the status is a known one.
func (b *StatusInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	if !b.Status.Valid() {
		f.Add("status", "must be one of "+joinSet(Statuses()))
	}
	return f
}

// SelectionView is one selection after a status change.
type SelectionView struct {
	ID            uuid.UUID   `json:"id"`
	ApplicationID uuid.UUID   `json:"application_id"`
	Position      PositionRef `json:"position"`
	Status        string      `json:"status"`
	UpdatedAt     time.Time   `json:"updated_at"`
}

// ChangeStatus moves selection id to status to, checked in the order the
// API answers: scope (ErrSelectionMissing: a selection out of scope does
// not exist for the actor), conflict of interest (403, package coi: nobody
// moves their own selection, one whose application lists them as a team
// member, or one of someone their own application of that edition lists),
// role (ErrPresidentOnly), move (409 "Invalid status change"). The same
// status again changes nothing. A change is recorded in selection_events;
// an offer or a rejection records the applicant's email, whose ref the
// caller delivers once the transaction commits.
func ChangeStatus(ctx context.Context, q *db.Queries, actor Actor, id uuid.UUID, to Status) (SelectionView, []mail.Ref, error) {
	sel, err := q.SelectionLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return SelectionView{}, nil, ErrSelectionMissing
	}
	if err != nil {
		return SelectionView{}, nil, err
	}
	if !actor.Scope.Covers(sel.PositionSubteam) {
		return SelectionView{}, nil, ErrSelectionMissing
	}
	who, err := coi.ActorIn(ctx, q, actor.ProfileID, actor.Email, sel.HackathonID)
	if err != nil {
		return SelectionView{}, nil, err
	}
	k := coi.Of(who, coi.Application{ProfileID: sel.ProfileID, Email: sel.ApplicantEmail, TeamMembers: sel.TeamMembers})
	if k != coi.None {
		return SelectionView{}, nil, apperr.WithMessage(apperr.Forbidden, "Forbidden", k.Message("change the status of"))
	}
	from := Status(sel.Status)
	var me *MoveError
	switch err := CanMove(actor.Role, from, to); {
	case errors.Is(err, ErrRole):
		return SelectionView{}, nil, ErrPresidentOnly
	case errors.As(err, &me):
		return SelectionView{}, nil, moveErr(me)
	case err != nil:
		return SelectionView{}, nil, err
	}
	out := SelectionView{ID: sel.ID, ApplicationID: sel.ApplicationID, Status: sel.Status, UpdatedAt: sel.UpdatedAt,
		Position: PositionRef{ID: sel.PositionID, Title: sel.PositionTitle, Subteam: sel.PositionSubteam}}
	if from == to {
		return out, nil, nil
	}
	updated, err := q.SelectionSetStatus(ctx, db.SelectionSetStatusParams{ID: id, Status: string(to), UpdatedBy: &actor.ProfileID})
	if errors.Is(err, db.ErrConflict) {
		return out, nil, ErrOfferAccepted
	}
	if err != nil {
		return out, nil, err
	}
	out.Status, out.UpdatedAt = updated.Status, updated.UpdatedAt
	if err := q.SelectionEventInsert(ctx, db.SelectionEventInsertParams{SelectionID: id, ActorID: &actor.ProfileID,
		FromStatus: string(from), ToStatus: string(to)}); err != nil {
		return out, nil, err
	}
	if !to.Emails() {
		return out, nil, nil
	}
	kind := OfferKind
	if to == RejectionSent {
		kind = RejectionKind
	}
	ref, err := mail.RecordRef(ctx, q, StatusEmailKey(id, to), kind, sel.ApplicantEmail,
		map[string]string{"name": sel.ApplicantName, "position": sel.PositionTitle, "term": sel.TermName})
	if err != nil {
		return out, nil, err
	}
	return out, []mail.Ref{ref}, nil
}

// StatusEmailKey is the idempotency key of the email a selection's move to
// status sends: one per selection and status.
func StatusEmailKey(id uuid.UUID, status Status) string {
	return "selection:" + id.String() + ":" + string(status)
}

// BoardSelection is one selection on the President's board, with the
// statuses the caller may move it to (AllowedStatuses).
type BoardSelection struct {
	ID              uuid.UUID   `json:"id"`
	Position        PositionRef `json:"position"`
	Status          string      `json:"status"`
	AllowedStatuses []Status    `json:"allowed_statuses"`
	UpdatedAt       time.Time   `json:"updated_at"`
}

// BoardApplicant is one applicant of the term with their selections.
type BoardApplicant struct {
	ApplicationID uuid.UUID        `json:"application_id"`
	ProfileID     uuid.UUID        `json:"profile_id"`
	DisplayName   *string          `json:"display_name"`
	Email         string           `json:"email"`
	Selections    []BoardSelection `json:"selections"`
}

// Board is every applicant of a term (TermOf) with their selections, as a
// caller in role sees them.
func Board(ctx context.Context, q *db.Queries, role Role, termID string) ([]BoardApplicant, error) {
	t, err := TermOf(ctx, q, termID)
	if err != nil {
		return nil, err
	}
	rows, err := q.SelectionHiringList(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	out := []BoardApplicant{}
	for _, row := range rows {
		if n := len(out); n == 0 || out[n-1].ApplicationID != row.ApplicationID {
			out = append(out, BoardApplicant{ApplicationID: row.ApplicationID, ProfileID: row.ProfileID,
				DisplayName: row.DisplayName, Email: row.Email, Selections: []BoardSelection{}})
		}
		a := &out[len(out)-1]
		a.Selections = append(a.Selections, BoardSelection{ID: row.ID, Status: row.Status, UpdatedAt: row.UpdatedAt,
			AllowedStatuses: AllowedStatuses(role, Status(row.Status)),
			Position:        PositionRef{ID: row.PositionID, Title: row.PositionTitle, Subteam: row.PositionSubteam}})
	}
	return out, nil
}

// TeamPosition is the position a new exec was hired for.
type TeamPosition struct {
	ID      uuid.UUID `json:"id"`
	Title   string    `json:"title"`
	Subteam string    `json:"subteam"`
	Grants  string    `json:"grants"`
}

// NewExec is an accepted offer: a new exec once the term is finalized.
type NewExec struct {
	ProfileID   uuid.UUID    `json:"profile_id"`
	DisplayName *string      `json:"display_name"`
	Email       string       `json:"email"`
	Position    TeamPosition `json:"position"`
}

// Demoted is a previous exec whose role finalization ends.
type Demoted struct {
	ProfileID   uuid.UUID `json:"profile_id"`
	DisplayName *string   `json:"display_name"`
	Email       string    `json:"email"`
}

// TeamView is what a term's finalization does (or did).
type TeamView struct {
	TermID      uuid.UUID
	NewExecs    []NewExec
	Demoted     []Demoted
	FinalizedAt *time.Time // nil until the finalization has run
}

// Team is what finalizing a term (TermOf) does or did: the accepted offers
// and the previous execs whose roles end.
func Team(ctx context.Context, q *db.Queries, termID string) (TeamView, error) {
	t, err := TermOf(ctx, q, termID)
	if err != nil {
		return TeamView{}, err
	}
	hires, err := q.SelectionAccepted(ctx, t.ID)
	if err != nil {
		return TeamView{}, err
	}
	prev, err := q.SelectionPreviousExecs(ctx, t.ID)
	if err != nil {
		return TeamView{}, err
	}
	out := TeamView{TermID: t.ID, NewExecs: make([]NewExec, len(hires)), Demoted: make([]Demoted, len(prev))}
	if f, err := q.HiringFinalizationGet(ctx, t.ID); err == nil {
		out.FinalizedAt = f.FinalizedAt
	} else if !errors.Is(err, db.ErrNotFound) {
		return TeamView{}, err
	}
	for i, h := range hires {
		out.NewExecs[i] = NewExec{ProfileID: h.ProfileID, DisplayName: h.DisplayName, Email: h.Email,
			Position: TeamPosition{ID: h.PositionID, Title: h.PositionTitle, Subteam: h.PositionSubteam, Grants: h.Grants}}
	}
	for i, p := range prev {
		out.Demoted[i] = Demoted{ProfileID: p.ProfileID, DisplayName: p.DisplayName, Email: p.Email}
	}
	return out, nil
}
