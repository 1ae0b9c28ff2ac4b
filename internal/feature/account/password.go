package account

import (
	"context"
	"errors"
	"strings"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
)

// ForgotRequest is the body of POST /api/auth/forgot-password.
type ForgotRequest struct {
	Email string `json:"email"`
}

// Validate requires the email (any text: an unknown one is answered alike).
func (r *ForgotRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if strings.TrimSpace(r.Email) == "" {
		f.Add("email", "is required")
	}
	return f
}

// ForgotMessage is the one answer to forgot-password, whether or not the
// email has an account.
const ForgotMessage = "If an account exists for that email, a reset link is on its way. It works once, within 30 minutes."

// RequestReset records the email with a reset link for the account of
// email, retiring its older links; none when there is no such account.
// The account's row stays locked until the transaction ends, so
// concurrent requests for one account take turns: each retires the token
// the one before it issued, and exactly one link stays live.
func RequestReset(ctx context.Context, q *db.Queries, publicURL, email string) ([]mail.Ref, error) {
	p, err := q.ProfileLockByEmail(ctx, strings.TrimSpace(email))
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ref, err := mailToken(ctx, q, publicURL, p, PurposeReset, ResetTTL, "/reset-password")
	if err != nil {
		return nil, err
	}
	return []mail.Ref{ref}, nil
}

// ResetRequest is the body of POST /api/auth/reset-password.
type ResetRequest struct {
	Token    string `json:"token"`
	Password string `json:"password" text:"any"`
}

// Validate requires the token and a password of an acceptable length; its
// strength against the account is CheckReset's.
func (r *ResetRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Token = strings.TrimSpace(r.Token); r.Token == "" {
		f.Add("token", "is required")
	}
	if why := auth.CheckPassword(r.Password); why != "" {
		f.Add("password", why)
	}
	return f
}

// CheckReset checks, without using it, that req's token is live, then the
// new password's strength against the token's account. It runs before the
// password is hashed, so a guessed or stale token costs no hash.
func CheckReset(ctx context.Context, q *db.Queries, req ResetRequest) error {
	if !auth.PlausibleToken(req.Token) {
		return ErrBadToken
	}
	live, err := q.AuthTokenLive(ctx, db.AuthTokenLiveParams{TokenHash: auth.HashToken(req.Token), Purpose: PurposeReset})
	if errors.Is(err, db.ErrNotFound) {
		return ErrBadToken
	}
	if err != nil {
		return err
	}
	name := ""
	if live.DisplayName != nil {
		name = *live.DisplayName
	}
	if why := auth.CheckNewPassword(req.Password, live.Email, name); why != "" {
		return apperr.ValidationFailed(apperr.Fields{"password": why})
	}
	return nil
}

// ResetPassword uses the reset token (once) and stores the password hash,
// confirms the email (holding the link proves it) and revokes every
// session of the account.
func ResetPassword(ctx context.Context, q *db.Queries, token, hash string) error {
	t, err := useToken(ctx, q, token, PurposeReset)
	if err != nil {
		return err
	}
	if err := q.ProfileSetPassword(ctx, db.ProfileSetPasswordParams{ID: t.ProfileID, PasswordHash: hash}); err != nil {
		return err
	}
	if err := q.ProfileConfirmEmail(ctx, t.ProfileID); err != nil {
		return err
	}
	_, err = q.SessionRevokeAllForProfile(ctx, t.ProfileID)
	return err
}
