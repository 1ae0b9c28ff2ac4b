package privacy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
)

// An account's erasure. DELETE /api/me (RequestErasure) locks the account
// at once: its sessions end, signing in answers ErrScheduled, and the
// AccountErasure workflow waits out the grace period. "Keep my account"
// (Keep) cancels it until the erasure begins (Begin); then the steps below
// erase everything of the person and the profile stays as a tombstone.

// DefaultGrace is ERASURE_GRACE's default: a week to change one's mind.
const DefaultGrace = 7 * 24 * time.Hour

// DeletedName is how pages name a tombstone profile.
const DeletedName = "Deleted account"

// ErasedEmail is a tombstone profile's address (RFC 6761's .invalid never
// resolves), naming only the profile id.
func ErasedEmail(id uuid.UUID) string { return "erased-" + id.String() + "@" + mail.ErasedDomain }

// DeleteRequest is DELETE /api/me's body.
type DeleteRequest struct {
	Password string `json:"password"`
}

// Validate requires the password.
func (r *DeleteRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Password == "" {
		f.Add("password", "is required")
	}
	return f
}

// CheckPassword checks account id's password before its erasure:
// ErrWrongPassword when it is not the one (an argon2id hash is spent,
// auth.ErrBusy wrapped when no hashing slot frees up in time).
func CheckPassword(ctx context.Context, q *db.Queries, id uuid.UUID, password string) error {
	hash, err := q.ProfilePasswordHash(ctx, id)
	if err != nil {
		return err
	}
	ok, err := auth.VerifyPassword(ctx, password, hash)
	if err != nil {
		return fmt.Errorf("erasure: %w", err)
	}
	if !ok {
		return ErrWrongPassword
	}
	return nil
}

// Erasure is one erasure as the operator page lists it.
type Erasure struct {
	ProfileID   uuid.UUID
	RequestedAt time.Time
	EraseAt     time.Time
	ErasingAt   *time.Time
	ErasedAt    *time.Time
}

// Status is scheduled, erasing or erased.
func (e Erasure) Status() string {
	switch {
	case e.ErasedAt != nil:
		return StateErased
	case e.ErasingAt != nil:
		return StateErasing
	}
	return StateScheduled
}

// Erasures are the erasures scheduled or under way and those finished in
// the last 30 days (at most 100), the soonest first.
func Erasures(ctx context.Context, q *db.Queries) ([]Erasure, error) {
	rows, err := q.ProfileErasures(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Erasure, len(rows))
	for i, r := range rows {
		out[i] = Erasure{ProfileID: r.ID, RequestedAt: r.EraseRequestedAt, EraseAt: r.EraseAt, ErasingAt: r.ErasingAt, ErasedAt: r.ErasedAt}
	}
	return out, nil
}

// Errors of an erasure request, as the API answers them.
var (
	ErrWrongPassword = apperr.New(apperr.Forbidden, "Wrong password")
	// ErrLastSuperadmin and ErrHiringExec are 409 "Account cannot be
	// deleted" with the reason.
	ErrLastSuperadmin = apperr.WithMessage(apperr.Conflict, "Account cannot be deleted",
		"You are the last superadmin: make someone else a superadmin first.")
	ErrHiringExec = apperr.WithMessage(apperr.Conflict, "Account cannot be deleted",
		"You hold an exec role in the term being hired for: ask the President to end it first.")
)

// ErrErasing answers "Keep my account" once the erasure has begun.
var ErrErasing = apperr.WithMessage(apperr.Forbidden, account.ScheduledTitle,
	"This account is being deleted and can no longer be kept.")

// CheckErasable refuses the erasure of the last superadmin (another
// superadmin, not itself being erased, must remain) and of a holder of an
// exec role in the hiring term. Superadmins' rows are locked, as a
// demotion locks them, so two erasures at once cannot leave none.
func CheckErasable(ctx context.Context, q *db.Queries, id uuid.UUID, role string) error {
	if role == "superadmin" {
		n, err := q.ProfileSuperadminCount(ctx, id)
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrLastSuperadmin
		}
	}
	held, err := q.ExecRoleInHiringTerm(ctx, id)
	if err != nil {
		return err
	}
	if held {
		return ErrHiringExec
	}
	return nil
}

