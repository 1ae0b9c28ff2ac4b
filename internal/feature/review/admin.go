package review

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/apperr"
)

// Sorts are the columns the admin applications table sorts by;
// AdminApplicationList knows only these.
var Sorts = []string{"created_at", "name", "email", "university", "gender", "reviews", "score", "normalized_score"}

// Orders are the sort directions.
var Orders = []string{"asc", "desc"}

// maxSearch is the longest search of the admin table, in bytes.
const maxSearch = 100

// ListQuery is the query of the admin applications table: the edition, a
// search in the email or name, a status, a decision, an RSVP, a sort
// column and direction. Empty values mean the current edition, no search,
// every status, decision and RSVP, newest first.
type ListQuery struct {
	Hackathon                              uuid.UUID
	Q, Status, Decision, Rsvp, Sort, Order string
}

// DecisionFilters are the decisions the table filters by: a decision, or
// "none" for an application not decided on (drafts included).
var DecisionFilters = []string{"offer", "waitlist", "reject", "none"}

// RsvpFilters are the RSVPs the table filters by, of offers only: an
// answer, the expiry, or "pending" for an offer not answered yet.
var RsvpFilters = []string{"attending", "declined", "expired", "pending"}

// Validate checks each value against its set and fills the defaults.
func (lq *ListQuery) Validate() apperr.Fields {
	f := apperr.Fields{}
	lq.Sort = oneOf(f, "sort", lq.Sort, "created_at", Sorts)
	lq.Order = oneOf(f, "order", lq.Order, "desc", Orders)
	lq.Status = string(oneOf(f, "status", application.Status(lq.Status), "", application.Statuses()))
	lq.Decision = oneOf(f, "decision", lq.Decision, "", DecisionFilters)
	lq.Rsvp = oneOf(f, "rsvp", lq.Rsvp, "", RsvpFilters)
	lq.Q = strings.ToLower(strings.TrimSpace(lq.Q))
	if len(lq.Q) > maxSearch {
		f.Add("q", "must be at most 100 characters")
	}
	return f
}

// oneOf is v when it is in set, def when v is empty; otherwise it adds
// the field error and answers def.
func oneOf[T ~string](f apperr.Fields, name string, v, def T, set []T) T {
	if v == "" {
		return def
	}
	if slices.Contains(set, v) {
		return v
	}
	names := make([]string, len(set))
	for i, s := range set {
		names[i] = string(s)
	}
	f.Add(name, "must be one of "+strings.Join(names, ", "))
	return def
}

// filters are the query's filters as the list and count queries take
// them: nil where the query has none.
type filters struct{ status, decision, rsvp, pattern *string }

func (lq ListQuery) params() filters {
	orNil := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	f := filters{status: orNil(lq.Status), decision: orNil(lq.Decision), rsvp: orNil(lq.Rsvp)}
	if lq.Q != "" {
		f.pattern = orNil(db.LikeContains(lq.Q))
	}
	return f
}

// AdminRow is one row of the admin applications table.
type AdminRow struct {
	ID         uuid.UUID `json:"id"`
	Name       *string   `json:"name"`
	Email      string    `json:"email"`
	University *string   `json:"university"`
	Gender     *string   `json:"gender"`
	Reviews    int32     `json:"reviews"`
	Date       time.Time `json:"date"` // submitted, else created
	Status     string    `json:"status"`
	Decision   *string   `json:"decision"`
	Rsvp       *string   `json:"rsvp"`
	// The mean raw total (0-15) of the reviews and the mean of their
	// normalized scores (z); null when unreviewed.
	Score           *float64 `json:"score"`
	NormalizedScore *float64 `json:"normalized_score"`
}

func toAdminRow(a db.AdminApplicationListRow) AdminRow {
	date := a.CreatedAt
	if a.SubmittedAt != nil {
		date = *a.SubmittedAt
	}
	return AdminRow{
		ID: a.ID, Name: a.Name, Email: a.Email, University: a.University, Gender: a.Gender,
		Reviews: a.ReviewCount, Date: date, Status: a.Status, Decision: a.Decision, Rsvp: a.Rsvp,
		Score: a.Score, NormalizedScore: a.NormalizedScore,
	}
}

