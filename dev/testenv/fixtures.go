package testenv

// Fixtures insert one valid row with sensible defaults through the
// generated queries of package db; a test sets in the options only what it
// is about. Each fails the test on error and returns the row as stored.
// Raw SQL is used only where no generated query writes what a test needs
// (a decision state, a session opened in the past).

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/argon2"

	"hackdesk/db"
	"hackdesk/internal/platform/auth"
)

// UnusablePasswordHash is the stored hash of an account made with
// AccountOpts.NoPassword: well-formed, but no password matches it.
const UnusablePasswordHash = "$argon2id$unused"

// FastHashParams are the argon2id parameters of a fixture's password: a
// login reads them back from the stored hash, so the password verifies as
// one hashed with auth.DefaultParams would, in microseconds instead of
// tens of milliseconds.
var FastHashParams = auth.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// fastHash is pw's PHC string under FastHashParams, as auth.HashPassword
// writes it, computed here rather than by auth.HashPassword: that waits
// for one of the process's few hashing slots (auth.MaxConcurrentHashes),
// which every App of a test binary shares, and tests in parallel would
// wait past auth.SlotWait for them.
func fastHash(pw string) (string, error) {
	p := FastHashParams
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// AccountOpts describes an account; zero fields take the defaults.
type AccountOpts struct {
	Email string // default: a unique address at example.com
	// Name is the display name; default: the email address. "-" stores none.
	Name string
	// Password defaults to "password-" + Email, hashed with FastHashParams.
	Password string
	// NoPassword stores UnusablePasswordHash instead of hashing a password:
	// quick, for accounts that never log in.
	NoPassword     bool
	Role           string // member (default), admin or superadmin
	Unconfirmed    bool   // leave email_confirmed_at NULL
	MarketingOptIn bool
}

// Account inserts a profile.
func Account(t testing.TB, s *db.Store, o AccountOpts) db.Profile {
	t.Helper()
	ctx := context.Background()
	if o.Email == "" {
		o.Email = "user-" + randomHex(4) + "@example.com"
	}
	if o.Role == "" {
		o.Role = "member"
	}
	var name *string
	switch o.Name {
	case "":
		name = &o.Email
	case "-":
	default:
		name = &o.Name
	}
	hash := UnusablePasswordHash
	if !o.NoPassword {
		if o.Password == "" {
			o.Password = "password-" + o.Email
		}
		var err error
		if hash, err = fastHash(o.Password); err != nil {
			t.Fatalf("testenv: hash password: %v", err)
		}
	}
	var confirmed *time.Time
	if !o.Unconfirmed {
		now := time.Now()
		confirmed = &now
	}
	p, err := s.ProfileInsert(ctx, db.ProfileInsertParams{
		Email: o.Email, DisplayName: name, PasswordHash: hash, Role: o.Role, EmailConfirmedAt: confirmed})
	if err != nil {
		t.Fatalf("testenv: account %s: %v", o.Email, err)
	}
	if o.MarketingOptIn {
		if err := s.ProfileSetMarketingOptIn(ctx, db.ProfileSetMarketingOptInParams{ID: p.ID, MarketingOptIn: true}); err != nil {
			t.Fatalf("testenv: account %s: opt in: %v", o.Email, err)
		}
		p.MarketingOptIn = true
	}
	return p
}

// SessionOpts describes a session; the zero value is one opened now.
type SessionOpts struct {
	// CreatedAgo and SeenAgo put the login and the last use in the past.
	CreatedAgo, SeenAgo time.Duration
	// Lifetime is the absolute limit from the login (default 30 days, what
	// a member's login stores).
	Lifetime time.Duration
}

// Session opens a session of the profile straight in the database (no
// login, so no rate limit) and returns its bearer token and id.
func Session(t testing.TB, s *db.Store, profile uuid.UUID, o SessionOpts) (token string, id uuid.UUID) {
	t.Helper()
	if o.Lifetime == 0 {
		o.Lifetime = 30 * 24 * time.Hour
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		t.Fatalf("testenv: session token: %v", err)
	}
	ctx := context.Background()
	if o.CreatedAgo == 0 && o.SeenAgo == 0 {
		row, err := s.SessionInsert(ctx, db.SessionInsertParams{TokenHash: hash, ProfileID: profile, ExpiresAt: time.Now().Add(o.Lifetime)})
		if err != nil {
			t.Fatalf("testenv: session: %v", err)
		}
		return tok, row.ID
	}
	// No generated query opens a session in the past.
	if err := s.Pool().QueryRow(ctx, `
		INSERT INTO sessions (token_hash, profile_id, created_at, last_seen_at, expires_at)
		VALUES ($1, $2, now() - make_interval(secs => $3), now() - make_interval(secs => $4),
		        now() - make_interval(secs => $3) + make_interval(secs => $5))
		RETURNING id`, hash, profile, o.CreatedAgo.Seconds(), o.SeenAgo.Seconds(), o.Lifetime.Seconds()).Scan(&id); err != nil {
		t.Fatalf("testenv: session: %v", err)
	}
	return tok, id
}

// TermOpts describes a term; zero fields take the defaults.
type TermOpts struct {
	// Name defaults to "<start year>-<end year>".
	Name string
	// StartsOn and EndsOn default to 2026-09-01 and 2027-08-31.
	StartsOn, EndsOn time.Time
	// Active makes it the one active term (the previous one is cleared).
	Active                                bool
	OnboardingOpensAt, OnboardingClosesAt *time.Time
	ReturningOpensAt, ReturningClosesAt   *time.Time
}

// Term inserts a term.
func Term(t testing.TB, s *db.Store, o TermOpts) db.Term {
	t.Helper()
	ctx := context.Background()
	if o.StartsOn.IsZero() {
		o.StartsOn = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	}
	if o.EndsOn.IsZero() {
		o.EndsOn = o.StartsOn.AddDate(1, 0, -1)
	}
	if o.Name == "" {
		o.Name = fmt.Sprintf("%d-%d", o.StartsOn.Year(), o.EndsOn.Year())
	}
	term, err := s.TermInsert(ctx, db.TermInsertParams{Name: o.Name, StartsOn: o.StartsOn, EndsOn: o.EndsOn,
		OnboardingOpensAt: o.OnboardingOpensAt, OnboardingClosesAt: o.OnboardingClosesAt,
		ReturningOpensAt: o.ReturningOpensAt, ReturningClosesAt: o.ReturningClosesAt})
	if err != nil {
		t.Fatalf("testenv: term %s: %v", o.Name, err)
	}
	if o.Active {
		err := s.InTx(ctx, func(q *db.Queries) error {
			if err := q.TermClearActive(ctx, term.ID); err != nil {
				return err
			}
			return q.TermSetActive(ctx, term.ID)
		})
		if err != nil {
			t.Fatalf("testenv: activate term %s: %v", o.Name, err)
		}
		term.Active = true
	}
	return term
}

// ExecRoleOpts describes an exec role; zero fields take the defaults.
type ExecRoleOpts struct {
	Position string     // President, VP or Exec (default)
	Subteam  string     // default "web"; "-" stores none
	Term     *uuid.UUID // default none
	// Ended ends the role at once (active false, ended_at now), as a role
	// of an earlier term is kept.
	Ended bool
}

// ExecRole gives the profile an active exec role (it must hold none).
func ExecRole(t testing.TB, s *db.Store, profile uuid.UUID, o ExecRoleOpts) db.ExecRole {
	t.Helper()
	ctx := context.Background()
	if o.Position == "" {
		o.Position = "Exec"
	}
	var subteam *string
	switch o.Subteam {
	case "":
		web := "web"
		subteam = &web
	case "-":
	default:
		subteam = &o.Subteam
	}
	r, err := s.ExecRoleInsert(ctx, db.ExecRoleInsertParams{ProfileID: profile, Position: o.Position, Subteam: subteam, TermID: o.Term})
	if err != nil {
		t.Fatalf("testenv: exec role: %v", err)
	}
	if o.Ended {
		// No generated query ends one role by id.
		if err := s.Pool().QueryRow(ctx, `UPDATE exec_roles SET active = false, ended_at = now() WHERE id = $1
			RETURNING active, ended_at`, r.ID).Scan(&r.Active, &r.EndedAt); err != nil {
			t.Fatalf("testenv: end exec role: %v", err)
		}
	}
	return r
}

// PositionOpts describes a position; zero fields take the defaults.
type PositionOpts struct {
	Title       string // default "Developer"
	Subteam     string // default "Tech"
	Grants      string // exec (default) or vp
	Description string
	Closed      bool
}

// Position inserts an open position of the term.
func Position(t testing.TB, s *db.Store, term uuid.UUID, o PositionOpts) db.Position {
	t.Helper()
	if o.Title == "" {
		o.Title = "Developer"
	}
	if o.Subteam == "" {
		o.Subteam = "Tech"
	}
	if o.Grants == "" {
		o.Grants = "exec"
	}
	p, err := s.PositionInsert(context.Background(), db.PositionInsertParams{TermID: term, Title: o.Title,
		Subteam: o.Subteam, Grants: o.Grants, Description: o.Description, Open: !o.Closed})
	if err != nil {
		t.Fatalf("testenv: position %s: %v", o.Title, err)
	}
	return p
}

// QuestionOpts describes a question; zero fields take the defaults.
type QuestionOpts struct {
	Prompt    string // default "Why this position?"
	Type      string // text (default) or textarea
	CharLimit *int32
	Required  bool
	CreatedBy *uuid.UUID
	// Positions makes it a question of these positions; none: a general one.
	Positions []uuid.UUID
}

// Question inserts a question of the bank.
func Question(t testing.TB, s *db.Store, o QuestionOpts) db.Question {
	t.Helper()
	ctx := context.Background()
	if o.Prompt == "" {
		o.Prompt = "Why this position?"
	}
	if o.Type == "" {
		o.Type = "text"
	}
	q, err := s.QuestionInsert(ctx, db.QuestionInsertParams{Prompt: o.Prompt, Type: o.Type, CharLimit: o.CharLimit,
		Required: o.Required, CreatedBy: o.CreatedBy})
	if err != nil {
		t.Fatalf("testenv: question: %v", err)
	}
	if len(o.Positions) > 0 {
		if err := s.PositionQuestionsAdd(ctx, db.PositionQuestionsAddParams{QuestionID: q.ID, PositionIds: o.Positions}); err != nil {
			t.Fatalf("testenv: question positions: %v", err)
		}
	}
	return q
}

// hashOf is the SHA-256 of b, as receipts are keyed.
func hashOf(b []byte) []byte {
	sum := sha256.Sum256(b)
	return sum[:]
}

func ptr[T any](v T) *T { return &v }

// nonEmpty is s, or def when s is empty.
func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