// Scheduled is an erasure request's outcome.
type Scheduled struct {
	EraseAt time.Time
	// New is false when the account was already scheduled (a second
	// request): nothing more is to be started.
	New bool
}

// RequestErasure locks account id for erasure grace from now, in the
// transaction behind q: the erasure is refused for the last superadmin and
// a hiring-term exec (CheckErasable), every session of the account ends,
// and the answer says when it will be erased. An account already scheduled
// keeps its date (New false). The password has been checked by the caller.
func RequestErasure(ctx context.Context, q *db.Queries, id uuid.UUID, grace time.Duration) (Scheduled, error) {
	p, err := q.ProfileLockForErasure(ctx, id)
	if err != nil {
		return Scheduled{}, err
	}
	if p.EraseAt != nil {
		return Scheduled{EraseAt: *p.EraseAt}, nil
	}
	if err := CheckErasable(ctx, q, id, p.Role); err != nil {
		return Scheduled{}, err
	}
	at, err := q.ProfileScheduleErasure(ctx, db.ProfileScheduleErasureParams{ID: id, GraceSeconds: grace.Seconds()})
	if err != nil {
		return Scheduled{}, err
	}
	if _, err := q.SessionRevokeAllForProfile(ctx, id); err != nil {
		return Scheduled{}, err
	}
	return Scheduled{EraseAt: at, New: true}, nil
}

// Keep cancels account id's erasure ("Keep my account"), in the
// transaction behind q, and reports whether one was cancelled: false when
// none was scheduled. ErrErasing once it has begun.
func Keep(ctx context.Context, q *db.Queries, id uuid.UUID) (bool, error) {
	p, err := q.ProfileLockForErasure(ctx, id)
	if err != nil {
		return false, err
	}
	switch {
	case p.EraseAt == nil:
		return false, nil
	case p.ErasingAt != nil:
		return false, ErrErasing
	}
	n, err := q.ProfileCancelErasure(ctx, id)
	return n == 1, err
}

// The states of an account's erasure, as the workflow reads them.
const (
	StateNone      = "none"      // not scheduled (kept, or never asked)
	StateScheduled = "scheduled" // waiting out the grace period
	StateDue       = "due"       // the grace period is over
	StateErasing   = "erasing"   // the steps are under way
	StateErased    = "erased"    // a tombstone
)

// State is where an account's erasure stands.
type State struct {
	State   string
	EraseAt time.Time // set from scheduled on
}

// StateOf reads account id's erasure state by the database's clock.
func StateOf(ctx context.Context, q *db.Queries, id uuid.UUID) (State, error) {
	r, err := q.ProfileErasureState(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return State{State: StateNone}, nil
	}
	if err != nil {
		return State{}, err
	}
	return stateOf(r.EraseAt, r.ErasingAt, r.ErasedAt, r.DbNow), nil
}

func stateOf(eraseAt, erasingAt, erasedAt *time.Time, now time.Time) State {
	switch {
	case erasedAt != nil:
		return State{State: StateErased, EraseAt: *eraseAt}
	case erasingAt != nil:
		return State{State: StateErasing, EraseAt: *eraseAt}
	case eraseAt == nil:
		return State{State: StateNone}
	case now.Before(*eraseAt):
		return State{State: StateScheduled, EraseAt: *eraseAt}
	}
	return State{State: StateDue, EraseAt: *eraseAt}
}

// Begun is Begin's outcome.
type Begun struct {
	// State is the account's state after the call: erasing (begun now or
	// before), none (kept meanwhile), scheduled (not due yet), erased.
	State string
	// Refused is set (and the erasure cancelled) when the account may not
	// be erased any more: it became the last superadmin or a hiring-term
	// exec during the grace period.
	Refused string
	// Email is the person's address, which the later steps erase by; it
	// travels in the workflow's (encrypted) history only.
	Email string
}

