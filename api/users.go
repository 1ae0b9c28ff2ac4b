package api

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
)

type userEmailJSON struct {
	ID          uuid.UUID `json:"id"`
	Email       string    `json:"email"`
	DisplayName *string   `json:"display_name"`
}

// likeEscaper escapes LIKE's wildcards in user input.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// minSearchLen is the fewest characters a team search needs: a shorter
// query would page through every account. (A whole email address is always
// longer.)
const minSearchLen = 3

// searchUsers is GET /api/users/emails?q=&limit=: confirmed accounts whose
// name or email contains q, never the caller. q needs at least
// minSearchLen characters, and each caller has a rate limit, so the list
// of members cannot be harvested.
func (s *Server) searchUsers(w http.ResponseWriter, r *http.Request) error {
	caller := principalFrom(r.Context()).ProfileID
	if err := allow(s.limits.search.over(w, r, caller.String())); err != nil {
		return err
	}
	limit := 20
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 50 {
			return apperr.ValidationFailed(apperr.Fields{"limit": "must be a whole number from 1 to 50"})
		}
		limit = n
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	switch n := utf8.RuneCountInString(q); {
	case n < minSearchLen:
		return apperr.ValidationFailed(apperr.Fields{"q": "must be at least 3 characters of a name or email, or a whole email address"})
	case n > 100:
		return apperr.ValidationFailed(apperr.Fields{"q": "must be at most 100 characters"})
	}
	rows, err := s.store.ProfileSearchConfirmed(r.Context(), db.ProfileSearchConfirmedParams{
		CallerID: caller, Pattern: "%" + likeEscaper.Replace(q) + "%", MaxRows: int32(limit),
	})
	if err != nil {
		return err
	}
	out := make([]userEmailJSON, len(rows))
	for i, p := range rows {
		out[i] = userEmailJSON{ID: p.ID, Email: p.Email, DisplayName: p.DisplayName}
	}
	writeJSON(w, http.StatusOK, map[string]any{"emails": out})
	return nil
}
