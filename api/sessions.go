package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"hackdesk/apperr"
	"hackdesk/auth"
	"hackdesk/db"
)

// Session lifetimes. A member's session ends after a week without use or 30
// days after login, whichever comes first; an admin's or superadmin's after
// 12 hours without use or 7 days after login. Either ends earlier when it
// is revoked (logout, password reset, signing out other sessions).
const (
	sessionIdle          = 7 * 24 * time.Hour
	sessionAbsolute      = 30 * 24 * time.Hour
	adminSessionIdle     = 12 * time.Hour
	adminSessionAbsolute = 7 * 24 * time.Hour
	// last_seen_at is written at most this often per session, so that
	// reads do not each cost a write.
	sessionTouchEvery = time.Minute
	sessionCookie     = "hackdesk_session"
)

// sessionLimits are the idle and absolute lifetimes for a role.
func sessionLimits(role string) (idle, absolute time.Duration) {
	if role == "admin" || role == "superadmin" {
		return adminSessionIdle, adminSessionAbsolute
	}
	return sessionIdle, sessionAbsolute
}

// sessionExpiry is when a session ends under the limits of its owner's
// current role: the earliest of the absolute limit stored at login, the
// role's absolute limit counted from login and the role's idle limit
// counted from the last recorded use. The role is the one read on this
// request, so a promotion tightens the limits of sessions already open (one
// older than the stricter limits allow ends at once) and a demotion relaxes
// them. lastSeen is written at most once per sessionTouchEvery, so the idle
// limit may bite up to that much early.
func sessionExpiry(role string, created, lastSeen, stored time.Time) time.Time {
	idle, absolute := sessionLimits(role)
	end := stored
	if t := created.Add(absolute); t.Before(end) {
		end = t
	}
	if t := lastSeen.Add(idle); t.Before(end) {
		end = t
	}
	return end
}

// sessionAuth authenticates with a Bearer token or the session cookie; both
// carry the same opaque token, of which only the SHA-256 is stored.
type sessionAuth struct {
	store *db.Store
}

var errBadSession = apperr.WithMessage(apperr.Unauthorized, "Unauthorized", "The session is invalid, expired or revoked")

// sessionToken returns the token the request carries, whether it carries
// one, and an error for a malformed Authorization header.
func sessionToken(r *http.Request) (string, bool, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
			return "", true, errBadSession
		}
		return strings.TrimSpace(tok), true, nil
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		return c.Value, true, nil
	}
	return "", false, nil
}

// Authenticate loads the caller with their current role and exec role.
func (a sessionAuth) Authenticate(r *http.Request) (*Principal, error) {
	tok, present, err := sessionToken(r)
	if err != nil || !present {
		return nil, err
	}
	if !auth.PlausibleToken(tok) {
		return nil, errBadSession
	}
	ctx := r.Context()
	row, err := a.store.SessionPrincipal(ctx, auth.HashToken(tok))
	if errors.Is(err, db.ErrNotFound) {
		return nil, errBadSession
	}
	if err != nil {
		return nil, err
	}
	if !row.DbNow.Before(sessionExpiry(row.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt)) {
		return nil, errBadSession
	}
	if row.DbNow.Sub(row.LastSeenAt) > sessionTouchEvery {
		if err := a.store.SessionTouch(ctx, row.SessionID); err != nil {
			return nil, err
		}
	}
	return &Principal{
		ProfileID:    row.ProfileID,
		SessionID:    row.SessionID,
		Email:        row.Email,
		Role:         row.Role,
		ExecPosition: deref(row.ExecPosition),
		ExecSubteam:  deref(row.ExecSubteam),
	}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// setSessionCookie hands the token to browsers as an HttpOnly cookie.
func (s *Server) setSessionCookie(w http.ResponseWriter, token string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name:     sessionCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   int(maxAge.Seconds()),
		HttpOnly: true,
		Secure:   s.cfg.SecureCookies(),
		SameSite: http.SameSiteLaxMode,
	})
}
