package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
)

// LoginRequest is the body of POST /api/auth/login.
type LoginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password" text:"any"`
}

// Validate requires both; their worth is Login's to judge.
func (r *LoginRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if strings.TrimSpace(r.Email) == "" {
		f.Add("email", "is required")
	}
	if r.Password == "" {
		f.Add("password", "is required")
	}
	return f
}

// Login errors. ErrBadCredentials is the one failure a client is limited
// on.
var (
	ErrBadCredentials = apperr.New(apperr.Unauthorized, "Invalid email or password")
	ErrUnconfirmed    = apperr.WithMessage(apperr.Forbidden, "Email not confirmed",
		"Open the link in the confirmation email first")
)

// Opened is a new session: its token, the client's secret, and the user.
type Opened struct {
	Token string
	User  User
}

// Login checks the password and opens a session that ends SessionAbsolute
// from now at the latest. The password is checked first (ErrBadCredentials;
// an unknown email costs the same hashing time as a wrong password), then
// that the email is confirmed (ErrUnconfirmed). No hashing slot free in
// time is auth.ErrBusy, wrapped.
func Login(ctx context.Context, q *db.Queries, req LoginRequest) (Opened, error) {
	p, err := q.ProfileGetByEmail(ctx, strings.TrimSpace(req.Email))
	if errors.Is(err, db.ErrNotFound) {
		if err := auth.SpendVerifyTime(ctx, req.Password); err != nil {
			return Opened{}, fmt.Errorf("login: %w", err)
		}
		return Opened{}, ErrBadCredentials
	}
	if err != nil {
		return Opened{}, err
	}
	ok, err := auth.VerifyPassword(ctx, req.Password, p.PasswordHash)
	if err != nil {
		return Opened{}, fmt.Errorf("login: %w", err)
	}
	if !ok {
		return Opened{}, ErrBadCredentials
	}
	if p.EmailConfirmedAt == nil {
		return Opened{}, ErrUnconfirmed
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return Opened{}, err
	}
	if _, err := q.SessionInsert(ctx, db.SessionInsertParams{
		TokenHash: hash, ProfileID: p.ID, ExpiresAt: time.Now().Add(SessionAbsolute),
	}); err != nil {
		return Opened{}, err
	}
	u, err := Load(ctx, q, p.ID)
	if err != nil {
		return Opened{}, err
	}
	return Opened{Token: tok, User: u}, nil
}
