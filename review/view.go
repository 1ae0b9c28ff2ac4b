package review

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/google/uuid"

	"hackdesk/application"
	"hackdesk/db"
	"hackdesk/hiring"
)

// Application is the reviewer's view of an application: the owner's view
// with the signed resume links, the team with display names and the
// question-bank answers with their prompts.
type Application struct {
	application.View
	ResumeURL *string `json:"resume_url"`
	// ResumePreviewURL shows a PDF resume in place; null for a DOC or DOCX.
	ResumePreviewURL     *string                  `json:"resume_preview_url"`
	TeamMembersWithNames []application.TeamMember `json:"team_members_with_names"`
	// The question-bank answers with their prompts (an archived
	// question's prompt included).
	QuestionAnswers []hiring.AnswerView `json:"question_answers"`
}

// ApplicationView loads application id for reviewers, in two queries plus
// the presigns. It returns db.ErrNotFound for an unknown id.
func ApplicationView(ctx context.Context, q *db.Queries, blob application.ResumeBlob, log *slog.Logger, id uuid.UUID) (Application, error) {
	row, err := q.ApplicationReviewView(ctx, id)
	if err != nil {
		return Application{}, err
	}
	return viewOf(ctx, q, blob, log, row.Application, row.TeamMembersWithNames)
}

// NextView is the application the assignment rule (Next) gives r, in the
// reviewer's view; ErrQueueEmpty when none is left.
func NextView(ctx context.Context, q *db.Queries, blob application.ResumeBlob, log *slog.Logger, r Reviewer) (Application, error) {
	row, err := Next(ctx, q, r)
	if err != nil {
		return Application{}, err
	}
	return viewOf(ctx, q, blob, log, row.Application, row.TeamMembersWithNames)
}

// viewOf completes a loaded row: team names decoded, answers loaded,
// resume links signed.
func viewOf(ctx context.Context, q *db.Queries, blob application.ResumeBlob, log *slog.Logger, a db.Application, team json.RawMessage) (Application, error) {
	out := Application{View: application.ToView(a)}
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
