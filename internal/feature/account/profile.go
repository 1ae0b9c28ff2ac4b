package account

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/patch"
)

// User is the profile as GET /api/profile shows it. The membership of the
// active term is loaded with it; the API shows it in its membership view.
type User struct {
	ID             uuid.UUID `json:"id"`
	Email          string    `json:"email"`
	DisplayName    *string   `json:"display_name"`
	Role           string    `json:"role"`
	EmailConfirmed bool      `json:"email_confirmed"`
	// MarketingOptIn is whether marketing broadcasts reach the account: set
	// by submitting an application and by the profile page, cleared by a
	// one-click unsubscribe.
	MarketingOptIn bool      `json:"marketing_opt_in"`
	ExecRole       *ExecRole `json:"exec_role"`
	// Onboarding is the onboarding form of the exec role's term, which the
	// pages offer while it is open; nil without an exec role of a term.
	Onboarding *OnboardingForm `json:"onboarding"`
	// ActiveMembership is the membership of the active term, or nil.
	ActiveMembership *db.Membership `json:"-"`
}

// ExecRole is the account's active exec role.
type ExecRole struct {
	Position string     `json:"position"`
	Subteam  *string    `json:"subteam"`
	TermID   *uuid.UUID `json:"term_id"`
}

// OnboardingForm is the onboarding form an exec holds a role for: its
// term, its window, whether it is open now (the database's clock) and
// whether they have submitted it.
type OnboardingForm struct {
	TermID    uuid.UUID  `json:"term_id"`
	TermName  string     `json:"term_name"`
	OpensAt   *time.Time `json:"opens_at"`
	ClosesAt  *time.Time `json:"closes_at"`
	Open      bool       `json:"open"`
	Submitted bool       `json:"submitted"`
}

// Load reads the profile of id with its active exec role, the onboarding
// form of that role's term and its membership of the active term.
func Load(ctx context.Context, q *db.Queries, id uuid.UUID) (User, error) {
	v, err := q.ProfileView(ctx, id)
	if err != nil {
		return User{}, err
	}
	u := User{ID: v.ID, Email: v.Email, DisplayName: v.DisplayName, Role: v.Role,
		EmailConfirmed: v.EmailConfirmedAt != nil, MarketingOptIn: v.MarketingOptIn}
	if v.ExecPosition != nil {
		u.ExecRole = &ExecRole{Position: *v.ExecPosition, Subteam: v.ExecSubteam, TermID: v.ExecTermID}
	}
	if v.ExecTermID != nil {
		f, err := q.ExecFormOwnOnboarding(ctx, id)
		switch {
		case err == nil:
			u.Onboarding = &OnboardingForm{TermID: f.TermID, TermName: f.TermName, OpensAt: f.OpensAt, ClosesAt: f.ClosesAt,
				Open: f.Open, Submitted: f.Submitted}
		case !errors.Is(err, db.ErrNotFound):
			return User{}, err
		}
	}
	m, err := q.MembershipOfActiveTerm(ctx, id)
	switch {
	case err == nil:
		u.ActiveMembership = &m
	case !errors.Is(err, db.ErrNotFound):
		return User{}, err
	}
	return u, nil
}

// ProfilePatch is the body of PATCH /api/profile: absent fields stay.
// Neither may be null (a display name cannot be cleared).
type ProfilePatch struct {
	DisplayName    patch.Field[string] `json:"display_name"`
	MarketingOptIn patch.Field[bool]   `json:"marketing_opt_in"`
}

// Validate checks the display name (trimming it) and refuses a null.
func (r *ProfilePatch) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.DisplayName.Set {
		n, why := auth.CheckDisplayName(r.DisplayName.V) // null reads as "", which is refused
		if why != "" {
			f.Add("display_name", why)
		}
		r.DisplayName.V = n
	}
	if r.MarketingOptIn.Set && r.MarketingOptIn.Null {
		f.Add("marketing_opt_in", "must be true or false")
	}
	return f
}

// UpdateProfile applies a validated patch to the profile of id and returns
// the profile.
func UpdateProfile(ctx context.Context, q *db.Queries, id uuid.UUID, p ProfilePatch) (User, error) {
	if p.DisplayName.Set {
		if _, err := q.ProfileSetDisplayName(ctx, db.ProfileSetDisplayNameParams{ID: id, DisplayName: &p.DisplayName.V}); err != nil {
			return User{}, err
		}
	}
	if p.MarketingOptIn.Set {
		if err := q.ProfileSetMarketingOptIn(ctx, db.ProfileSetMarketingOptInParams{ID: id, MarketingOptIn: p.MarketingOptIn.V}); err != nil {
			return User{}, err
		}
	}
	return Load(ctx, q, id)
}
