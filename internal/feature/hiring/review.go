package hiring

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// ReviewFilter is the query of the review list: the term (TermOf), and
// optionally a status, a position and a name or email match. Limit and
// Offset are the page.
type ReviewFilter struct {
	TermID     string
	Status     *string
	PositionID *string
	Q          *string
	Limit      int32
	Offset     int32

	positionID *uuid.UUID
	q          *string
}

// Validate checks the filters and keeps their parsed forms.
func (f *ReviewFilter) Validate() apperr.Fields {
	fields := apperr.Fields{}
	if f.Status != nil && !Status(*f.Status).Valid() {
		fields.Add("status", "must be one of "+joinSet(Statuses()))
	}
	f.positionID = nil
	if f.PositionID != nil {
		id, err := uuid.Parse(*f.PositionID)
		if err != nil {
			fields.Add("position_id", "must be a UUID")
		}
		f.positionID = &id
	}
	f.q = nil
	if f.Q != nil {
		v := strings.TrimSpace(*f.Q)
		if len(v) > 200 {
			fields.Add("q", "must be at most 200 characters")
		}
		if v != "" {
			f.q = &v
		}
	}
	return fields
}

// ApplicantRef is the applicant of a review item.
type ApplicantRef struct {
	ProfileID   uuid.UUID `json:"profile_id"`
	DisplayName *string   `json:"display_name"`
	Email       string    `json:"email"`
}

// ReviewItem is one selection in the review list, with the answers that
// concern its position.
type ReviewItem struct {
	SelectionID   uuid.UUID    `json:"selection_id"`
	ApplicationID uuid.UUID    `json:"application_id"`
	Status        string       `json:"status"`
	Position      PositionRef  `json:"position"`
	Applicant     ApplicantRef `json:"applicant"`
	Answers       []AnswerView `json:"answers"`
	UpdatedAt     time.Time    `json:"updated_at"`
	// AllowedStatuses is where the caller may move the selection
	// (AllowedStatuses for their role).
	AllowedStatuses []Status `json:"allowed_statuses"`
	// ResumeURL is a signed download link of the applicant's résumé
	// (ResumeLinkTTL), nil without one.
	ResumeURL *string `json:"resume_url"`
}

// ResumeLinkTTL is how long a review item's résumé link is valid.
const ResumeLinkTTL = time.Hour

// ResumeSigner signs the download link of a résumé object.
type ResumeSigner interface {
	PresignGet(ctx context.Context, key, filename string, ttl time.Duration) (string, error)
}

// The application form's two fixed written answers come first in a review
// item's answers, under their field names; the question-bank answers
// follow under their question ids.
var formQuestions = []struct{ id, prompt string }{
	{"q1_answer", "Question 1"},
	{"q2_answer", "Question 2"},
}

// ReviewList is one page of a term's selections in the scope (a validated
// filter), oldest change first, and the total across every page; each
// item carries the moves role allows from its status and its résumé's
// link signed by blob (none when blob is nil). With no term yet the list
// is empty.
func ReviewList(ctx context.Context, q *db.Queries, blob ResumeSigner, scope Scope, role Role, f ReviewFilter) ([]ReviewItem, int64, error) {
	t, err := TermOf(ctx, q, f.TermID)
	if errors.Is(err, ErrNoTerm) {
		return []ReviewItem{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var subteam *string
	if !scope.All {
		subteam = &scope.Subteam
	}
	params := db.SelectionReviewListParams{TermID: t.ID, Subteam: subteam,
		Status: f.Status, PositionID: f.positionID, Q: f.q, MaxRows: f.Limit, Skip: f.Offset}
	rows, err := q.SelectionReviewList(ctx, params)
	if err != nil {
		return nil, 0, err
	}
	var total int64
	if len(rows) > 0 {
		total = rows[0].Total
	} else if params.Skip > 0 {
		// A page past the end has no row to carry the total: count from
		// the first row instead.
		params.MaxRows, params.Skip = 1, 0
		first, err := q.SelectionReviewList(ctx, params)
		if err != nil {
			return nil, 0, err
		}
		if len(first) > 0 {
			total = first[0].Total
		}
	}
	appIDs := make([]uuid.UUID, len(rows))
	for i, row := range rows {
		appIDs[i] = row.ApplicationID
	}
	bank, err := AnswersOf(ctx, q, appIDs...)
	if err != nil {
		return nil, 0, err
	}
	items := make([]ReviewItem, len(rows))
	for i, row := range rows {
		answers := []AnswerView{}
		for j, a := range []*string{row.Q1Answer, row.Q2Answer} {
			if a != nil && *a != "" {
				answers = append(answers, AnswerView{QuestionID: formQuestions[j].id, Prompt: formQuestions[j].prompt, Answer: *a})
			}
		}
		// Then the question-bank answers that concern this position: the
		// general questions' and this position's own.
		for _, a := range bank[row.ApplicationID] {
			if len(a.PositionIds) == 0 || slices.Contains(a.PositionIds, row.PositionID) {
				answers = append(answers, AnswerView{QuestionID: a.QuestionID.String(), Prompt: a.Prompt, Answer: a.Answer})
			}
		}
		items[i] = ReviewItem{SelectionID: row.ID, ApplicationID: row.ApplicationID, Status: row.Status,
			Position:  PositionRef{ID: row.PositionID, Title: row.PositionTitle, Subteam: row.PositionSubteam},
			Applicant: ApplicantRef{ProfileID: row.ProfileID, DisplayName: row.DisplayName, Email: row.Email},
			Answers:   answers, UpdatedAt: row.UpdatedAt, AllowedStatuses: AllowedStatuses(role, Status(row.Status))}
		if blob != nil && row.ResumeKey != nil && row.ResumeName != nil {
			link, err := blob.PresignGet(ctx, *row.ResumeKey, *row.ResumeName, ResumeLinkTTL)
			if err != nil {
				return nil, 0, err
			}
			items[i].ResumeURL = &link
		}
	}
	return items, total, nil
}
