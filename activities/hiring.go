package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/hiring"
	"hackdesk/mail"
)

// Hire is one accepted offer of the finalized term.
type Hire struct {
	ProfileID uuid.UUID
	Email     string
	Name      string
	Position  string // the position's title
	Subteam   string
	Exec      string // the exec role it grants: President, VP or Exec
}

// HiringPlanInput names the term being finalized.
type HiringPlanInput struct {
	TermID uuid.UUID
}

// HiringPlan is what a finalization does: the term's hires and the
// previous execs whose roles end.
type HiringPlan struct {
	TermName string
	Hires    []Hire
	Previous []uuid.UUID
}

// LoadHiringPlan reads the term's accepted selections and the previous
// execs (active exec roles of other terms held by people not hired now).
// It only reads.
func (a *HiringActivities) LoadHiringPlan(ctx context.Context, in HiringPlanInput) (HiringPlan, error) {
	var plan HiringPlan
	term, err := a.Store.TermGet(ctx, in.TermID)
	if errors.Is(err, db.ErrNotFound) {
		return plan, termGone(in.TermID)
	}
	if err != nil {
		return plan, err
	}
	plan.TermName = term.Name
	hires, err := a.Store.SelectionAccepted(ctx, in.TermID)
	if err != nil {
		return plan, err
	}
	for _, h := range hires {
		name := h.Email
		if h.DisplayName != nil && *h.DisplayName != "" {
			name = *h.DisplayName
		}
		plan.Hires = append(plan.Hires, Hire{ProfileID: h.ProfileID, Email: h.Email, Name: name,
			Position: h.PositionTitle, Subteam: h.PositionSubteam, Exec: hiring.Grant(h.Grants).ExecPosition()})
	}
	prev, err := a.Store.SelectionPreviousExecs(ctx, in.TermID)
	if err != nil {
		return plan, err
	}
	for _, p := range prev {
		plan.Previous = append(plan.Previous, p.ProfileID)
	}
	return plan, nil
}

// PromoteInput is a batch of hires to promote.
type PromoteHiresInput struct {
	TermID uuid.UUID
	Hires  []Hire
}

// PromoteHires makes each hire an admin (a superadmin keeps their role)
// holding the exec role of their position for the term, ending any other
// active exec role they hold. Each statement is conditional, so running
// it again changes nothing. It answers how many hires it covered.
func (a *HiringActivities) PromoteHires(ctx context.Context, in PromoteHiresInput) (int, error) {
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		for _, h := range in.Hires {
			subteam := h.Subteam
			if err := q.ExecRoleEndOthers(ctx, db.ExecRoleEndOthersParams{
				ProfileID: h.ProfileID, Position: h.Exec, Subteam: subteam, TermID: in.TermID}); err != nil {
				return err
			}
			term := in.TermID
			if _, err := q.ExecRoleEnsure(ctx, db.ExecRoleEnsureParams{
				ProfileID: h.ProfileID, Position: h.Exec, Subteam: &subteam, TermID: &term}); err != nil {
				return err
			}
			if _, err := q.ProfilePromoteAdmin(ctx, h.ProfileID); err != nil {
				return err
			}
		}
		return nil
	})
	return len(in.Hires), err
}

// DemoteInput names the previous execs of a finalization.
type DemoteInput struct {
	TermID     uuid.UUID
	ProfileIDs []uuid.UUID
}

// DemotePrevious ends the previous execs' exec roles (kept as history) and
// makes those who are admins members again; a superadmin keeps their
// role. Only roles of other terms are ended, so a retry finds nothing.
func (a *HiringActivities) DemotePrevious(ctx context.Context, in DemoteInput) error {
	if len(in.ProfileIDs) == 0 {
		return nil
	}
	return a.Store.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.ExecRolesEndPrevious(ctx, db.ExecRolesEndPreviousParams{ProfileIds: in.ProfileIDs, TermID: in.TermID}); err != nil {
			return err
		}
		_, err := q.ProfilesDemoteToMember(ctx, in.ProfileIDs)
		return err
	})
}

// WelcomeInput is the welcome emails of a batch of hires.
type WelcomeInput struct {
	TermID        uuid.UUID
	TermName      string
	Hires         []Hire
	OnboardingURL string
	ChatInviteURL string
	AllHandsURL   string
}

// WelcomeKey is the idempotency key of a new exec's welcome email.
func WelcomeKey(termID, profileID uuid.UUID) string {
	return fmt.Sprintf("welcome:%s:%s", termID, profileID)
}

// RecordWelcomeEmails records one welcome email per hire under
// WelcomeKey; a retry records nothing new and returns the same refs.
func (a *HiringActivities) RecordWelcomeEmails(ctx context.Context, in WelcomeInput) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		refs = refs[:0]
		for _, h := range in.Hires {
			key := WelcomeKey(in.TermID, h.ProfileID)
			if _, err := mail.Record(ctx, q, key, "exec_welcome", h.Email, map[string]string{
				"name": h.Name, "position": h.Position, "term": in.TermName,
				"onboarding": in.OnboardingURL, "chat": in.ChatInviteURL, "all_hands": in.AllHandsURL,
			}); err != nil {
				return err
			}
			refs = append(refs, EmailRef{Key: key, Kind: "exec_welcome", To: h.Email})
		}
		return nil
	})
	return refs, err
}

// FinalizationResult is a finalization's outcome.
type FinalizationResult struct {
	TermID   uuid.UUID
	Promoted int
	Demoted  int
	Welcomed int
}

// RecordFinalization stores the outcome on the term's finalization once;
// a retry keeps the first.
func (a *HiringActivities) RecordFinalization(ctx context.Context, in FinalizationResult) error {
	return a.Store.HiringFinalizationRecord(ctx, db.HiringFinalizationRecordParams{
		TermID: in.TermID, Promoted: ptr32(in.Promoted), Demoted: ptr32(in.Demoted), Welcomed: ptr32(in.Welcomed)})
}

func ptr32(n int) *int32 {
	v := int32(n)
	return &v
}
