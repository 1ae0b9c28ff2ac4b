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
	"strings"
	"time"
	"unicode/utf8"

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
	// SeesNotes: the reviewers' private notes are shown to them (superadmins).
	SeesNotes bool
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
	// Note is the reviewer's private note (optional; superadmins read it
	// in the application's details). Blank is none.
	Note *string `json:"note"`
}

// NoteMax is the longest a note may be, in characters (the schema's CHECK).
const NoteMax = 2000

// note is the request's note trimmed, nil when blank.
func (r *Request) note() *string {
	if r.Note == nil {
		return nil
	}
	n := strings.TrimSpace(*r.Note)
	if n == "" {
		return nil
	}
	return &n
}

// Validate checks the application id, each score against Criteria and
// the note's length.
func (r *Request) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ApplicationID); err != nil {
		f.Add("application_id", "must be a UUID")
	}
	if n := r.note(); n != nil && utf8.RuneCountInString(*n) > NoteMax {
		f.Add("note", fmt.Sprintf("must be at most %d characters", NoteMax))
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
	Note          *string   `json:"note"`
	ReviewedAt    time.Time `json:"reviewed_at"`
}

func toView(r db.ReviewInsertCheckedRow) View {
	return View{ID: r.ID, ApplicationID: r.ApplicationID, ReviewerID: r.ReviewerID,
		ResumeScore: r.ResumeScore, LinksScore: r.LinksScore, Q1Score: r.Q1Score, Q2Score: r.Q2Score,
		Note: r.Note, ReviewedAt: r.ReviewedAt}
}
