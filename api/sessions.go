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

// Session lifetimes: a session ends after a week without use or 30 days
// after login, whichever comes first, or when it is revoked (logout,
// password reset).
const (
	sessionIdle     = 7 * 24 * time.Hour
	sessionAbsolute = 30 * 24 * time.Hour
	// last_seen_at is written at most this often per session, so that
	// reads do not each cost a write.
	sessionTouchEvery = time.Minute
	sessionCookie     = "hackdesk_session"
)

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
	row, err := a.store.SessionPrincipal(ctx, db.SessionPrincipalParams{
		TokenHash: auth.HashToken(tok), IdleSeconds: sessionIdle.Seconds(),
	})
	if errors.Is(err, db.ErrNotFound) {
		return nil, errBadSession
	}
	if err != nil {
		return nil, err
	}
	if time.Since(row.LastSeenAt) > sessionTouchEvery {
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
