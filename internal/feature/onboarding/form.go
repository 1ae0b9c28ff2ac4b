package onboarding

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// SubmissionView is an exec form submission as the API shows it.
type SubmissionView struct {
	ID              uuid.UUID `json:"id"`
	TermID          uuid.UUID `json:"term_id"`
	ProfileID       uuid.UUID `json:"profile_id"`
	Kind            string    `json:"kind"`
	DisplayName     string    `json:"display_name"`
	Email           string    `json:"email"`
	Role            string    `json:"role"`
	TermType        string    `json:"term_type"`
	HeadshotKey     *string   `json:"headshot_key"`
	HeadshotConsent bool      `json:"headshot_consent"`
	ChatHandle      string    `json:"chat_handle"`
	PhotoHandle     string    `json:"photo_handle"`
	DsCompetency    string    `json:"ds_competency"`
	SubmittedAt     time.Time `json:"submitted_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

func toSubmissionView(s db.ExecFormSubmission) SubmissionView {
	return SubmissionView{ID: s.ID, TermID: s.TermID, ProfileID: s.ProfileID, Kind: s.Kind,
		DisplayName: s.DisplayName, Email: s.Email, Role: s.Role, TermType: s.TermType,
		HeadshotKey: s.HeadshotKey, HeadshotConsent: s.HeadshotConsent, ChatHandle: s.ChatHandle,
		PhotoHandle: s.PhotoHandle, DsCompetency: s.DsCompetency, SubmittedAt: s.SubmittedAt, UpdatedAt: s.UpdatedAt}
}

// Form is what a request knows once the caller is let into a form: the
// term, its window at the database's now, and the role options.
type Form struct {
	Kind        Kind
	Term        db.Term
	Window      Window
	RoleOptions []string
}

// Open lets me into the kind's form of term t: a caller the form is not
// for is 403 Forbidden (before any window answer), a closed window 403
// "Form closed" saying when it opens or closed, judged at the database
// clock. q may be a transaction's queries (writes) or the store's (loads).
func Open(ctx context.Context, q *db.Queries, t db.Term, kind Kind, me uuid.UUID) (Form, error) {
	f := Form{Kind: kind, Term: t}
	w, err := access(ctx, q, t, kind, me)
	if err != nil {
		return f, err
	}
	f.Window = w
	if !f.Window.Open {
		return f, apperr.WithMessage(apperr.Forbidden, "Form closed", f.Window.Message)
	}
	positions, err := q.PositionList(ctx, db.PositionListParams{TermID: t.ID, IncludeClosed: true})
	if err != nil {
		return f, err
	}
	titles := make([]string, len(positions))
	for i, p := range positions {
		titles[i] = p.Title
	}
	f.RoleOptions = RoleOptions(titles)
	return f, nil
}

// Reads are the queries that judge whether a form is open to a caller: a
// transaction's or the store's queries, or the page guard's reads.
type Reads interface {
	TermGet(ctx context.Context, id uuid.UUID) (db.Term, error)
	TermHiring(ctx context.Context) (db.Term, error)
	TermOfActiveExecRole(ctx context.Context, profileID uuid.UUID) (db.Term, error)
	TermPrevious(ctx context.Context, id uuid.UUID) (db.Term, error)
	ExecRoleHeldInTerm(ctx context.Context, arg db.ExecRoleHeldInTermParams) (bool, error)
	DBNow(ctx context.Context) (time.Time, error)
}

// access judges me against the kind's form of term t: a caller the form
// is not for is 403 Forbidden, anyone else gets the window at the
// database's now (open or not).
func access(ctx context.Context, q Reads, t db.Term, kind Kind, me uuid.UUID) (Window, error) {
	var inTerm, inPrev bool
	var err error
	if kind == Onboarding {
		if inTerm, err = q.ExecRoleHeldInTerm(ctx, db.ExecRoleHeldInTermParams{ProfileID: me, TermID: &t.ID}); err != nil {
			return Window{}, err
		}
	} else {
		prev, err := q.TermPrevious(ctx, t.ID)
		switch {
		case errors.Is(err, db.ErrNotFound):
		case err != nil:
			return Window{}, err
		default:
			if inPrev, err = q.ExecRoleHeldInTerm(ctx, db.ExecRoleHeldInTermParams{ProfileID: me, TermID: &prev.ID, IncludeEnded: true}); err != nil {
				return Window{}, err
			}
		}
	}
	if !Eligible(kind, inTerm, inPrev) {
		if kind == Returning {
			return Window{}, apperr.WithMessage(apperr.Forbidden, "Forbidden", "The returning-exec form is for execs of the term before "+t.Name)
		}
		return Window{}, apperr.WithMessage(apperr.Forbidden, "Forbidden", "The onboarding form is for execs of "+t.Name)
	}
	now, err := q.DBNow(ctx)
	if err != nil {
		return Window{}, err
	}
	opens, closes := DatesOf(t).Of(kind)
	return WindowAt(kind, t.Name, opens, closes, now), nil
}

// OwnTerm is the term a caller's form of the kind is about when the
// request names none: for the onboarding form the term of the caller's
// active exec role (the form is for the holders of a role of its term,
// and a person holds one active role), so the President of the active
// term is not sent to the term being hired for; ok is false for the
// returning form and for a caller without an exec role of a term, whose
// default is the hiring term.
func OwnTerm(ctx context.Context, q Reads, kind Kind, me uuid.UUID) (t db.Term, ok bool, err error) {
	if kind != Onboarding {
		return t, false, nil
	}
	t, err = q.TermOfActiveExecRole(ctx, me)
	if errors.Is(err, db.ErrNotFound) {
		return t, false, nil
	}
	return t, err == nil, err
}

// TermsFor are the terms whose kind's form is for me, latest start first:
// for onboarding the term of their active exec role, for returning each
// term that follows one they held an exec role of.
func TermsFor(ctx context.Context, q *db.Queries, kind Kind, me uuid.UUID) ([]db.Term, error) {
	if kind == Returning {
		return q.TermReturningFor(ctx, me)
	}
	t, ok, err := OwnTerm(ctx, q, kind, me)
	if err != nil || !ok {
		return []db.Term{}, err
	}
	return []db.Term{t}, nil
}

// OwnRole is the role option the form starts from for me in term t: the
// title of the position they accepted an offer of in the term, else the
// exec position they hold in it (President, VP or Exec); nil when neither
// is one of the options.
func OwnRole(ctx context.Context, q *db.Queries, t db.Term, me uuid.UUID, options []string) (*string, error) {
	var candidates []string
	title, err := q.SelectionAcceptedTitle(ctx, db.SelectionAcceptedTitleParams{TermID: t.ID, ProfileID: me})
	switch {
	case err == nil:
		candidates = append(candidates, title)
	case !errors.Is(err, db.ErrNotFound):
		return nil, err
	}
	v, err := q.ProfileView(ctx, me)
	if err != nil {
		return nil, err
	}
	if v.ExecPosition != nil && v.ExecTermID != nil && *v.ExecTermID == t.ID {
		candidates = append(candidates, *v.ExecPosition)
	}
	for _, c := range candidates {
		if contains(options, c) {
			return &c, nil
		}
	}
	return nil, nil
}

// ClosedTerm tells whether the kind's form page should send me away
// instead of showing the form: the term whose window is closed to me when
// the form is for me and closed (the page names it to the home page, which
// asks the API for the window's words: the 403 "Form closed"), uuid.Nil
// otherwise. The term is termID when set, else the caller's own (OwnTerm)
// or the hiring term. A caller the form is not for, a term that is not
// there and a termID that is not a UUID all get uuid.Nil and the page,
// which tells them why from the API's answer.
func ClosedTerm(ctx context.Context, q Reads, termID string, kind Kind, me uuid.UUID) (uuid.UUID, error) {
	var t db.Term
	var err error
	if termID != "" {
		id, perr := uuid.Parse(termID)
		if perr != nil {
			return uuid.Nil, nil
		}
		t, err = q.TermGet(ctx, id)
	} else {
		var own bool
		if t, own, err = OwnTerm(ctx, q, kind, me); err == nil && !own {
			t, err = q.TermHiring(ctx)
		}
	}
	if errors.Is(err, db.ErrNotFound) {
		return uuid.Nil, nil
	}
	if err != nil {
		return uuid.Nil, err
	}
	w, err := access(ctx, q, t, kind, me)
	if e, ok := apperr.As(err); ok && e.Code == apperr.Forbidden {
		return uuid.Nil, nil
	}
	if err != nil {
		return uuid.Nil, err
	}
	if w.Open {
		return uuid.Nil, nil
	}
	return t.ID, nil
}

// Get opens the form for me and loads my submission (nil before the first).
func Get(ctx context.Context, q *db.Queries, t db.Term, kind Kind, me uuid.UUID) (Form, *SubmissionView, error) {
	f, err := Open(ctx, q, t, kind, me)
	if err != nil {
		return f, nil, err
	}
	row, err := q.ExecFormSubmissionGet(ctx, db.ExecFormSubmissionGetParams{TermID: t.ID, ProfileID: me, Kind: string(kind)})
	switch {
	case errors.Is(err, db.ErrNotFound):
		return f, nil, nil
	case err != nil:
		return f, nil, err
	}
	v := toSubmissionView(row)
	return f, &v, nil
}

// Answers are a submission's fields as sent (Submit trims them). The
// headshot fields change the stored ones only when set.
type Answers struct {
	DisplayName  string
	Email        string
	Role         string
	TermType     string
	ChatHandle   string
	PhotoHandle  string
	DsCompetency string
	// SetHeadshotKey replaces the stored key with HeadshotKey (nil removes
	// the headshot); unset, the stored key stays.
	SetHeadshotKey bool
	HeadshotKey    *string
	// SetHeadshotConsent replaces the stored consent with HeadshotConsent.
	SetHeadshotConsent bool
	HeadshotConsent    bool
}

// Saved is a stored submission: Created on the first one. Dropped is the
// headshot object the form pointed at and no longer does, for the caller
// to have cleaned up once the transaction commits.
type Saved struct {
	Submission SubmissionView
	Created    bool
	Dropped    *string
}

// Submit stores me's submission of the kind's form of term t: the first
// creates it, a later one updates it. The form must be open to me (Open);
// the fields are then validated (422 with the reason per field), and a new
// headshot key must name an object that was uploaded, since a form pointing
// at nothing would have nothing to export.
func Submit(ctx context.Context, q *db.Queries, objs Objects, t db.Term, kind Kind, me uuid.UUID, a Answers) (Saved, error) {
	f, err := Open(ctx, q, t, kind, me)
	if err != nil {
		return Saved{}, err
	}
	sub := Submission{DisplayName: strings.TrimSpace(a.DisplayName), Email: strings.TrimSpace(a.Email),
		Role: strings.TrimSpace(a.Role), TermType: strings.TrimSpace(a.TermType), ChatHandle: strings.TrimSpace(a.ChatHandle),
		PhotoHandle: strings.TrimSpace(a.PhotoHandle), DsCompetency: strings.TrimSpace(a.DsCompetency)}
	old, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: t.ID, ProfileID: me, Kind: string(kind)})
	switch {
	case errors.Is(err, db.ErrNotFound):
	case err != nil:
		return Saved{}, err
	default:
		sub.HeadshotKey, sub.HeadshotConsent = old.HeadshotKey, old.HeadshotConsent
	}
	if a.SetHeadshotKey {
		sub.HeadshotKey = a.HeadshotKey
	}
	if a.SetHeadshotConsent {
		sub.HeadshotConsent = a.HeadshotConsent
	}
	if fields := Validate(sub, f.RoleOptions, HeadshotKeys(t.ID, kind, me)); len(fields) > 0 {
		return Saved{}, apperr.ValidationFailed(fields)
	}
	if k := sub.HeadshotKey; k != nil && (old.HeadshotKey == nil || *old.HeadshotKey != *k) {
		ok, err := objs.Exists(ctx, *k)
		if err != nil {
			return Saved{}, err
		}
		if !ok {
			return Saved{}, apperr.ValidationFailed(apperr.Fields{"headshot_key": "no headshot was uploaded under this key; upload it first"})
		}
	}
	out, err := q.ExecFormSubmissionUpsert(ctx, db.ExecFormSubmissionUpsertParams{TermID: t.ID, ProfileID: me,
		Kind: string(kind), DisplayName: sub.DisplayName, Email: sub.Email, Role: sub.Role, TermType: sub.TermType,
		HeadshotKey: sub.HeadshotKey, HeadshotConsent: sub.HeadshotConsent, ChatHandle: sub.ChatHandle,
		PhotoHandle: sub.PhotoHandle, DsCompetency: sub.DsCompetency})
	if err != nil {
		return Saved{}, err
	}
	return Saved{Created: out.Created, Dropped: Dropped(old.HeadshotKey, sub.HeadshotKey),
		Submission: toSubmissionView(db.ExecFormSubmission{ID: out.ID, TermID: out.TermID,
			ProfileID: out.ProfileID, Kind: out.Kind, DisplayName: out.DisplayName, Email: out.Email, Role: out.Role,
			TermType: out.TermType, HeadshotKey: out.HeadshotKey, HeadshotConsent: out.HeadshotConsent,
			ChatHandle: out.ChatHandle, PhotoHandle: out.PhotoHandle, DsCompetency: out.DsCompetency,
			SubmittedAt: out.SubmittedAt, UpdatedAt: out.UpdatedAt})}, nil
}

// Dropped is the headshot key a form no longer points at after a change
// from old to now (replaced by another, or removed), or nil.
func Dropped(old, now *string) *string {
	if old == nil || (now != nil && *now == *old) {
		return nil
	}
	return old
}
