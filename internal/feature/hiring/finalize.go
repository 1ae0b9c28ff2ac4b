package hiring

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
)

// Finalization makes a term's accepted offers its execs. The API claims
// it (StartFinalization) and the HiringFinalization workflow runs it:
// Plan, Promote in batches, Demote, Welcome, RecordResult. Every step is
// safe to repeat. The types below cross the Temporal boundary as they
// are: their field names are the JSON of recorded histories.

// FinalizeInput is the body of a finalization request.
type FinalizeInput struct {
	TermID      string `json:"term_id"`
	AllHandsURL string `json:"all_hands_url"`
}

// Validate checks the term id and the all-hands link.
func (b *FinalizeInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(b.TermID); err != nil {
		f.Add("term_id", "must be a UUID")
	}
	if why := CheckAllHandsURL(b.AllHandsURL); why != "" {
		f.Add("all_hands_url", why)
	}
	return f
}

// StartFinalization claims the finalization of a (validated) input's term
// for workflowID, requested by actor: term.ErrMissing for no such term;
// ErrNotHiringTerm unless it is the hiring term; ErrNothingToFinalize
// without an accepted offer. A term claimed already answers its first
// claim again (the first request's link is kept), even once another term
// has become the hiring term. The caller starts the workflow in the same
// transaction.
func StartFinalization(ctx context.Context, q *db.Queries, actor uuid.UUID, in FinalizeInput, workflowID string) (db.Term, db.HiringFinalization, error) {
	termID := uuid.MustParse(in.TermID)
	t, err := term.Get(ctx, q, termID)
	if err != nil {
		return t, db.HiringFinalization{}, err
	}
	switch _, err := q.HiringFinalizationGet(ctx, termID); {
	case err == nil: // claimed already: the same answer
	case !errors.Is(err, db.ErrNotFound):
		return t, db.HiringFinalization{}, err
	default:
		if err := checkFinalizable(ctx, q, termID); err != nil {
			return t, db.HiringFinalization{}, err
		}
	}
	f, err := q.HiringFinalizationClaim(ctx, db.HiringFinalizationClaimParams{TermID: termID, WorkflowID: workflowID,
		AllHandsUrl: strings.TrimSpace(in.AllHandsURL), RequestedBy: &actor})
	return t, f, err
}

// checkFinalizable refuses to finalize a term that is not the hiring term
// or has no accepted offer.
func checkFinalizable(ctx context.Context, q *db.Queries, termID uuid.UUID) error {
	latest, err := q.TermHiring(ctx)
	if err != nil {
		return err
	}
	if latest.ID != termID {
		return ErrNotHiringTerm
	}
	hires, err := q.SelectionAccepted(ctx, termID)
	if err != nil {
		return err
	}
	if len(hires) == 0 {
		return ErrNothingToFinalize
	}
	return nil
}

// Hire is one accepted offer of the finalized term.
type Hire struct {
	ProfileID uuid.UUID
	Email     string
	Name      string
	Position  string // the position's title
	Subteam   string
	Exec      string // the exec role it grants: President, VP or Exec
}

// Plan is what a finalization does: the term's hires and the previous
// execs whose roles end.
type Plan struct {
	TermName string
	Hires    []Hire
	Previous []uuid.UUID
}

// PlanInput names the term being finalized.
type PlanInput struct {
	TermID uuid.UUID
}

// LoadPlan reads the term's accepted selections and the previous execs
// (active exec roles of other terms held by people not hired now); a term
// that does not exist is term.ErrMissing. It only reads.
func LoadPlan(ctx context.Context, q *db.Queries, in PlanInput) (Plan, error) {
	var plan Plan
	t, err := term.Get(ctx, q, in.TermID)
	if err != nil {
		return plan, err
	}
	plan.TermName = t.Name
	hires, err := q.SelectionAccepted(ctx, in.TermID)
	if err != nil {
		return plan, err
	}
	for _, h := range hires {
		name := h.Email
		if h.DisplayName != nil && *h.DisplayName != "" {
			name = *h.DisplayName
		}
		plan.Hires = append(plan.Hires, Hire{ProfileID: h.ProfileID, Email: h.Email, Name: name,
			Position: h.PositionTitle, Subteam: h.PositionSubteam, Exec: Grant(h.Grants).ExecPosition()})
	}
	prev, err := q.SelectionPreviousExecs(ctx, in.TermID)
	if err != nil {
		return plan, err
	}
	for _, p := range prev {
		plan.Previous = append(plan.Previous, p.ProfileID)
	}
	return plan, nil
}

