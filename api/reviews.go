package api

import (
	"net/http"

	"hackdesk/db"
	"hackdesk/review"
)

// reviewer is the caller as the review rules see them.
func reviewer(p *Principal) review.Reviewer {
	return review.Reviewer{ProfileID: p.ProfileID, Email: p.Email}
}

// nextApplication is GET /api/applications/random: the application the
// assignment rule (review.Next) gives the caller, in the reviewer view.
func (s *Server) nextApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	row, err := review.Next(ctx, s.store.Queries, reviewer(principalFrom(ctx)))
	if err != nil {
		return err
	}
	view, err := reviewViewOf(ctx, s.store.Queries, s.blob, s.log, row.Application, row.TeamMembersWithNames)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"application": view})
	return nil
}

// submitReview is POST /api/review/submit (review.Submit).
func (s *Server) submitReview(w http.ResponseWriter, r *http.Request) error {
	var req review.Request
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	var out review.Submitted
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = review.Submit(ctx, q, reviewer(principalFrom(ctx)), req)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": "Review submitted", "review": out.Review, "total_reviews": out.TotalReviews,
	})
	return nil
}
