package api

import (
	"net/http"

	"hackdesk/internal/feature/account"
)

// sessionStatus answers whether the caller is signed in, and as whom,
// always with 200: the web pages ask on every load, and a signed-out
// visitor is not an error (a 401 would be one in the browser's console).
// Invalid or expired credentials read as signed out.
func (s *Server) sessionStatus(w http.ResponseWriter, r *http.Request) error {
	p := principalFrom(r.Context())
	if p == nil {
		writeJSON(w, http.StatusOK, map[string]any{"user": nil})
		return nil
	}
	u, err := account.Load(r.Context(), s.store.Queries, p.ProfileID)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"user": withVolunteer(toUserJSON(u), p)})
	return nil
}
