package review

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/hiring"
)

// Application is an application as reviewers see it: every field, the
// signed resume links, the team with display names and the question-bank
// answers with their prompts.
type Application struct {
	application.View
	// Name is the applicant's display name (null when they have none).
	Name      *string `json:"name"`
	ResumeURL *string `json:"resume_url"`
	// ResumePreviewURL shows a PDF resume in place; null for a DOC or DOCX.
	ResumePreviewURL     *string                  `json:"resume_preview_url"`
	TeamMembersWithNames []application.TeamMember `json:"team_members_with_names"`
	// The question-bank answers with their prompts (an archived
	// question's prompt included).
	QuestionAnswers []hiring.AnswerView `json:"question_answers"`
}

// Redacted is v without who the applicant is: their name, email, phone,
// Discord, age, gender, ethnicity, country, university, program, year of
// study, experience level and hackathons attended are null, and their
// team (emails and display names) is empty. What is scored stays:
// the resume, the links, the written and question-bank answers. The
// fields are nulled rather than removed, so the view keeps its shape.
func (v Application) Redacted() Application {
	v.Name, v.Email, v.Phone, v.Discord = nil, nil, nil, nil
	v.Age, v.HackathonsAttended = nil, nil
	v.Program, v.YearOfStudy, v.ExperienceLevel = nil, nil, nil
	v.Gender, v.Ethnicity, v.Country, v.University = nil, nil, nil, nil
	v.TeamMembers = ""
	v.TeamMembersWithNames = []application.TeamMember{}
	return v
}

// viewOf completes a loaded row: team names decoded, answers loaded,
// resume links signed.
func viewOf(ctx context.Context, q *db.Queries, blob application.ResumeBlob, log *slog.Logger, a db.Application, name *string, team json.RawMessage) (Application, error) {
	out := Application{View: application.ToView(a), Name: name}
	var err error
	if out.TeamMembersWithNames, err = application.TeamNames(team); err != nil {
		return out, err
	}
	answers, err := hiring.AnswersOf(ctx, q, a.ID)
	if err != nil {
		return out, err
	}
	out.Answers = hiring.AnswerMap(answers[a.ID])
	out.QuestionAnswers = hiring.AnswerList(answers[a.ID])
	links, err := application.ResumeLinksOf(ctx, q, blob, log, a)
	if err != nil {
		return out, err
	}
	out.ResumeURL, out.ResumePreviewURL = links.Download, links.Preview
	return out, nil
}

// LoadView loads application id in the reviewer view, unredacted (the
// admin details), in two queries plus the presigns.
// ErrApplicationNotFound for an unknown id.
func LoadView(ctx context.Context, q *db.Queries, blob application.ResumeBlob, log *slog.Logger, id uuid.UUID) (Application, error) {
	row, err := q.ApplicationReviewView(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return Application{}, ErrApplicationNotFound
	}
	if err != nil {
		return Application{}, err
	}
	return viewOf(ctx, q, blob, log, row.Application, row.ApplicantName, row.TeamMembersWithNames)
}

// Assignment is GET /api/applications/random's answer: the application
// the queue gives the reviewer, redacted when Blind.
type Assignment struct {
	Application Application `json:"application"`
	Blind       bool        `json:"blind"`
	// Left is how many applications the queue holds for the reviewer,
	// this one included (Left).
	Left int32 `json:"left"`
	// Rubric is what a 0 and the top score of each criterion mean.
	Rubric Rubric `json:"rubric"`
}

// Assign is the application the queue (Next, under the settings' cap)
// gives r, in the reviewer view, redacted when the settings are blind.
// ErrQueueEmpty when there is none.
func Assign(ctx context.Context, q *db.Queries, sizes *QueueSizes, blob application.ResumeBlob, log *slog.Logger, r Reviewer) (Assignment, error) {
	s, rubric, err := loadAll(ctx, q)
	if err != nil {
		return Assignment{}, err
	}
	row, err := next(ctx, q, r, s)
	if err != nil {
		return Assignment{}, err
	}
	view, err := viewOf(ctx, q, blob, log, row.Application, row.ApplicantName, row.TeamMembersWithNames)
	if err != nil {
		return Assignment{}, err
	}
	if s.Blind {
		view = view.Redacted()
	}
	left, err := Left(ctx, q, sizes, r, s)
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Application: view, Blind: s.Blind, Left: max(left, 1), Rubric: rubric}, nil
}

// Details is GET /api/admin/applications/{id}'s answer: the application,
// never redacted, and its reviews as the caller may see them.
type Details struct {
	Application   Application   `json:"application"`
	Reviews       []AdminReview `json:"reviews"`
	ReviewsHidden bool          `json:"reviews_hidden"`
	// History is the decision and RSVP changes, oldest first.
	History []HistoryEntry `json:"history"`
}

// DetailsOf loads application id of edition hackathonID in the reviewer
// view with its reviews as r may see them (ReviewsOf) and its decision and
// RSVP history (HistoryOf). ErrApplicationNotFound for an unknown id or
// one of another edition.
func DetailsOf(ctx context.Context, q *db.Queries, blob application.ResumeBlob, log *slog.Logger, r Reviewer, hackathonID, id uuid.UUID) (Details, error) {
	view, err := LoadView(ctx, q, blob, log, id)
	if err != nil {
		return Details{}, err
	}
	if view.HackathonID != hackathonID {
		return Details{}, ErrApplicationNotFound
	}
	reviews, hidden, err := ReviewsOf(ctx, q, r, id) // not found: deleted meanwhile
	if err != nil {
		return Details{}, err
	}
	history, err := HistoryOf(ctx, q, id)
	if err != nil {
		return Details{}, err
	}
	return Details{Application: view, Reviews: reviews, ReviewsHidden: hidden, History: history}, nil
}