// Begin starts the erasure of account id when its grace period is over, in
// the transaction behind q: the account can no longer be kept, and no
// email is recorded for its address from now on (mail.Record). An account
// that became the last superadmin or a hiring-term exec meanwhile is not
// erased: its erasure is cancelled and Refused says why. Safe to repeat.
func Begin(ctx context.Context, q *db.Queries, id uuid.UUID) (Begun, error) {
	p, err := q.ProfileLockForErasure(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return Begun{State: StateNone}, nil
	}
	if err != nil {
		return Begun{}, err
	}
	st := stateOf(p.EraseAt, p.ErasingAt, p.ErasedAt, p.DbNow)
	switch st.State {
	case StateNone, StateScheduled, StateErased:
		return Begun{State: st.State}, nil
	case StateDue:
		if err := CheckErasable(ctx, q, id, p.Role); err != nil {
			var ae *apperr.Error
			if !errors.As(err, &ae) {
				return Begun{}, err
			}
			if _, err := q.ProfileCancelErasure(ctx, id); err != nil {
				return Begun{}, err
			}
			return Begun{State: StateNone, Refused: ae.Message}, nil
		}
		if err := q.ProfileBeginErasure(ctx, id); err != nil {
			return Begun{}, err
		}
	}
	return Begun{State: StateErasing, Email: p.Email}, nil
}

// Subject names the person an erasure step acts on: the profile and the
// address they had (Begin's).
type Subject struct {
	ProfileID uuid.UUID
	Email     string
}

// ErasureObjects lists the files of person s to delete: every object under
// their résumé prefix ("<profile id>/", so replaced résumés not yet
// cleaned up go too), every résumé key their applications hold, and their
// onboarding headshots.
func ErasureObjects(ctx context.Context, q *db.Queries, objs Objects, s Subject) ([]string, error) {
	keys, err := objs.List(ctx, s.ProfileID.String()+"/")
	if err != nil {
		return nil, err
	}
	resumes, err := q.ApplicationResumeKeysByProfile(ctx, s.ProfileID)
	if err != nil {
		return nil, err
	}
	for _, r := range resumes {
		keys = append(keys, r.ResumeKey)
	}
	subs, err := q.ExecFormSubmissionKeysByProfile(ctx, s.ProfileID)
	if err != nil {
		return nil, err
	}
	for _, sub := range subs {
		if sub.HeadshotKey != nil {
			keys = append(keys, *sub.HeadshotKey)
		}
	}
	return dedupe(keys), nil
}

func dedupe(keys []string) []string {
	seen := make(map[string]bool, len(keys))
	out := keys[:0]
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// EraseApplications erases person s's applications of every edition, in
// the transaction behind q: an offer still open counts as declined (its
// batch frees the place at the deadline, as for an expired one), every
// field that could name them goes with their question-bank answers, and
// the applications leave the queue, the admin table and open work; status,
// decision, RSVP, review counts and dates stay for the counters. Their
// address leaves every other application's team list. The reviewers'
// private notes on their applications go with the fields, and the notes
// they wrote as a reviewer are blanked (the scores stay). Their résumé
// objects were deleted first (ErasureObjects). It returns how many
// applications it erased. Safe to repeat.
func EraseApplications(ctx context.Context, q *db.Queries, s Subject) (int, error) {
	apps, err := q.ApplicationsByProfile(ctx, s.ProfileID)
	if err != nil {
		return 0, err
	}
	declined, err := q.ApplicationsDeclineOpenOffers(ctx, s.ProfileID)
	if err != nil {
		return 0, err
	}
	for _, id := range declined {
		if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
			ApplicationID: id, Kind: "rsvp", Detail: []byte(`{"rsvp":"declined","reason":"account erased"}`)}); err != nil {
			return 0, err
		}
	}
	ids := make([]uuid.UUID, len(apps))
	for i, a := range apps {
		ids[i] = a.ID
	}
	if _, err := q.AnswersDeleteFor(ctx, ids); err != nil {
		return 0, err
	}
	erased, err := q.ApplicationsPurge(ctx, db.ApplicationsPurgeParams{Ids: ids, Erase: true})
	if err != nil {
		return 0, err
	}
	if err := RemoveTeamMentions(ctx, q, s); err != nil {
		return 0, err
	}
	if _, err := q.ReviewNotesEraseByReviewer(ctx, s.ProfileID); err != nil {
		return 0, err
	}
	return len(erased), nil
}

