package account

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// MinSearchLen is the fewest characters a team search needs: a shorter
// query would page through every account. (A whole email address is always
// longer.)
const MinSearchLen = 3

// Search is a team-member search: part of a name or email, and how many
// accounts to answer.
type Search struct {
	Q     string
	Limit int32
}

// ParseSearch reads ?q=&limit=: q lower-cased and trimmed, from
// MinSearchLen to 100 characters; limit 1 to 50, 20 when absent. The limit
// is checked first.
func ParseSearch(q, limit string) (Search, error) {
	s := Search{Limit: 20}
	if limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > 50 {
			return s, apperr.ValidationFailed(apperr.Fields{"limit": "must be a whole number from 1 to 50"})
		}
		s.Limit = int32(n)
	}
	s.Q = strings.ToLower(strings.TrimSpace(q))
	switch n := utf8.RuneCountInString(s.Q); {
	case n < MinSearchLen:
		return s, apperr.ValidationFailed(apperr.Fields{"q": "must be at least 3 characters of a name or email, or a whole email address"})
	case n > 100:
		return s, apperr.ValidationFailed(apperr.Fields{"q": "must be at most 100 characters"})
	}
	return s, nil
}

// UserEmail is an account a search found.
type UserEmail struct {
	ID          uuid.UUID `json:"id"`
	Email       string    `json:"email"`
	DisplayName *string   `json:"display_name"`
}

// SearchConfirmed finds the confirmed accounts whose name or email holds
// s.Q, never the caller, alphabetically.
func SearchConfirmed(ctx context.Context, q *db.Queries, caller uuid.UUID, s Search) ([]UserEmail, error) {
	rows, err := q.ProfileSearchConfirmed(ctx, db.ProfileSearchConfirmedParams{
		CallerID: caller, Pattern: db.LikeContains(s.Q), MaxRows: s.Limit,
	})
	if err != nil {
		return nil, err
	}
	out := make([]UserEmail, len(rows))
	for i, p := range rows {
		out[i] = UserEmail{ID: p.ID, Email: p.Email, DisplayName: p.DisplayName}
	}
	return out, nil
}
