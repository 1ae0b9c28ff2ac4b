package api

import (
	"net/http"
	"strings"
	"time"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/auth"
)

// sessionCookie carries the session token to browsers.
const sessionCookie = "hackdesk_session"

// sessionAuth authenticates with a Bearer token or the session cookie; both
// carry the same opaque token, of which only the SHA-256 is stored.
type sessionAuth struct {
	store *db.Store
	// cache keeps each session's principal for at most SessionCacheTTL
	// (nil: every request reads its session).
	cache *sessionCache
}

// sessionToken returns the token the request carries, whether it carries
// one, and an error for a malformed Authorization header.
func sessionToken(r *http.Request) (string, bool, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
			return "", true, account.ErrBadSession
		}
		return strings.TrimSpace(tok), true, nil
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		return c.Value, true, nil
	}
	return "", false, nil
}

// Authenticate loads the caller with their current role and exec role
// (account.Authenticate).
func (a sessionAuth) Authenticate(r *http.Request) (*Principal, error) {
	tok, present, err := sessionToken(r)
	if err != nil || !present {
		return nil, err
	}
	var key [32]byte
	if a.cache != nil && auth.PlausibleToken(tok) {
		copy(key[:], auth.HashToken(tok))
		if p, ok := a.cache.get(key); ok {
			return p, nil
		}
	}
	readAt := time.Now()
	row, err := account.Authenticate(r.Context(), a.store.Queries, tok)
	if err != nil {
		return nil, err
	}
	p := Principal{
		ProfileID:    row.ProfileID,
		SessionID:    row.SessionID,
		Email:        row.Email,
		Role:         row.Role,
		ExecPosition: deref(row.ExecPosition),
		ExecSubteam:  deref(row.ExecSubteam),
		Volunteer:    row.Volunteer,
	}
	if a.cache != nil {
		// The session's end on this process's clock: what is left of it
		// by the database's clock, from the moment before the read.
		left := account.SessionExpiry(row.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt).Sub(row.DbNow)
		a.cache.put(key, p, readAt, readAt.Add(left))
	}
	return &p, nil
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
