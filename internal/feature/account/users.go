package account

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// The superadmins' users page: GET /api/admin/users lists the accounts,
// PATCH /api/admin/users/{id} changes one's role and exec role through
// Grant, the function behind `hackdesk users grant`.

// ErrUserNotFound is a 404: no account has the id asked for.
var ErrUserNotFound = apperr.New(apperr.NotFound, "User not found")

// AdminUser is an account as the users page shows it; ExecRole is its exec
// role of the active term, or nil.
type AdminUser struct {
	ID             uuid.UUID `json:"id"`
	Email          string    `json:"email"`
	DisplayName    *string   `json:"display_name"`
	Role           string    `json:"role"`
	EmailConfirmed bool      `json:"email_confirmed"`
	ExecRole       *ExecRole `json:"exec_role"`
}

func toAdminUser(r db.ProfileAdminListRow) AdminUser {
	u := AdminUser{ID: r.ID, Email: r.Email, DisplayName: r.DisplayName, Role: r.Role,
		EmailConfirmed: r.EmailConfirmedAt != nil}
	if r.ExecPosition != nil {
		u.ExecRole = &ExecRole{Position: *r.ExecPosition, Subteam: r.ExecSubteam, TermID: r.ExecTermID}
	}
	return u
}

// MaxUserQuery is the longest ?q= of the users list, in characters.
const MaxUserQuery = 100

// UserQuery is the users list's ?q=&role=: part of an email or display
// name (any case; empty matches everyone) and a role (empty: any), and
// the page the caller reads.
type UserQuery struct {
	Q      string
	Role   string
	Limit  int32
	Offset int32
}

// Validate trims q and checks both.
func (u *UserQuery) Validate() apperr.Fields {
	f := apperr.Fields{}
	u.Q = strings.TrimSpace(u.Q)
	if utf8.RuneCountInString(u.Q) > MaxUserQuery {
		f.Add("q", fmt.Sprintf("must be at most %d characters", MaxUserQuery))
	}
	if u.Role != "" && !oneOf(u.Role, Roles) {
		f.Add("role", "must be one of "+strings.Join(Roles, ", "))
	}
	return f
}

// ListUsers is one page of the accounts uq matches, by email, and how
// many it matches in all. q's LIKE wildcards match themselves.
func ListUsers(ctx context.Context, q *db.Queries, uq UserQuery) ([]AdminUser, int64, error) {
	var role, pattern *string
	if uq.Role != "" {
		role = &uq.Role
	}
	if uq.Q != "" {
		p := db.LikeContains(strings.ToLower(uq.Q))
		pattern = &p
	}
	rows, err := q.ProfileAdminList(ctx, db.ProfileAdminListParams{Role: role, Pattern: pattern,
		PageOffset: uq.Offset, PageSize: uq.Limit})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.ProfileAdminCount(ctx, db.ProfileAdminCountParams{Role: role, Pattern: pattern})
	if err != nil {
		return nil, 0, err
	}
	out := make([]AdminUser, len(rows))
	for i, r := range rows {
		out[i] = toAdminUser(r)
	}
	return out, total, nil
}

// GetUser is the account id as the users page shows it, or
// ErrUserNotFound.
func GetUser(ctx context.Context, q *db.Queries, id uuid.UUID) (AdminUser, error) {
	r, err := q.ProfileAdminGet(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return AdminUser{}, ErrUserNotFound
	}
	if err != nil {
		return AdminUser{}, err
	}
	return toAdminUser(db.ProfileAdminListRow(r)), nil
}

// UserPatch is the body of PATCH /api/admin/users/{id}: absent fields
// stay; exec null ends the account's exec role.
type UserPatch struct {
	Role patch.Field[string] `json:"role"`
	Exec ExecField           `json:"exec"`
}

// ExecInput is an exec role to give: a position, the subteam (a VP's is
// required) and its term.
type ExecInput struct {
	Position string  `json:"position"`
	Subteam  *string `json:"subteam"`
	TermID   string  `json:"term_id"`
}

