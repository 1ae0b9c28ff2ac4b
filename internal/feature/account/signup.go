package account

import (
	"context"
	"errors"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
)

// SignupRequest is the body of POST /api/auth/signup.
type SignupRequest struct {
	Email       string `json:"email"`
	Password    string `json:"password" text:"any"`
	DisplayName string `json:"display_name"`
}

// Validate normalizes the email and the name, and checks the password's
// strength against both.
func (r *SignupRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	var why string
	if r.Email, why = mail.NormalizeAddress(r.Email); why != "" {
		f.Add("email", why)
	}
	if r.DisplayName, why = auth.CheckDisplayName(r.DisplayName); why != "" {
		f.Add("display_name", why)
	}
	if why = auth.CheckNewPassword(r.Password, r.Email, r.DisplayName); why != "" {
		f.Add("password", why)
	}
	return f
}

// SignupMessage is the one answer to a sign-up, whether or not the email
// had an account.
const SignupMessage = "Check your inbox: we sent a link to confirm your email address (valid 24 hours)."

// Signup creates an unconfirmed member account with the password hash
// (auth.HashPassword of req.Password) and records the email with its
// confirmation link. An email that has an account already gets no second
// one: its owner's email says someone tried, with sign-in and reset links
// and no token, when notify allows it (the caller's per-address rate of
// those emails; none is recorded otherwise). The caller answers
// SignupMessage either way and delivers the emails returned once the
// transaction commits; it hashes the password and counts the address in
// both cases, so the time taken does not tell them apart either.
func Signup(ctx context.Context, q *db.Queries, publicURL string, req SignupRequest, hash string, notify bool) ([]mail.Ref, error) {
	p, err := q.ProfileInsertNew(ctx, db.ProfileInsertNewParams{
		Email: req.Email, DisplayName: &req.DisplayName, PasswordHash: hash,
	})
	if errors.Is(err, db.ErrNotFound) {
		if !notify {
			return nil, nil
		}
		ref, err := mailAccountExists(ctx, q, publicURL, req.Email)
		return []mail.Ref{ref}, err
	}
	if err != nil {
		return nil, err
	}
	ref, err := mailToken(ctx, q, publicURL, p, PurposeConfirm, ConfirmTTL, "/auth/confirm")
	return []mail.Ref{ref}, err
}

// Confirm marks the email of the token's account confirmed, using the
// token.
func Confirm(ctx context.Context, q *db.Queries, token string) error {
	t, err := useToken(ctx, q, token, PurposeConfirm)
	if err != nil {
		return err
	}
	return q.ProfileConfirmEmail(ctx, t.ProfileID)
}
