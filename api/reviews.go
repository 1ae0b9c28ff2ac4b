package api

import (
	"net/http"

	"hackdesk/db"
	"hackdesk/internal/feature/review"
)

// reviewer is the caller as the review rules see them.
func reviewer(p *Principal) review.Reviewer {
	return review.Reviewer{ProfileID: p.ProfileID, Email: p.Email, SeesNotes: p.Role == "superadmin"}
}

// nextApplication is GET /api/applications/random: the application the
// queue gives the caller (review.Assign), in the reviewer view, redacted
// when the review settings are blind.
func (s *Server) nextApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var out review.Assignment
	err := s.store.InTxGeneric(ctx, func(q *db.Queries) (err error) {
		out, err = review.Assign(ctx, q, &s.queueSizes, s.blob, s.log, reviewer(principalFrom(ctx)))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
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
	err := s.store.InTxGeneric(ctx, func(q *db.Queries) (err error) {
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

// skipReview is POST /api/review/skip (review.Skip): the application
// goes after every other one in the caller's queue.
func (s *Server) skipReview(w http.ResponseWriter, r *http.Request) error {
	var req review.SkipRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	out, err := review.Skip(ctx, s.store.Queries, reviewer(principalFrom(ctx)), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// reviewSettings is GET /api/admin/review-settings (superadmin).
func (s *Server) reviewSettings(w http.ResponseWriter, r *http.Request) error {
	out, err := review.LoadSettingsWithHistory(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// patchReviewSettings is PATCH /api/admin/review-settings (superadmin):
// the change is recorded with the caller (review.UpdateSettings).
func (s *Server) patchReviewSettings(w http.ResponseWriter, r *http.Request) error {
	var body review.SettingsPatch
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var out review.SettingsWithRubric
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = review.UpdateSettings(ctx, q, principalFrom(ctx).ProfileID, body)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