// List is one page of the admin applications table of the query's edition
// (drafts too) as r sees it, and the number of rows across every page: the
// scores of an application r has a conflict of interest with are null,
// and sort as unreviewed (as its details withhold its reviews). lq must
// have been validated.
func List(ctx context.Context, q *db.Queries, r Reviewer, lq ListQuery, limit, offset int32) ([]AdminRow, int64, error) {
	if lq.Hackathon == uuid.Nil {
		h, err := hackathon.Current(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		lq.Hackathon = h.ID
	}
	f := lq.params()
	rows, err := q.AdminApplicationList(ctx, db.AdminApplicationListParams{
		HackathonID: lq.Hackathon, ActorID: r.ProfileID, ActorEmail: r.Email,
		Status: f.status, Decision: f.decision, Rsvp: f.rsvp, Pattern: f.pattern,
		Sort: lq.Sort, OrderDir: lq.Order, PageLimit: limit, PageOffset: offset,
	})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.AdminApplicationCount(ctx, db.AdminApplicationCountParams{
		HackathonID: lq.Hackathon, Status: f.status, Decision: f.decision, Rsvp: f.rsvp, Pattern: f.pattern,
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]AdminRow, len(rows))
	for i, a := range rows {
		out[i] = toAdminRow(a)
	}
	return out, total, nil
}

// Each hands fn every row of the admin applications table of the query's
// edition, in the table's order and as r sees it (List's rules), one at a
// time as they are read: the CSV export of a whole edition holds one row,
// not the edition. lq must have been validated and name the edition.
func Each(ctx context.Context, q *db.Queries, r Reviewer, lq ListQuery, fn func(AdminRow) error) error {
	f := lq.params()
	return q.AdminApplicationEach(ctx, db.AdminApplicationListParams{
		HackathonID: lq.Hackathon, ActorID: r.ProfileID, ActorEmail: r.Email,
		Status: f.status, Decision: f.decision, Rsvp: f.rsvp, Pattern: f.pattern,
		Sort: lq.Sort, OrderDir: lq.Order,
	}, func(a db.AdminApplicationListRow) error { return fn(toAdminRow(a)) })
}

// CSVHeader is the first row of the admin table's CSV export.
var CSVHeader = []string{"id", "name", "email", "university", "gender", "reviews", "date", "status", "decision", "rsvp", "score", "normalized_score"}

// CSVTextCells are the columns of CSVHeader that hold free text (names,
// emails, what applicants typed), to be neutralised against spreadsheet
// formulas; the others are ids, numbers, times and fixed words.
var CSVTextCells = []int{1, 2, 3, 4, 8, 9}

// CSVRecord is a row of the admin table's CSV export (cells not yet
// neutralised against spreadsheet formulas); empty cells stand for null.
func (a AdminRow) CSVRecord() []string {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	num := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', 4, 64)
	}
	return []string{a.ID.String(), str(a.Name), a.Email, str(a.University), str(a.Gender), strconv.Itoa(int(a.Reviews)),
		a.Date.UTC().Format(time.RFC3339), a.Status, str(a.Decision), str(a.Rsvp), num(a.Score), num(a.NormalizedScore)}
}

// AdminReview is one review of an application with its reviewer.
type AdminReview struct {
	ID            uuid.UUID `json:"id"`
	ReviewerID    uuid.UUID `json:"reviewer_id"`
	ReviewerName  *string   `json:"reviewer_name"`
	ReviewerEmail string    `json:"reviewer_email"`
	ResumeScore   int32     `json:"resume_score"`
	LinksScore    int32     `json:"links_score"`
	Q1Score       int32     `json:"q1_score"`
	Q2Score       int32     `json:"q2_score"`
	ReviewedAt    time.Time `json:"reviewed_at"`
	// Total is the sum of the scores (0-15); NormalizedScore its z-score
	// (see review_scores in migration 00019).
	Total           int32   `json:"total"`
	NormalizedScore float64 `json:"normalized_score"`
	// Note is the reviewer's private note: shown to superadmins only
	// (null for everyone else, and when there is none).
	Note *string `json:"note"`
}

// ReviewsOf are the reviews of application id as r may see them, oldest
// first, each normalized within the application's edition. The reviews
// of an application r has a conflict of interest with (package coi: r's
// own, one whose team lists r, one whose applicant r's own application of
// the edition lists) are withheld: none, and hidden true. ErrApplicationNotFound for an
// unknown id.
func ReviewsOf(ctx context.Context, q *db.Queries, r Reviewer, id uuid.UUID) (reviews []AdminReview, hidden bool, err error) {
	app, err := q.ApplicationReviewConflict(ctx, db.ApplicationReviewConflictParams{ApplicationID: id, ActorID: r.ProfileID})
	if errors.Is(err, db.ErrNotFound) {
		return nil, false, ErrApplicationNotFound
	}
	if err != nil {
		return nil, false, err
	}
	reviews = []AdminReview{}
	if conflictOf(r, app) != coi.None {
		return reviews, true, nil
	}
	rows, err := q.ReviewsForApplication(ctx, db.ReviewsForApplicationParams{HackathonID: app.HackathonID, ApplicationID: id})
	if err != nil {
		return nil, false, err
	}
	for _, rv := range rows {
		var note *string
		if r.SeesNotes {
			note = rv.Note
		}
		reviews = append(reviews, AdminReview{Note: note,
			ID: rv.ID, ReviewerID: rv.ReviewerID, ReviewerName: rv.ReviewerName, ReviewerEmail: rv.ReviewerEmail,
			ResumeScore: rv.ResumeScore, LinksScore: rv.LinksScore, Q1Score: rv.Q1Score, Q2Score: rv.Q2Score,
			ReviewedAt: rv.ReviewedAt, Total: rv.Total, NormalizedScore: rv.Z,
		})
	}
	return reviews, false, nil
}