// RemoveTeamMentions takes person s's address out of every application's
// team list. Safe to repeat.
func RemoveTeamMentions(ctx context.Context, q *db.Queries, s Subject) error {
	if strings.TrimSpace(s.Email) == "" {
		return nil
	}
	_, err := q.ApplicationsRemoveTeamMember(ctx, s.Email)
	return err
}

// Erased counts what an erasure's step removed.
type Erased struct {
	Objects      int `json:"objects"`
	Applications int `json:"applications"`
	Submissions  int `json:"submissions"`
	Sessions     int `json:"sessions"`
	Tokens       int `json:"tokens"`
	Receipts     int `json:"receipts"`
	OutboxInputs int `json:"outbox_inputs"`
	Emails       int `json:"emails"`
}

// EraseRecords erases person s's other records, in the transaction behind
// q: onboarding submissions (their headshots were deleted first), sessions
// and one-time tokens, stored answers of their requests, their places in
// running broadcasts, raw receipts and the address on them, and the
// started outbox rows whose input names them. Safe to repeat.
func EraseRecords(ctx context.Context, q *db.Queries, s Subject) (Erased, error) {
	var out Erased
	subs, err := q.ExecFormSubmissionKeysByProfile(ctx, s.ProfileID)
	if err != nil {
		return out, err
	}
	ids := make([]uuid.UUID, len(subs))
	for i, sub := range subs {
		ids[i] = sub.ID
	}
	n, err := q.ExecFormSubmissionsDelete(ctx, ids)
	if err != nil {
		return out, err
	}
	out.Submissions = int(n)
	if n, err = q.SessionsDeleteForProfile(ctx, s.ProfileID); err != nil {
		return out, err
	}
	out.Sessions = int(n)
	if n, err = q.AuthTokensDeleteForProfile(ctx, s.ProfileID); err != nil {
		return out, err
	}
	out.Tokens = int(n)
	if _, err = q.IdempotencyKeysDeleteForActor(ctx, s.ProfileID); err != nil {
		return out, err
	}
	if _, err = q.VolunteersDeleteForProfile(ctx, s.ProfileID); err != nil {
		return out, err
	}
	if _, err = q.BroadcastRecipientsErase(ctx, s.ProfileID); err != nil {
		return out, err
	}
	if n, err = q.ReceiptsEraseForPerson(ctx, db.ReceiptsEraseForPersonParams{Email: s.Email, ProfileID: s.ProfileID}); err != nil {
		return out, err
	}
	out.Receipts = int(n)
	email := s.Email
	if strings.TrimSpace(email) == "" {
		email = s.ProfileID.String() // matches nothing more than the id does
	}
	if n, err = q.WorkflowStartsClearInputsMentioning(ctx, db.WorkflowStartsClearInputsMentioningParams{
		ProfileID: s.ProfileID.String(), Email: email}); err != nil {
		return out, err
	}
	out.OutboxInputs = int(n)
	return out, nil
}

// EraseEmails purges every email to person s's address in the audit
// trail: address, subject and bodies go, the key and status stay (one not
// yet sent never will be). Safe to repeat.
func EraseEmails(ctx context.Context, q *db.Queries, s Subject) (int, error) {
	if strings.TrimSpace(s.Email) == "" {
		return 0, nil
	}
	n, err := q.EmailsPurgeForAddress(ctx, s.Email)
	return int(n), err
}

// Tombstone ends person s's erasure, in the transaction behind q: the
// emails and team mentions recorded since the earlier steps (by a request
// that read the address before the erasure began) are purged again, every
// session and token is gone, and the profile becomes a tombstone. Safe to
// repeat.
func Tombstone(ctx context.Context, q *db.Queries, s Subject) (int, error) {
	n, err := EraseEmails(ctx, q, s)
	if err != nil {
		return 0, err
	}
	if err := RemoveTeamMentions(ctx, q, s); err != nil {
		return 0, err
	}
	if _, err := q.SessionsDeleteForProfile(ctx, s.ProfileID); err != nil {
		return 0, err
	}
	if _, err := q.AuthTokensDeleteForProfile(ctx, s.ProfileID); err != nil {
		return 0, err
	}
	if _, err := q.ProfileTombstone(ctx, s.ProfileID); err != nil {
		return 0, err
	}
	return n, nil
}
