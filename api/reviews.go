package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/application"
	"hackdesk/db"
)

var (
	errQueueEmpty       = apperr.New(apperr.NotFound, "No applications left to review")
	errReviewAppMissing = apperr.New(apperr.NotFound, "Application not found")
	errAlreadyReviewed  = apperr.WithMessage(apperr.Conflict, "Already reviewed", "You have already reviewed this application")
)

// nextApplication is GET /api/applications/random: the application the
// assignment rule gives the caller, in the reviewer view (one query). The
// rule never serves the caller's own application nor one whose team lists
// the caller's email.
func (s *Server) nextApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	me := principalFrom(ctx)
	row, err := s.store.ApplicationNextForReviewerView(ctx, db.ApplicationNextForReviewerViewParams{
		ReviewerID: me.ProfileID, ReviewerEmail: me.Email,
	})
	if errors.Is(err, db.ErrNotFound) {
		return errQueueEmpty
	}
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

// scoreRanges are the inclusive maxima of the four scores (minimum 0).
var scoreRanges = []struct {
	name string
	max  int32
}{{"resume_score", 3}, {"links_score", 2}, {"q1_score", 7}, {"q2_score", 3}}

type reviewRequest struct {
	ApplicationID string `json:"application_id"`
	ResumeScore   *int32 `json:"resume_score"`
	LinksScore    *int32 `json:"links_score"`
	Q1Score       *int32 `json:"q1_score"`
	Q2Score       *int32 `json:"q2_score"`
}

func (r *reviewRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ApplicationID); err != nil {
		f.Add("application_id", "must be a UUID")
	}
	for i, v := range []*int32{r.ResumeScore, r.LinksScore, r.Q1Score, r.Q2Score} {
		rng := scoreRanges[i]
		switch {
		case v == nil:
			f.Add(rng.name, "is required")
		case *v < 0 || *v > rng.max:
			f.Add(rng.name, fmt.Sprintf("must be from 0 to %d", rng.max))
		}
	}
	return f
}

type reviewJSON struct {
	ID            uuid.UUID `json:"id"`
	ApplicationID uuid.UUID `json:"application_id"`
	ReviewerID    uuid.UUID `json:"reviewer_id"`
	ResumeScore   int32     `json:"resume_score"`
	LinksScore    int32     `json:"links_score"`
	Q1Score       int32     `json:"q1_score"`
	Q2Score       int32     `json:"q2_score"`
	ReviewedAt    time.Time `json:"reviewed_at"`
}

func toReviewJSON(r db.Review) reviewJSON {
	return reviewJSON{ID: r.ID, ApplicationID: r.ApplicationID, ReviewerID: r.ReviewerID,
		ResumeScore: r.ResumeScore, LinksScore: r.LinksScore, Q1Score: r.Q1Score, Q2Score: r.Q2Score,
		ReviewedAt: r.ReviewedAt}
}

// submitReview is POST /api/review/submit. One statement inserts the
// review only for a submitted application that is neither the caller's own
// nor one whose team lists the caller, and returns the caller's new total; the trigger moves the counters in its
// transaction. When nothing was inserted, a second look tells the client
// why.
func (s *Server) submitReview(w http.ResponseWriter, r *http.Request) error {
	var req reviewRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx)
	appID := uuid.MustParse(req.ApplicationID)
	row, err := s.store.ReviewInsertChecked(ctx, db.ReviewInsertCheckedParams{
		ApplicationID: appID, ReviewerID: me.ProfileID, ReviewerEmail: me.Email, ResumeScore: *req.ResumeScore,
		LinksScore: *req.LinksScore, Q1Score: *req.Q1Score, Q2Score: *req.Q2Score,
	})
	if errors.Is(err, db.ErrNotFound) {
		err = s.whyNotReviewed(ctx, appID, me)
	}
	if err != nil {
		return err
	}
	review := db.Review{ID: row.ID, ApplicationID: row.ApplicationID, ReviewerID: row.ReviewerID,
		ResumeScore: row.ResumeScore, LinksScore: row.LinksScore, Q1Score: row.Q1Score, Q2Score: row.Q2Score,
		ReviewedAt: row.ReviewedAt}
	writeJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": "Review submitted", "review": toReviewJSON(review), "total_reviews": row.TotalReviews,
	})
	return nil
}

// whyNotReviewed explains a review that was not inserted: unknown or draft
// 404, a conflict of interest (own application, or listed on its team)
// 403 naming it, else a review already given 409.
func (s *Server) whyNotReviewed(ctx context.Context, appID uuid.UUID, me *Principal) error {
	app, err := s.store.ApplicationReviewConflict(ctx, appID)
	switch {
	case errors.Is(err, db.ErrNotFound), err == nil && application.Status(app.Status) != application.StatusSubmitted:
		return errReviewAppMissing
	case err != nil:
		return err
	}
	if err := conflictErr(conflictOf(me, app.ProfileID, app.TeamMembers), "review"); err != nil {
		return err
	}
	return errAlreadyReviewed
}
