package api

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// sessionJSON is one of the caller's sessions. The token (and its hash)
// never leaves the server: the id names a session.
type sessionJSON struct {
	ID         uuid.UUID `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastSeenAt time.Time `json:"last_seen_at"`
	ExpiresAt  time.Time `json:"expires_at"`
	Current    bool      `json:"current"`
}

// listSessions is GET /api/auth/sessions: the caller's live sessions,
// newest first, each with when it ends under the caller's current role and
// whether it is the one making this request.
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p := principalFrom(ctx)
	rows, err := s.store.SessionListForProfile(ctx, p.ProfileID)
	if err != nil {
		return err
	}
	out := []sessionJSON{}
	for _, row := range rows {
		end := sessionExpiry(p.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt)
		if !row.DbNow.Before(end) {
			continue
		}
		out = append(out, sessionJSON{
			ID: row.ID, CreatedAt: row.CreatedAt, LastSeenAt: row.LastSeenAt, ExpiresAt: end,
			Current: row.ID == p.SessionID,
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
	return nil
}

// revokeOtherSessions is DELETE /api/auth/sessions: signs the caller out
// everywhere except this session and answers how many live sessions ended.
func (s *Server) revokeOtherSessions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p := principalFrom(ctx)
	rows, err := s.store.SessionRevokeOthers(ctx, db.SessionRevokeOthersParams{ProfileID: p.ProfileID, KeepID: p.SessionID})
	if err != nil {
		return err
	}
	revoked := 0
	for _, row := range rows {
		if row.DbNow.Before(sessionExpiry(p.Role, row.CreatedAt, row.LastSeenAt, row.ExpiresAt)) {
			revoked++
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "revoked": revoked})
	return nil
}
