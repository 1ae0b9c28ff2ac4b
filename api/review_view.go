package api

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/storage"
)

// TeamMember is a teammate with their display name.
type TeamMember struct {
	Email       string  `json:"email"`
	DisplayName *string `json:"display_name"`
}

// ReviewApplication is the reviewer's view of an application.
type ReviewApplication struct {
	applicationJSON
	ResumeURL            *string      `json:"resume_url"`
	TeamMembersWithNames []TeamMember `json:"team_members_with_names"`
	// The question-bank answers with their prompts (an archived
	// question's prompt included).
	QuestionAnswers []answerJSON `json:"question_answers"`
}

// ReviewView loads an application for reviewers: every field, a signed
// resume link, the team with display names and the question-bank answers
// with their prompts, in two queries plus one presign. It returns db.ErrNotFound for an unknown id.
func ReviewView(ctx context.Context, store *db.Store, blob *storage.Store, id uuid.UUID) (ReviewApplication, error) {
	row, err := store.ApplicationReviewView(ctx, id)
	if err != nil {
		return ReviewApplication{}, err
	}
	return reviewViewOf(ctx, store.Queries, blob, row.Application, row.TeamMembersWithNames)
}

// reviewViewOf completes a loaded row: team names decoded, answers
// loaded, resume signed.
func reviewViewOf(ctx context.Context, q *db.Queries, blob *storage.Store, a db.Application, team json.RawMessage) (ReviewApplication, error) {
	out := ReviewApplication{applicationJSON: toApplicationJSON(a)}
	if err := json.Unmarshal(team, &out.TeamMembersWithNames); err != nil {
		return out, err
	}
	answers, err := answersOf(ctx, q, a.ID)
	if err != nil {
		return out, err
	}
	out.Answers = answerMap(answers[a.ID])
	out.QuestionAnswers = answerList(answers[a.ID])
	if a.ResumeKey != nil {
		link, err := blob.PresignGet(ctx, *a.ResumeKey, *a.ResumeName, resumeLinkTTL)
		if err != nil {
			return out, err
		}
		out.ResumeURL = &link
	}
	return out, nil
}
