package api

import (
	"net/http"
	"strconv"
	"strings"

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

// searchUsers is GET /api/users/emails?q=&limit=: confirmed accounts whose
// name or email contains q, never the caller.
func (s *Server) searchUsers(w http.ResponseWriter, r *http.Request) error {
	limit := 20
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 50 {
			return apperr.ValidationFailed(apperr.Fields{"limit": "must be a whole number from 1 to 50"})
		}
		limit = n
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	if len(q) > 100 {
		return apperr.ValidationFailed(apperr.Fields{"q": "must be at most 100 characters"})
	}
	pattern := ""
	if q != "" {
		pattern = "%" + likeEscaper.Replace(q) + "%"
	}
	rows, err := s.store.ProfileSearchConfirmed(r.Context(), db.ProfileSearchConfirmedParams{
		CallerID: principalFrom(r.Context()).ProfileID, Pattern: pattern, MaxRows: int32(limit),
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