// ExecField is UserPatch's exec: Set when present, Null when null (end the
// exec role), else the role in V. Its object is read as strictly as the
// body around it: an unknown field is refused.
type ExecField struct {
	Set  bool
	Null bool
	V    ExecInput
}

// UnmarshalJSON records presence and null, and decodes an object strictly.
func (f *ExecField) UnmarshalJSON(b []byte) error {
	f.Set = true
	if string(b) == "null" {
		f.Null = true
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(&f.V)
	// The body's decoder names an unknown field by its path.
	if name, ok := strings.CutPrefix(fmt.Sprint(err), `json: unknown field "`); ok {
		return fmt.Errorf(`json: unknown field "exec.%s`, name)
	}
	return err
}

// Validate checks the role and, when the patch gives one, the exec role
// (its fields reported as exec.position, exec.subteam, exec.term_id).
func (p *UserPatch) Validate() apperr.Fields {
	f := apperr.Fields{}
	if p.Role.Set && (p.Role.Null || !oneOf(p.Role.V, Roles)) {
		f.Add("role", "must be one of "+strings.Join(Roles, ", "))
	}
	if p.Exec.Value() {
		for field, why := range p.Exec.V.Validate() {
			f.Add("exec."+field, why)
		}
	}
	return f
}

// Value reports whether the field holds an exec role (set and not null).
func (f ExecField) Value() bool { return f.Set && !f.Null }

// Validate checks the position, the subteam (trimming it: 1 to 100
// characters, required for a VP) and the term id.
func (e *ExecInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	switch {
	case e.Position == "":
		f.Add("position", "is required")
	case !oneOf(e.Position, term.ExecPositions()):
		f.Add("position", "must be one of "+strings.Join(term.ExecPositions(), ", "))
	}
	if e.Subteam != nil {
		s := strings.TrimSpace(*e.Subteam)
		if n := utf8.RuneCountInString(s); n < 1 || n > 100 {
			f.Add("subteam", "must be 1 to 100 characters")
		}
		e.Subteam = &s
	} else if e.Position == term.PositionVP {
		f.Add("subteam", "is required for a VP")
	}
	if e.TermID == "" {
		f.Add("term_id", "is required")
	} else if _, err := uuid.Parse(e.TermID); err != nil {
		f.Add("term_id", "must be a UUID")
	}
	return f
}

// change is the validated patch as Grant's change; empty when the patch
// changes nothing.
func (p UserPatch) change() Change {
	var c Change
	if p.Role.Value() {
		c.Role = p.Role.V
	}
	switch {
	case p.Exec.Set && p.Exec.Null:
		c.Exec = "none"
	case p.Exec.Set:
		c.Exec = p.Exec.V.Position
		if p.Exec.V.Subteam != nil {
			c.Subteam = *p.Exec.V.Subteam
		}
		id := uuid.MustParse(p.Exec.V.TermID) // Validate checked it
		c.TermID = &id
	}
	return c
}

// UpdateUser applies a patch to the account id with Grant and answers the
// account. The patch is checked first (a validation failure), then the
// account (ErrUserNotFound), then the exec role's term (term.ErrMissing);
// Grant refuses to demote the last superadmin (ErrLastSuperadmin). A patch
// that changes nothing answers the account as it is.
func UpdateUser(ctx context.Context, q *db.Queries, id uuid.UUID, p UserPatch) (AdminUser, error) {
	if err := p.Validate().Err(); err != nil {
		return AdminUser{}, err
	}
	if _, err := GetUser(ctx, q, id); err != nil {
		return AdminUser{}, err
	}
	c := p.change()
	if c.TermID != nil {
		if _, err := term.Get(ctx, q, *c.TermID); err != nil {
			return AdminUser{}, err
		}
	}
	if c.Role != "" || c.Exec != "" {
		err := Grant(ctx, q, id, c)
		if errors.Is(err, db.ErrNotFound) {
			return AdminUser{}, ErrUserNotFound
		}
		if err != nil {
			return AdminUser{}, err
		}
	}
	return GetUser(ctx, q, id)
}
