package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
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

// ScheduledTitle is the error of a sign-in to an account locked for
// erasure.
const ScheduledTitle = "Account scheduled for deletion"

// ErrScheduled answers a sign-in to an account locked for erasure (its
// owner asked to delete it): 403 naming the day it is erased, and that
// "Keep my account" keeps it until then.
func ErrScheduled(eraseAt time.Time) *apperr.Error {
	return apperr.WithMessage(apperr.Forbidden, ScheduledTitle,
		fmt.Sprintf("This account will be deleted on %s. To keep it, choose \"Keep my account\".", mail.DateText(eraseAt)))
}

// Credentials checks an email and password: the password first
// (ErrBadCredentials; an unknown email costs the same hashing time as a
// wrong password), then that the email is confirmed (ErrUnconfirmed). No
// hashing slot free in time is auth.ErrBusy, wrapped. An erased account's
// address is unknown (its tombstone has another).
func Credentials(ctx context.Context, q *db.Queries, req LoginRequest) (db.Profile, error) {
	p, err := q.ProfileGetByEmail(ctx, strings.TrimSpace(req.Email))
	if errors.Is(err, db.ErrNotFound) {
		if err := auth.SpendVerifyTime(ctx, req.Password); err != nil {
			return db.Profile{}, fmt.Errorf("login: %w", err)
		}
		return db.Profile{}, ErrBadCredentials
	}
	if err != nil {
		return db.Profile{}, err
	}
	ok, err := auth.VerifyPassword(ctx, req.Password, p.PasswordHash)
	if err != nil {
		return db.Profile{}, fmt.Errorf("login: %w", err)
	}
	if !ok {
		return db.Profile{}, ErrBadCredentials
	}
	if p.EmailConfirmedAt == nil {
		return db.Profile{}, ErrUnconfirmed
	}
	return p, nil
}

// Login checks the credentials (Credentials) and opens a session that
// ends SessionAbsolute from now at the latest. An account locked for
// erasure opens none: ErrScheduled ("Keep my account" signs in instead).
func Login(ctx context.Context, q *db.Queries, req LoginRequest) (Opened, error) {
	p, err := Credentials(ctx, q, req)
	if err != nil {
		return Opened{}, err
	}
	if p.EraseAt != nil {
		return Opened{}, ErrScheduled(*p.EraseAt)
	}
	return OpenSession(ctx, q, p.ID)
}

// OpenSession opens a session of account id, ending SessionAbsolute from
// now at the latest, and returns its token and the user.
func OpenSession(ctx context.Context, q *db.Queries, id uuid.UUID) (Opened, error) {
	tok, hash, err := auth.NewToken()
	if err != nil {
		return Opened{}, err
	}
	if _, err := q.SessionInsert(ctx, db.SessionInsertParams{
		TokenHash: hash, ProfileID: id, ExpiresAt: time.Now().Add(SessionAbsolute),
	}); err != nil {
		return Opened{}, err
	}
	u, err := Load(ctx, q, id)
	if err != nil {
		return Opened{}, err
	}
	return Opened{Token: tok, User: u}, nil
}
