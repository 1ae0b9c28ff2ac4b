package api

import (
	"net/http"

	"hackdesk/internal/feature/account"
)

// searchUsers is GET /api/users/emails?q=&limit=: confirmed accounts whose
// name or email contains q, never the caller (account.SearchConfirmed). q
// needs at least account.MinSearchLen characters, and each caller has a
// rate limit, so the list of members cannot be harvested.
func (s *Server) searchUsers(w http.ResponseWriter, r *http.Request) error {
	me := principalFrom(r.Context()).ProfileID
	if err := allow(over(w, r, s.limits.Search, me.String())); err != nil {
		return err
	}
	search, err := account.ParseSearch(r.URL.Query().Get("q"), r.URL.Query().Get("limit"))
	if err != nil {
		return err
	}
	out, err := account.SearchConfirmed(r.Context(), s.store.Queries, me, search)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"emails": out})
	return nil
}
