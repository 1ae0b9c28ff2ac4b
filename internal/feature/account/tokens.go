package account

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
)

// Purposes of the mailed one-time tokens (auth_tokens.purpose); each is
// also the kind of the email that carries it.
const (
	PurposeConfirm = "confirm"
	PurposeReset   = "reset"
)

// Lifetimes of the mailed one-time tokens.
const (
	ConfirmTTL = 24 * time.Hour
	ResetTTL   = 30 * time.Minute
)

// AccountExistsKind is the email to the owner of an address someone tried
// to sign up with again.
const AccountExistsKind = "account_exists"

// ErrBadToken answers a token that is unknown, used, expired or meant for
// another purpose.
var ErrBadToken = apperr.WithMessage(apperr.Invalid, "Invalid or expired token",
	"The link is invalid, already used or expired; ask for a new one")

// TokenRequest is a body that carries only a mailed token (the email
// confirmation).
type TokenRequest struct {
	Token string `json:"token"`
}

// Validate trims the token and requires it.
func (r *TokenRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Token = strings.TrimSpace(r.Token); r.Token == "" {
		f.Add("token", "is required")
	}
	return f
}

// displayName is the name an email greets p by: the display name, else
// the address.
func displayName(email string, name *string) string {
	if name != nil {
		return *name
	}
	return email
}

// mailToken issues a one-time token of the purpose for p (retiring older
// ones) and records the email with the link {publicURL}{path}?token=...
func mailToken(ctx context.Context, q *db.Queries, publicURL string, p db.Profile, purpose string, ttl time.Duration, path string) (mail.Ref, error) {
	if err := q.AuthTokenRetireAll(ctx, db.AuthTokenRetireAllParams{ProfileID: p.ID, Purpose: purpose}); err != nil {
		return mail.Ref{}, err
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return mail.Ref{}, err
	}
	t, err := q.AuthTokenInsert(ctx, db.AuthTokenInsertParams{
		ProfileID: p.ID, Purpose: purpose, TokenHash: hash, ExpiresAt: time.Now().Add(ttl),
	})
	if err != nil {
		return mail.Ref{}, err
	}
	link := baseURL(publicURL) + path + "?token=" + url.QueryEscape(tok)
	return mail.RecordRef(ctx, q, purpose+":"+t.ID.String(), purpose, p.Email,
		map[string]string{"name": displayName(p.Email, p.DisplayName), "link": link})
}

// mailAccountExists records the email telling the owner of email that
// someone tried to sign up with it: sign-in and reset links, no token.
func mailAccountExists(ctx context.Context, q *db.Queries, publicURL, email string) (mail.Ref, error) {
	p, err := q.ProfileGetByEmail(ctx, email)
	if err != nil {
		return mail.Ref{}, err
	}
	base := baseURL(publicURL)
	return mail.RecordRef(ctx, q, AccountExistsKind+":"+uuid.NewString(), AccountExistsKind, p.Email,
		map[string]string{"name": displayName(p.Email, p.DisplayName), "login": base + "/login", "reset": base + "/forgot-password"})
}

// useToken consumes a live token of the purpose.
func useToken(ctx context.Context, q *db.Queries, token, purpose string) (db.AuthToken, error) {
	if !auth.PlausibleToken(token) {
		return db.AuthToken{}, ErrBadToken
	}
	t, err := q.AuthTokenUse(ctx, db.AuthTokenUseParams{TokenHash: auth.HashToken(token), Purpose: purpose})
	if errors.Is(err, db.ErrNotFound) {
		return t, ErrBadToken
	}
	return t, err
}
