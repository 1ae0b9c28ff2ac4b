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
}

// ReviewView loads an application for reviewers: every field, a signed
// resume link and the team with display names, in one query plus one
// presign. It returns db.ErrNotFound for an unknown id.
func ReviewView(ctx context.Context, store *db.Store, blob *storage.Store, id uuid.UUID) (ReviewApplication, error) {
	row, err := store.ApplicationReviewView(ctx, id)
	if err != nil {
		return ReviewApplication{}, err
	}
	return reviewViewOf(ctx, blob, row.Application, row.TeamMembersWithNames)
}

// reviewViewOf completes a loaded row: team names decoded, resume signed.
func reviewViewOf(ctx context.Context, blob *storage.Store, a db.Application, team json.RawMessage) (ReviewApplication, error) {
	out := ReviewApplication{applicationJSON: toApplicationJSON(a)}
	if err := json.Unmarshal(team, &out.TeamMembersWithNames); err != nil {
		return out, err
	}
	if a.ResumeKey != nil {
		link, err := blob.PresignGet(ctx, *a.ResumeKey, *a.ResumeName, resumeLinkTTL)
		if err != nil {
			return out, err
		}
		out.ResumeURL = &link
	}
	return out, nil
}
