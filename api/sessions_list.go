package api

import (
	"net/http"

	"hackdesk/internal/feature/account"
)

// caller is the signed-in caller as the session rules see them.
func caller(p *Principal) account.Caller {
	return account.Caller{ProfileID: p.ProfileID, SessionID: p.SessionID, Role: p.Role}
}

// listSessions is GET /api/auth/sessions: the caller's live sessions
// (account.Sessions).
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := account.Sessions(ctx, s.store.Queries, caller(principalFrom(ctx)))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
	return nil
}

// revokeOtherSessions is DELETE /api/auth/sessions: signs the caller out
// everywhere except this session and answers how many live sessions ended
// (account.RevokeOthers).
func (s *Server) revokeOtherSessions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	revoked, err := account.RevokeOthers(ctx, s.store.Queries, caller(principalFrom(ctx)))
	s.sessions.clear()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "revoked": revoked})
	return nil
}
