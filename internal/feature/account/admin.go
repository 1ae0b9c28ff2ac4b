package account

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
)

// Create makes a confirmed account without sending an email: the shell's
// `hackdesk users create`, which bootstraps the first superadmin, and the
// tests' accounts. An empty role is a member; an empty name leaves the
// display name unset.
func Create(ctx context.Context, q *db.Queries, email, name, password, role string) (db.Profile, error) {
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return db.Profile{}, fmt.Errorf("--email %q is not an email address", email)
	}
	if why := auth.CheckPassword(password); why != "" {
		return db.Profile{}, fmt.Errorf("password %s", why)
	}
	if role == "" {
		role = RoleMember
	}
	if !oneOf(role, Roles) {
		return db.Profile{}, fmt.Errorf("--role must be one of %s", strings.Join(Roles, ", "))
	}
	var display *string
	if strings.TrimSpace(name) != "" {
		// The rule sign-up and the profile apply.
		n, why := auth.CheckDisplayName(name)
		if why != "" {
			return db.Profile{}, fmt.Errorf("--name %s", why)
		}
		display = &n
	}
	hash, err := auth.HashPassword(ctx, password, auth.DefaultParams)
	if err != nil {
		return db.Profile{}, err
	}
	now := time.Now()
	p, err := q.ProfileInsert(ctx, db.ProfileInsertParams{
		Email: email, DisplayName: display, PasswordHash: hash, Role: role, EmailConfirmedAt: &now,
	})
	if errors.Is(err, db.ErrConflict) {
		return p, fmt.Errorf("an account with email %s exists already", email)
	}
	return p, err
}

// Change is a change of an account's role and/or exec role.
type Change struct {
	Role    string // member, admin or superadmin; empty keeps the role
	Exec    string // President, VP, Exec, "none" to end the exec role; empty keeps it
	Subteam string // required for VP
	TermID  *uuid.UUID
	// Term names the exec role's term by id or name (the shell's --term);
	// it fills TermID.
	Term string
}

// Check is the change's own rules: something to change, known values, a
// VP's subteam, a term only with an exec position.
func (c Change) Check() error {
	switch {
	case c.Role == "" && c.Exec == "":
		return errors.New("give --role and/or --exec")
	case c.Role != "" && !oneOf(c.Role, Roles):
		return fmt.Errorf("--role must be one of %s", strings.Join(Roles, ", "))
	case c.Exec != "" && c.Exec != "none" && !oneOf(c.Exec, term.ExecPositions()):
		return errors.New("--exec must be President, VP, Exec or none")
	case c.Exec == term.PositionVP && strings.TrimSpace(c.Subteam) == "":
		return errors.New("a VP needs --subteam")
	case c.Term != "" && (c.Exec == "" || c.Exec == "none"):
		return errors.New("--term goes with --exec President, VP or Exec")
	}
	return nil
}

// ErrLastSuperadmin refuses the demotion of the only superadmin: the
// service would be left without anyone who can manage it.
var ErrLastSuperadmin = apperr.WithMessage(apperr.Conflict, "Last superadmin",
	"The last superadmin cannot be demoted; make another superadmin first")

// CheckRoleChange is the rule every role change obeys: the last superadmin
// stays one. superadmins is how many there are, the account counted.
func CheckRoleChange(from, to string, superadmins int) error {
	if from == RoleSuperadmin && to != RoleSuperadmin && superadmins <= 1 {
		return ErrLastSuperadmin
	}
	return nil
}

// Grant applies c to the account id in the transaction behind q: its role
// and/or its exec role (an exec role replaces the active one). The change
// applies to the account's next request. A demotion of the last superadmin
// is ErrLastSuperadmin; an unknown account is db.ErrNotFound.
func Grant(ctx context.Context, q *db.Queries, id uuid.UUID, c Change) error {
	return grant(ctx, q, id, c, false)
}

// GrantByEmail is the shell's `hackdesk users grant`: Grant for the account
// of email, in a transaction of its own. The shell may demote the last
// superadmin (ErrLastSuperadmin does not apply): it is where superadmins
// are made, so its operator can always make one again.
func GrantByEmail(ctx context.Context, store *db.Store, email string, c Change) error {
	if err := c.Check(); err != nil {
		return err
	}
	return store.InTx(ctx, func(q *db.Queries) error {
		if err := resolveTerm(ctx, q, &c); err != nil {
			return err
		}
		p, err := q.ProfileGetByEmail(ctx, email)
		if errors.Is(err, db.ErrNotFound) {
			return fmt.Errorf("no account with email %s", email)
		}
		if err != nil {
			return err
		}
		return grant(ctx, q, p.ID, c, true)
	})
}

// grant is Grant; operator exempts the change from the last-superadmin
// rule.
func grant(ctx context.Context, q *db.Queries, id uuid.UUID, c Change, operator bool) error {
	if err := c.Check(); err != nil {
		return err
	}
	if err := resolveTerm(ctx, q, &c); err != nil {
		return err
	}
	// The superadmins are locked before the account is read, so two
	// demotions at once take turns and the second counts one fewer.
	var superadmins []uuid.UUID
	if c.Role != "" && c.Role != RoleSuperadmin && !operator {
		var err error
		if superadmins, err = q.ProfileSuperadminsLock(ctx); err != nil {
			return err
		}
	}
	p, err := q.ProfileView(ctx, id)
	if err != nil {
		return err
	}
	if c.Role != "" {
		if !operator {
			if err := CheckRoleChange(p.Role, c.Role, len(superadmins)); err != nil {
				return err
			}
		}
		if _, err := q.ProfileSetRole(ctx, db.ProfileSetRoleParams{ID: id, Role: c.Role}); err != nil {
			return err
		}
	}
	if c.Exec == "" {
		return nil
	}
	if err := q.ExecRoleDeactivate(ctx, id); err != nil {
		return err
	}
	if c.Exec == "none" {
		return nil
	}
	var subteam *string
	if s := strings.TrimSpace(c.Subteam); s != "" {
		subteam = &s
	}
	_, err = q.ExecRoleInsert(ctx, db.ExecRoleInsertParams{ProfileID: id, Position: c.Exec, Subteam: subteam, TermID: c.TermID})
	return err
}

// resolveTerm fills c.TermID from c.Term, once.
func resolveTerm(ctx context.Context, q *db.Queries, c *Change) error {
	if c.Term == "" {
		return nil
	}
	t, err := findTerm(ctx, q, c.Term)
	if err != nil {
		return err
	}
	c.TermID, c.Term = &t.ID, ""
	return nil
}

// findTerm resolves a term by id or, failing that, by name.
func findTerm(ctx context.Context, q *db.Queries, ref string) (db.Term, error) {
	var t db.Term
	var err error
	if id, perr := uuid.Parse(ref); perr == nil {
		t, err = q.TermGet(ctx, id)
	} else {
		t, err = q.TermGetByName(ctx, ref)
	}
	if errors.Is(err, db.ErrNotFound) {
		return t, fmt.Errorf("no term %q", ref)
	}
	return t, err
}
