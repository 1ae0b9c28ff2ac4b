package account

import (
	"context"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/freetext"
)

// The team search finds a person by the start of a word of their name or
// of their email's local part ("lov" finds Ada Lovelace and
// ada.lovelace@…), or by their whole email; never by the middle of a word
// or by the domain, and never more than MaxSearchRows accounts at once.
// The API also holds each caller to a daily quota of accounts listed.
const (
	// MinSearchLen is the fewest characters a word search needs: a
	// shorter one would page through every account.
	MinSearchLen = 3
	// MaxSearchRows is the most accounts one search answers, whatever
	// its limit asks.
	MaxSearchRows = 8
)

// wordBreaks are the characters between the words of a name or an
// email's local part (and of a query): spaces and the punctuation people
// put in names and addresses. The query ProfileSearchByWords splits on
// the same set.
const wordBreaks = " .'+_-"

// Search is a team-member search: either the words a name or local part
// starts with (lower case, one space between them), or a whole email
// address; and how many accounts to answer.
type Search struct {
	Q     string
	Email bool
	Limit int32
}

// ParseSearch reads ?q=&limit=. A q holding "@" is a whole email address
// (lower-cased and trimmed); control and format characters are refused
// (freetext.Line); any other q is split into words at spaces and
// wordBreaks (joined again by single spaces) and needs MinSearchLen
// characters other than those spaces; q has at most 100 characters. limit is 1 to 50 (a client's page size: the answer
// holds at most MaxSearchRows), MaxSearchRows when absent. The limit is
// checked first.
func ParseSearch(q, limit string) (Search, error) {
	s := Search{Limit: MaxSearchRows}
	if limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > 50 {
			return s, apperr.ValidationFailed(apperr.Fields{"limit": "must be a whole number from 1 to 50"})
		}
		s.Limit = int32(min(n, MaxSearchRows))
	}
	q = strings.ToLower(strings.TrimSpace(q))
	switch {
	case utf8.RuneCountInString(q) > 100:
		return s, apperr.ValidationFailed(apperr.Fields{"q": "must be at most 100 characters"})
	case freetext.Line(q) != "":
		return s, apperr.ValidationFailed(apperr.Fields{"q": freetext.Line(q)})
	}
	if strings.Contains(q, "@") {
		s.Q, s.Email = q, true
		return s, nil
	}
	s.Q = strings.Join(strings.FieldsFunc(q, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(wordBreaks, r)
	}), " ")
	if utf8.RuneCountInString(strings.ReplaceAll(s.Q, " ", "")) < MinSearchLen {
		return s, apperr.ValidationFailed(apperr.Fields{"q": "must be at least 3 characters of the start of a name, or a whole email address"})
	}
	return s, nil
}

// UserEmail is an account a search found.
type UserEmail struct {
	ID          uuid.UUID `json:"id"`
	Email       string    `json:"email"`
	DisplayName *string   `json:"display_name"`
}

// SearchConfirmed finds, alphabetically, at most max (and s.Limit)
// confirmed accounts other than the caller's that s matches: the one
// whose email is s.Q, or those with a word of the name or of the email's
// local part starting with s.Q's words.
func SearchConfirmed(ctx context.Context, q *db.Queries, caller uuid.UUID, s Search, max int) ([]UserEmail, error) {
	rows := int32(min(int(s.Limit), max))
	if rows <= 0 {
		return []UserEmail{}, nil
	}
	var found []db.ProfileSearchByWordsRow
	var err error
	if s.Email {
		var byEmail []db.ProfileSearchByEmailRow
		byEmail, err = q.ProfileSearchByEmail(ctx, db.ProfileSearchByEmailParams{CallerID: caller, Email: s.Q})
		for _, p := range byEmail {
			found = append(found, db.ProfileSearchByWordsRow(p))
		}
	} else {
		found, err = q.ProfileSearchByWords(ctx, db.ProfileSearchByWordsParams{
			CallerID: caller, Pattern: db.LikeWordPrefix(s.Q), MaxRows: rows,
		})
	}
	if err != nil {
		return nil, err
	}
	out := make([]UserEmail, len(found))
	for i, p := range found {
		out[i] = UserEmail{ID: p.ID, Email: p.Email, DisplayName: p.DisplayName}
	}
	return out, nil
}
