package api

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/storage"
)

// TeamMember is a teammate with their display name.
type TeamMember struct {
	Email       string  `json:"email"`
	DisplayName *string `json:"display_name"`
}

// teamNames decodes application_team_names (the SQL function every view
// of a team with its names uses).
func teamNames(raw json.RawMessage) ([]TeamMember, error) {
	var out []TeamMember
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ReviewApplication is the reviewer's view of an application.
type ReviewApplication struct {
	applicationJSON
	ResumeURL *string `json:"resume_url"`
	// ResumePreviewURL shows a PDF resume in place; null for a DOC or DOCX.
	ResumePreviewURL     *string      `json:"resume_preview_url"`
	TeamMembersWithNames []TeamMember `json:"team_members_with_names"`
	// The question-bank answers with their prompts (an archived
	// question's prompt included).
	QuestionAnswers []answerJSON `json:"question_answers"`
}

// ReviewView loads an application for reviewers: every field, the signed
// resume links, the team with display names and the question-bank answers
// with their prompts, in two queries plus the presigns. It returns
// db.ErrNotFound for an unknown id.
func ReviewView(ctx context.Context, store *db.Store, blob *storage.Store, log *slog.Logger, id uuid.UUID) (ReviewApplication, error) {
	row, err := store.ApplicationReviewView(ctx, id)
	if err != nil {
		return ReviewApplication{}, err
	}
	return reviewViewOf(ctx, store.Queries, blob, log, row.Application, row.TeamMembersWithNames)
}

// reviewViewOf completes a loaded row: team names decoded, answers
// loaded, resume links signed.
func reviewViewOf(ctx context.Context, q *db.Queries, blob *storage.Store, log *slog.Logger, a db.Application, team json.RawMessage) (ReviewApplication, error) {
	out := ReviewApplication{applicationJSON: toApplicationJSON(a)}
	var err error
	if out.TeamMembersWithNames, err = teamNames(team); err != nil {
		return out, err
	}
	answers, err := answersOf(ctx, q, a.ID)
	if err != nil {
		return out, err
	}
	out.Answers = answerMap(answers[a.ID])
	out.QuestionAnswers = answerList(answers[a.ID])
	links, err := resumeLinksOf(ctx, q, blob, log, a)
	if err != nil {
		return out, err
	}
	out.ResumeURL, out.ResumePreviewURL = links.Download, links.Preview
	return out, nil
}
