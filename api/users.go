package api

import (
	"fmt"
	"net/http"
	"strconv"

	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/apperr"
)

// searchUsers is GET /api/users/emails?q=&limit=: confirmed accounts with
// a word of the name or of the email's local part starting with q, or
// whose email is q, never the caller, at most account.MaxSearchRows
// (account.SearchConfirmed). Each caller has a rate limit (requests a
// minute) and a daily quota of accounts listed (every account of every
// answer counts): a search lists at most what is left, and with nothing
// left it is 429 with Retry-After, so the directory cannot be harvested.
func (s *Server) searchUsers(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	key := me.String()
	if err := allow(over(w, r, s.limits.Search, key)); err != nil {
		return err
	}
	search, err := account.ParseSearch(r.URL.Query().Get("q"), r.URL.Query().Get("limit"))
	if err != nil {
		return err
	}
	quota := s.limits.SearchListed
	left, wait, err := quota.Left(ctx, key)
	if err != nil {
		return limiterDown(w, err)
	}
	if left == 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())))
		return apperr.WithMessage(apperr.RateLimited, "Too many requests", fmt.Sprintf(
			"The team search lists at most %d accounts a day; try again later", quota.Requests()))
	}
	out, err := account.SearchConfirmed(ctx, s.store.Queries, me, search, left)
	if err != nil {
		return err
	}
	quota.Spend(ctx, key, len(out))
	writeJSON(w, http.StatusOK, map[string]any{"emails": out})
	return nil
}