// PromoteInput is a batch of hires to promote.
type PromoteInput struct {
	TermID uuid.UUID
	Hires  []Hire
}

// Promote makes each hire an admin (a superadmin keeps their role)
// holding the exec role of their position for the term, ending any other
// active exec role they hold. Each statement is conditional, so running
// it again changes nothing. It answers how many hires it covered.
func Promote(ctx context.Context, q *db.Queries, in PromoteInput) (int, error) {
	for _, h := range in.Hires {
		subteam := h.Subteam
		if err := q.ExecRoleEndOthers(ctx, db.ExecRoleEndOthersParams{
			ProfileID: h.ProfileID, Position: h.Exec, Subteam: subteam, TermID: in.TermID}); err != nil {
			return 0, fmt.Errorf("promote %s: %w", h.ProfileID, err)
		}
		term := in.TermID
		if _, err := q.ExecRoleEnsure(ctx, db.ExecRoleEnsureParams{
			ProfileID: h.ProfileID, Position: h.Exec, Subteam: &subteam, TermID: &term}); err != nil {
			return 0, fmt.Errorf("promote %s: %w", h.ProfileID, err)
		}
		if _, err := q.ProfilePromoteAdmin(ctx, h.ProfileID); err != nil {
			return 0, fmt.Errorf("promote %s: %w", h.ProfileID, err)
		}
	}
	return len(in.Hires), nil
}

// DemoteInput names the previous execs of a finalization.
type DemoteInput struct {
	TermID     uuid.UUID
	ProfileIDs []uuid.UUID
}

// Demote ends the previous execs' exec roles (kept as history) and makes
// those who are admins members again; a superadmin keeps their role. Only
// roles of other terms are ended, so a retry finds nothing.
func Demote(ctx context.Context, q *db.Queries, in DemoteInput) error {
	if len(in.ProfileIDs) == 0 {
		return nil
	}
	if _, err := q.ExecRolesEndPrevious(ctx, db.ExecRolesEndPreviousParams{ProfileIds: in.ProfileIDs, TermID: in.TermID}); err != nil {
		return fmt.Errorf("end previous exec roles: %w", err)
	}
	if _, err := q.ProfilesDemoteToMember(ctx, in.ProfileIDs); err != nil {
		return fmt.Errorf("demote previous execs: %w", err)
	}
	return nil
}

// WelcomeKind is the template of a new exec's welcome email.
const WelcomeKind = "exec_welcome"

// WelcomeKey is the idempotency key of a new exec's welcome email.
func WelcomeKey(termID, profileID uuid.UUID) string {
	return fmt.Sprintf("welcome:%s:%s", termID, profileID)
}

// WelcomeInput is the welcome emails of a batch of hires, with the
// email's links.
type WelcomeInput struct {
	TermID        uuid.UUID
	TermName      string
	Hires         []Hire
	OnboardingURL string
	ChatInviteURL string
	AllHandsURL   string
}

// Welcome records one welcome email per hire under WelcomeKey; a retry
// records nothing new and returns the same refs, which the caller
// delivers.
func Welcome(ctx context.Context, q *db.Queries, in WelcomeInput) ([]mail.Ref, error) {
	var refs []mail.Ref
	for _, h := range in.Hires {
		ref, err := mail.RecordRef(ctx, q, WelcomeKey(in.TermID, h.ProfileID), WelcomeKind, h.Email, map[string]string{
			"name": h.Name, "position": h.Position, "term": in.TermName,
			"onboarding": in.OnboardingURL, "chat": in.ChatInviteURL, "all_hands": in.AllHandsURL,
		})
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// Result is a finalization's outcome (the HiringFinalization workflow's
// result).
type Result struct {
	TermID   uuid.UUID
	Promoted int
	Demoted  int
	Welcomed int
}

// RecordResult stores the outcome on the term's finalization once; a
// retry keeps the first.
func RecordResult(ctx context.Context, q *db.Queries, res Result) error {
	return q.HiringFinalizationRecord(ctx, db.HiringFinalizationRecordParams{
		TermID: res.TermID, Promoted: ptr32(res.Promoted), Demoted: ptr32(res.Demoted), Welcomed: ptr32(res.Welcomed)})
}

func ptr32(n int) *int32 {
	v := int32(n)
	return &v
}
