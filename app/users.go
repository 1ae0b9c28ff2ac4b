package app

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/auth"
	"hackdesk/db"
)

// Roles a profile can hold, and exec positions.
var (
	Roles         = []string{"member", "admin", "superadmin"}
	ExecPositions = []string{"President", "VP", "Exec"}
)

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

// CreateUser makes a confirmed account (shell bootstrap; no email is sent).
func CreateUser(ctx context.Context, store *db.Store, email, name, password, role string) (db.Profile, error) {
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return db.Profile{}, fmt.Errorf("--email %q is not an email address", email)
	}
	if why := auth.CheckPassword(password); why != "" {
		return db.Profile{}, fmt.Errorf("password %s", why)
	}
	if role == "" {
		role = "member"
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
	p, err := store.ProfileInsert(ctx, db.ProfileInsertParams{
		Email: email, DisplayName: display, PasswordHash: hash, Role: role, EmailConfirmedAt: &now,
	})
	if errors.Is(err, db.ErrConflict) {
		return p, fmt.Errorf("an account with email %s exists already", email)
	}
	return p, err
}

// Grant describes a role change from the shell.
type Grant struct {
	Role    string // member, admin or superadmin; empty keeps the role
	Exec    string // President, VP, Exec, "none" to end the exec role; empty keeps it
	Subteam string // required for VP
	TermID  *uuid.UUID
	// Term names the exec role's term by id or name (the shell's --term);
	// it fills TermID.
	Term string
}

// GrantRole changes an account's role and/or exec role in one transaction.
// The change applies to the account's next request.
func GrantRole(ctx context.Context, store *db.Store, email string, g Grant) error {
	if g.Role == "" && g.Exec == "" {
		return errors.New("give --role and/or --exec")
	}
	if g.Role != "" && !oneOf(g.Role, Roles) {
		return fmt.Errorf("--role must be one of %s", strings.Join(Roles, ", "))
	}
	if g.Exec != "" && g.Exec != "none" && !oneOf(g.Exec, ExecPositions) {
		return errors.New("--exec must be President, VP, Exec or none")
	}
	if g.Exec == "VP" && strings.TrimSpace(g.Subteam) == "" {
		return errors.New("a VP needs --subteam")
	}
	if g.Term != "" && (g.Exec == "" || g.Exec == "none") {
		return errors.New("--term goes with --exec President, VP or Exec")
	}
	return store.InTx(ctx, func(q *db.Queries) error {
		if g.Term != "" {
			t, err := findTerm(ctx, q, g.Term)
			if err != nil {
				return err
			}
			g.TermID = &t.ID
		}
		p, err := q.ProfileGetByEmail(ctx, email)
		if errors.Is(err, db.ErrNotFound) {
			return fmt.Errorf("no account with email %s", email)
		}
		if err != nil {
			return err
		}
		if g.Role != "" {
			if _, err := q.ProfileSetRole(ctx, db.ProfileSetRoleParams{ID: p.ID, Role: g.Role}); err != nil {
				return err
			}
		}
		if g.Exec == "" {
			return nil
		}
		if err := q.ExecRoleDeactivate(ctx, p.ID); err != nil {
			return err
		}
		if g.Exec == "none" {
			return nil
		}
		var subteam *string
		if s := strings.TrimSpace(g.Subteam); s != "" {
			subteam = &s
		}
		_, err = q.ExecRoleInsert(ctx, db.ExecRoleInsertParams{ProfileID: p.ID, Position: g.Exec, Subteam: subteam, TermID: g.TermID})
		return err
	})
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
