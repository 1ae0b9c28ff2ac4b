package account

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
)

// Session lifetimes. A member's session ends after a week without use or 30
// days after login, whichever comes first; an admin's or superadmin's after
// 12 hours without use or 7 days after login. Either ends earlier when it
// is revoked (logout, password reset, signing out other sessions).
const (
	SessionIdle          = 7 * 24 * time.Hour
	SessionAbsolute      = 30 * 24 * time.Hour
	AdminSessionIdle     = 12 * time.Hour
	AdminSessionAbsolute = 7 * 24 * time.Hour
	// TouchEvery is how often at most last_seen_at is written per
	// session, so that reads do not each cost a write.
	TouchEvery = time.Minute
)

// SessionLimits are the idle and absolute lifetimes for a role.
func SessionLimits(role string) (idle, absolute time.Duration) {
	if Privileged(role) {
		return AdminSessionIdle, AdminSessionAbsolute
	}
	return SessionIdle, SessionAbsolute
}

// SessionExpiry is when a session ends under the limits of its owner's
// current role: the earliest of the absolute limit stored at login, the
// role's absolute limit counted from login and the role's idle limit
// counted from the last recorded use. The role is the one read on this
// request, so a promotion tightens the limits of sessions already open (one
// older than the stricter limits allow ends at once) and a demotion relaxes
// them. lastSeen is written at most once per TouchEvery, so the idle limit
// may bite up to that much early.
func SessionExpiry(role string, created, lastSeen, stored time.Time) time.Time {
	idle, absolute := SessionLimits(role)
	end := stored
	if t := created.Add(absolute); t.Before(end) {
		end = t
	}
	if t := lastSeen.Add(idle); t.Before(end) {
		end = t
	}
	return end
}

// ErrBadSession answers a session token that is malformed, unknown,
// expired or revoked.
var ErrBadSession = apperr.WithMessage(apperr.Unauthorized, "Unauthorized", "The session is invalid, expired or revoked")

// Authenticate loads the account behind a session token with its current
// role and exec role, and records the use of the session (at most once per
// TouchEvery). ErrBadSession when the session does not hold.
func Authenticate(ctx context.Context, q *db.Queries, token string) (db.SessionPrincipalRow, error) {
	if !auth.PlausibleToken(token) {
		return db.SessionPrincipalRow{}, ErrBadSession
	}
	row, err := q.SessionPrincipal(ctx, auth.HashToken(token))
	if errors.Is(err, db.ErrNotFound) {
		return db.SessionPrincipalRow{}, ErrBadSession
	}
	if err != nil {
		return db.SessionPrincipalRow{}, err
	}
	if !row.DbNow.Before(SessionExpiry(row.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt)) {
		return db.SessionPrincipalRow{}, ErrBadSession
	}
	if row.DbNow.Sub(row.LastSeenAt) > TouchEvery {
		if err := q.SessionTouch(ctx, row.SessionID); err != nil {
			return db.SessionPrincipalRow{}, err
		}
	}
	return row, nil
}

// Caller is a signed-in account on one of its sessions, with the role read
// on this request.
type Caller struct {
	ProfileID uuid.UUID
	SessionID uuid.UUID
	Role      string
}

// SessionView is one of the caller's sessions. The token (and its hash)
// never leaves the server: the id names a session.
type SessionView struct {
	ID         uuid.UUID `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastSeenAt time.Time `json:"last_seen_at"`
	ExpiresAt  time.Time `json:"expires_at"` // under the caller's current role
	Current    bool      `json:"current"`
}

// Sessions are c's live sessions, newest first, each with when it ends
// under c's current role and whether it is c's own.
func Sessions(ctx context.Context, q *db.Queries, c Caller) ([]SessionView, error) {
	rows, err := q.SessionListForProfile(ctx, c.ProfileID)
	if err != nil {
		return nil, err
	}
	out := []SessionView{}
	for _, row := range rows {
		end := SessionExpiry(c.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt)
		if !row.DbNow.Before(end) {
			continue
		}
		out = append(out, SessionView{
			ID: row.ID, CreatedAt: row.CreatedAt, LastSeenAt: row.LastSeenAt, ExpiresAt: end,
			Current: row.ID == c.SessionID,
		})
	}
	return out, nil
}

// RevokeOthers signs c out everywhere but c's session and returns how many
// live sessions ended (expired ones are revoked too, uncounted).
func RevokeOthers(ctx context.Context, q *db.Queries, c Caller) (int, error) {
	rows, err := q.SessionRevokeOthers(ctx, db.SessionRevokeOthersParams{ProfileID: c.ProfileID, KeepID: c.SessionID})
	if err != nil {
		return 0, err
	}
	revoked := 0
	for _, row := range rows {
		if row.DbNow.Before(SessionExpiry(c.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt)) {
			revoked++
		}
	}
	return revoked, nil
}

// Logout revokes one session.
func Logout(ctx context.Context, q *db.Queries, sessionID uuid.UUID) error {
	return q.SessionRevoke(ctx, sessionID)
}
