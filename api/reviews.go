package api

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/review"
	"hackdesk/storage"
)

// ReviewView is the reviewer's view of application id
// (review.ApplicationView); db.ErrNotFound for an unknown id.
func ReviewView(ctx context.Context, store *db.Store, blob *storage.Store, log *slog.Logger, id uuid.UUID) (review.Application, error) {
	return review.ApplicationView(ctx, store.Queries, blob, log, id)
}

// reviewer is the caller as the review rules see them.
func reviewer(p *Principal) review.Reviewer {
	return review.Reviewer{ProfileID: p.ProfileID, Email: p.Email}
}

// nextApplication is GET /api/applications/random: the application the
// assignment rule gives the caller, in the reviewer view (review.NextView).
func (s *Server) nextApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	view, err := review.NextView(ctx, s.store.Queries, s.blob, s.log, reviewer(principalFrom(ctx)))
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
