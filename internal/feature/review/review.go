// Package review holds the reviews of hackathon applications: the score
// rules, the queue that gives a reviewer the next application, the
// submission of a review, the admin table of applications with their
// reviews, and the analytics (leaderboard, statistics, dashboard). The
// API's handlers decode, call a function here and encode.
//
// A reviewer is described by Reviewer, the input of every rule that
// depends on who reviews (the queue, the submission, the reviews shown);
// the scores are described by Criteria, the one table of what a review
// grades. The review settings (blind review, the queue's cap; settings.go)
// and the normalized scores (computed by the views of migration 00019)
// sit beside these two.
package review

import (
	"fmt"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/apperr"
)

// Criterion is one score of a review: its name (the JSON field and the
// reviews column) and its inclusive maximum; the minimum is 0.
type Criterion struct {
	Name string
	Max  int32
}

// Check returns why v is not a score of c, or "" when it is one.
func (c Criterion) Check(v *int32) string {
	switch {
	case v == nil:
		return "is required"
	case *v < 0 || *v > c.Max:
		return fmt.Sprintf("must be from 0 to %d", c.Max)
	}
	return ""
}

// Criteria are the scores a review gives, in the order of Request's
// fields. They match the CHECK constraints of the reviews table
// (migration 00004).
var Criteria = []Criterion{{"resume_score", 3}, {"links_score", 2}, {"q1_score", 7}, {"q2_score", 3}}

// Reviewer is who reviews: their account (never their own application)
// and their email (never an application whose team lists it). Their own
// application's team, the third side of the conflict-of-interest rule, is
// read with the application at hand.
type Reviewer struct {
	ProfileID uuid.UUID
	Email     string
}

// Errors the API answers as they are.
var (
	ErrQueueEmpty          = apperr.New(apperr.NotFound, "No applications left to review")
	ErrApplicationNotFound = apperr.New(apperr.NotFound, "Application not found")
	ErrAlreadyReviewed     = apperr.WithMessage(apperr.Conflict, "Already reviewed", "You have already reviewed this application")
)

// conflictErr is the 403 that refuses a review for a conflict of
// interest, naming it; nil for none.
func conflictErr(k coi.Kind) error {
	if k == coi.None {
		return nil
	}
	return apperr.WithMessage(apperr.Forbidden, "Forbidden", k.Message("review"))
}

// Request is the body of POST /api/review/submit.
type Request struct {
	ApplicationID string `json:"application_id"`
	ResumeScore   *int32 `json:"resume_score"`
	LinksScore    *int32 `json:"links_score"`
	Q1Score       *int32 `json:"q1_score"`
	Q2Score       *int32 `json:"q2_score"`
}

// Validate checks the application id and each score against Criteria.
func (r *Request) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ApplicationID); err != nil {
		f.Add("application_id", "must be a UUID")
	}
	for i, v := range []*int32{r.ResumeScore, r.LinksScore, r.Q1Score, r.Q2Score} {
		if why := Criteria[i].Check(v); why != "" {
			f.Add(Criteria[i].Name, why)
		}
	}
	return f
}

// View is a review as the API shows it.
type View struct {
	ID            uuid.UUID `json:"id"`
	ApplicationID uuid.UUID `json:"application_id"`
	ReviewerID    uuid.UUID `json:"reviewer_id"`
	ResumeScore   int32     `json:"resume_score"`
	LinksScore    int32     `json:"links_score"`
	Q1Score       int32     `json:"q1_score"`
	Q2Score       int32     `json:"q2_score"`
	ReviewedAt    time.Time `json:"reviewed_at"`
}

func toView(r db.ReviewInsertCheckedRow) View {
	return View{ID: r.ID, ApplicationID: r.ApplicationID, ReviewerID: r.ReviewerID,
		ResumeScore: r.ResumeScore, LinksScore: r.LinksScore, Q1Score: r.Q1Score, Q2Score: r.Q2Score,
		ReviewedAt: r.ReviewedAt}
}
