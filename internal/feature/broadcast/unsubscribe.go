package broadcast

import (
	"context"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/signing"
)

// UnsubscribeSigner signs unsubscribe tokens with the key derived from
// SIGNING_KEY for that purpose only.
func UnsubscribeSigner(master []byte) signing.Signer {
	return signing.New(master, signing.PurposeUnsubscribe)
}

// UnsubscribeToken is the signed token naming a profile. It does not
// expire: a link in an old email keeps working, as RFC 8058 expects.
func UnsubscribeToken(s signing.Signer, profileID uuid.UUID) string {
	return s.Seal(profileID.String())
}

// ErrBadToken is returned by OpenUnsubscribeToken for a token that is not
// one of ours.
var ErrBadToken = signing.ErrBadSignature

// OpenUnsubscribeToken returns the profile an unsubscribe token names, or
// ErrBadToken.
func OpenUnsubscribeToken(s signing.Signer, token string) (uuid.UUID, error) {
	msg, err := s.Open(token)
	if err != nil {
		return uuid.Nil, ErrBadToken
	}
	id, err := uuid.Parse(msg)
	if err != nil {
		return uuid.Nil, ErrBadToken
	}
	return id, nil
}

// UnsubscribePath is the route a one-click unsubscribe posts to.
const UnsubscribePath = "/api/unsubscribe"

// UnsubscribeLink is the profile's unsubscribe URL: mail clients POST
// "List-Unsubscribe=One-Click" to it (RFC 8058); opened in a browser (the
// link at the foot of every broadcast email) it shows a page whose button
// posts the same, since a GET must not unsubscribe (link checkers and
// scanners follow links).
func UnsubscribeLink(publicURL string, s signing.Signer, profileID uuid.UUID) string {
	return strings.TrimRight(publicURL, "/") + UnsubscribePath + "?token=" + url.QueryEscape(UnsubscribeToken(s, profileID))
}

// UnsubscribeHeaders are the RFC 8058 one-click headers of an email to the
// profile.
func UnsubscribeHeaders(publicURL string, s signing.Signer, profileID uuid.UUID) map[string]string {
	link := UnsubscribeLink(publicURL, s, profileID)
	return map[string]string{
		"List-Unsubscribe":      "<" + link + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}
}

// ErrBadLink is the 400 of an unsubscribe link whose token is missing or
// not one of ours. It says nothing of whether a profile exists.
var ErrBadLink = apperr.WithMessage(apperr.Invalid, "Invalid unsubscribe link",
	"The link is incomplete or was not made by this service")

// Unsubscribe clears the profile's marketing_opt_in, in the transaction
// behind q, so marketing broadcasts skip them; doing it again changes
// nothing. The profile is the one an unsubscribe token names
// (OpenUnsubscribeToken; ErrBadLink for a token that names none).
func Unsubscribe(ctx context.Context, q *db.Queries, profileID uuid.UUID) error {
	_, err := q.ProfileUnsubscribe(ctx, profileID)
	return err
}
