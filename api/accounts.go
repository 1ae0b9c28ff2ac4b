package api

import (
	"context"
	"errors"
	"net/http"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/auth"
	"hackdesk/db"
)

// Lifetimes of the mailed one-time tokens.
const (
	confirmTokenTTL = 24 * time.Hour
	resetTokenTTL   = 30 * time.Minute
	// forgotFloor is the least time forgot-password takes, so a known and
	// an unknown email answer alike.
	forgotFloor = 400 * time.Millisecond
)

// userJSON is the profile as GET /api/profile shows it.
type userJSON struct {
	ID             uuid.UUID `json:"id"`
	Email          string    `json:"email"`
	DisplayName    *string   `json:"display_name"`
	Role           string    `json:"role"`
	EmailConfirmed bool      `json:"email_confirmed"`
	// MarketingOptIn is whether marketing broadcasts reach the account: set
	// by submitting an application and by the profile page, cleared by a
	// one-click unsubscribe.
	MarketingOptIn bool          `json:"marketing_opt_in"`
	ExecRole       *execRoleJSON `json:"exec_role"`
	// Membership is the caller's membership of the active term, or null.
	Membership *membershipJSON `json:"membership"`
}

type execRoleJSON struct {
	Position string     `json:"position"`
	Subteam  *string    `json:"subteam"`
	TermID   *uuid.UUID `json:"term_id"`
}

func (s *Server) loadUser(ctx context.Context, q *db.Queries, id uuid.UUID) (userJSON, error) {
	v, err := q.ProfileView(ctx, id)
	if err != nil {
		return userJSON{}, err
	}
	u := userJSON{ID: v.ID, Email: v.Email, DisplayName: v.DisplayName, Role: v.Role,
		EmailConfirmed: v.EmailConfirmedAt != nil, MarketingOptIn: v.MarketingOptIn}
	if v.ExecPosition != nil {
		u.ExecRole = &execRoleJSON{Position: *v.ExecPosition, Subteam: v.ExecSubteam, TermID: v.ExecTermID}
	}
	m, err := q.MembershipOfActiveTerm(ctx, id)
	switch {
	case err == nil:
		j := toMembershipJSON(m)
		u.Membership = &j
	case !errors.Is(err, db.ErrNotFound):
		return userJSON{}, err
	}
	return u, nil
}

// maxEmail is the longest email address, in characters (as the schema's
// CHECK and api/openapi.yaml count).
const maxEmail = 254

// normalizeEmail checks an address and returns it trimmed, or a reason.
func normalizeEmail(raw string) (string, string) {
	e := strings.TrimSpace(raw)
	if e == "" {
		return "", "is required"
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || a.Name != "" || utf8.RuneCountInString(e) > maxEmail {
		return "", "must be an email address"
	}
	return e, ""
}

type signupRequest struct {
	Email       string `json:"email"`
	Password    string `json:"password"`
	DisplayName string `json:"display_name"`
}

func (r *signupRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	var why string
	if r.Email, why = normalizeEmail(r.Email); why != "" {
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

// signupMessage is the one answer to a sign-up, whether or not the email
// had an account.
const signupMessage = "Check your inbox: we sent a link to confirm your email address (valid 24 hours)."

// errBusy answers a request turned away for want of capacity: no
// password-hashing slot, no place at the webhook's gate, a rate limit that
// cannot be checked (503, with Retry-After like every 503).
var errBusy = apperr.WithMessage(apperr.Unavailable, "Service unavailable",
	"The server is busy; try again in a few seconds")

// hashErr turns auth.ErrBusy (no password-hashing slot freed up in time)
// into 503 with Retry-After.
func hashErr(w http.ResponseWriter, err error) error {
	if errors.Is(err, auth.ErrBusy) {
		w.Header().Set("Retry-After", strconv.Itoa(int(auth.SlotWait.Seconds())))
		return errBusy
	}
	return err
}

// signup creates an unconfirmed account and mails a confirmation link. An
// email that has an account already gets the same answer, and its owner an
// email saying so (with sign-in and reset links, no token), so the answer
// does not tell whether an address is registered. The password is hashed
// either way, so the time taken does not tell either.
func (s *Server) signup(w http.ResponseWriter, r *http.Request) error {
	if err := allow(s.limits.signupIP.over(w, r, clientKey(r))); err != nil {
		return err
	}
	var req signupRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	hash, err := auth.HashPassword(ctx, req.Password, auth.DefaultParams)
	if err != nil {
		return hashErr(w, err)
	}
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		p, err := q.ProfileInsertNew(ctx, db.ProfileInsertNewParams{
			Email: req.Email, DisplayName: &req.DisplayName, PasswordHash: hash,
		})
		if errors.Is(err, db.ErrNotFound) {
			return s.mailAccountExists(ctx, q, req.Email)
		}
		if err != nil {
			return err
		}
		return s.mailToken(ctx, q, p, "confirm", confirmTokenTTL, "/auth/confirm")
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"success": true, "message": signupMessage})
	return nil
}

// mailAccountExists tells the owner of email that someone tried to sign up
// with it, inside the caller's transaction.
func (s *Server) mailAccountExists(ctx context.Context, q *db.Queries, email string) error {
	p, err := q.ProfileGetByEmail(ctx, email)
	if err != nil {
		return err
	}
	name := p.Email
	if p.DisplayName != nil {
		name = *p.DisplayName
	}
	base := strings.TrimRight(s.cfg.PublicURL, "/")
	return sendEmail(ctx, q, "account_exists:"+uuid.NewString(), "account_exists", p.Email,
		map[string]string{"name": name, "login": base + "/login", "reset": base + "/forgot-password"})
}

// mailToken issues a one-time token of the given purpose (retiring older
// ones) and mails the link {PUBLIC_URL}{path}?token=... inside the caller's
// transaction.
func (s *Server) mailToken(ctx context.Context, q *db.Queries, p db.Profile, purpose string, ttl time.Duration, path string) error {
	if err := q.AuthTokenRetireAll(ctx, db.AuthTokenRetireAllParams{ProfileID: p.ID, Purpose: purpose}); err != nil {
		return err
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return err
	}
	t, err := q.AuthTokenInsert(ctx, db.AuthTokenInsertParams{
		ProfileID: p.ID, Purpose: purpose, TokenHash: hash, ExpiresAt: time.Now().Add(ttl),
	})
	if err != nil {
		return err
	}
	name := p.Email
	if p.DisplayName != nil {
		name = *p.DisplayName
	}
	link := strings.TrimRight(s.cfg.PublicURL, "/") + path + "?token=" + url.QueryEscape(tok)
	return sendEmail(ctx, q, purpose+":"+t.ID.String(), purpose, p.Email,
		map[string]string{"name": name, "link": link})
}

type tokenRequest struct {
	Token string `json:"token"`
}

func (r *tokenRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Token = strings.TrimSpace(r.Token); r.Token == "" {
		f.Add("token", "is required")
	}
	return f
}

var errBadToken = apperr.WithMessage(apperr.Invalid, "Invalid or expired token",
	"The link is invalid, already used or expired; ask for a new one")

// useToken consumes a live token of the given purpose.
func useToken(ctx context.Context, q *db.Queries, token, purpose string) (db.AuthToken, error) {
	if !auth.PlausibleToken(token) {
		return db.AuthToken{}, errBadToken
	}
	t, err := q.AuthTokenUse(ctx, db.AuthTokenUseParams{TokenHash: auth.HashToken(token), Purpose: purpose})
	if errors.Is(err, db.ErrNotFound) {
		return t, errBadToken
	}
	return t, err
}

// confirm marks the email of the token's account confirmed.
func (s *Server) confirm(w http.ResponseWriter, r *http.Request) error {
	var req tokenRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		t, err := useToken(ctx, q, req.Token, "confirm")
		if err != nil {
			return err
		}
		return q.ProfileConfirmEmail(ctx, t.ProfileID)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (r *loginRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if strings.TrimSpace(r.Email) == "" {
		f.Add("email", "is required")
	}
	if r.Password == "" {
		f.Add("password", "is required")
	}
	return f
}

var errBadCredentials = apperr.New(apperr.Unauthorized, "Invalid email or password")

// login checks the password and opens a session (token in the body and an
// HttpOnly cookie). An unknown email costs the same hashing time as a wrong
// password.
func (s *Server) login(w http.ResponseWriter, r *http.Request) error {
	var req loginRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	failures := emailIPKey(req.Email, r)
	if err := allow(
		s.limits.loginIP.over(w, r, clientKey(r)),
		s.limits.loginFailures.full(w, failures)); err != nil {
		return err
	}
	ctx := r.Context()
	p, err := s.store.ProfileGetByEmail(ctx, strings.TrimSpace(req.Email))
	if errors.Is(err, db.ErrNotFound) {
		if err := auth.SpendVerifyTime(ctx, req.Password); err != nil {
			return hashErr(w, err)
		}
		s.limits.loginFailures.fail(r, failures)
		return errBadCredentials
	}
	if err != nil {
		return err
	}
	ok, err := auth.VerifyPassword(ctx, req.Password, p.PasswordHash)
	if err != nil {
		return hashErr(w, err)
	}
	if !ok {
		s.limits.loginFailures.fail(r, failures)
		return errBadCredentials
	}
	if p.EmailConfirmedAt == nil {
		return apperr.WithMessage(apperr.Forbidden, "Email not confirmed",
			"Open the link in the confirmation email first")
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return err
	}
	if _, err := s.store.SessionInsert(ctx, db.SessionInsertParams{
		TokenHash: hash, ProfileID: p.ID, ExpiresAt: time.Now().Add(sessionAbsolute),
	}); err != nil {
		return err
	}
	user, err := s.loadUser(ctx, s.store.Queries, p.ID)
	if err != nil {
		return err
	}
	s.setSessionCookie(w, tok, sessionAbsolute)
	writeJSON(w, http.StatusOK, map[string]any{"token": tok, "user": user})
	return nil
}

// logout revokes the caller's session and clears the cookie.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) error {
	p := principalFrom(r.Context())
	if err := s.store.SessionRevoke(r.Context(), p.SessionID); err != nil {
		return err
	}
	s.setSessionCookie(w, "", -time.Second)
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

type forgotRequest struct {
	Email string `json:"email"`
}

func (r *forgotRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if strings.TrimSpace(r.Email) == "" {
		f.Add("email", "is required")
	}
	return f
}

// forgotPassword mails a reset link when the account exists. The answer,
// and the time it takes, are the same either way. A client is refused
// (429) per IP and per email and IP; beyond the per-email mailing rate
// the answer is the same 200 and nothing is sent, so posts from elsewhere
// neither lock the owner out nor retire the link mailed last.
func (s *Server) forgotPassword(w http.ResponseWriter, r *http.Request) error {
	start := time.Now()
	var req forgotRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	if err := allow(
		s.limits.forgotIP.over(w, r, clientKey(r)),
		s.limits.forgotEmailIP.over(w, r, emailIPKey(req.Email, r))); err != nil {
		return err
	}
	send, err := s.limits.forgotEmail.take(w, r, emailKey(req.Email))
	if err != nil {
		return err
	}
	ctx := r.Context()
	if send {
		err = s.mailReset(ctx, req.Email)
	}
	if err != nil {
		// Logged, but the answer must not tell the two cases apart.
		s.log.ErrorContext(ctx, "forgot-password", "err", err)
	}
	if wait := forgotFloor - time.Since(start); wait > 0 {
		time.Sleep(wait)
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true,
		"message": "If an account exists for that email, a reset link is on its way. It works once, within 30 minutes."})
	return nil
}

// mailReset mails a reset link to the account of email, if there is one,
// retiring its older links.
func (s *Server) mailReset(ctx context.Context, email string) error {
	return s.store.InTx(ctx, func(q *db.Queries) error {
		// The row lock makes concurrent requests for one account take
		// turns, so each retires the token the one before it issued and
		// exactly one link stays live.
		p, err := q.ProfileLockByEmail(ctx, strings.TrimSpace(email))
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return s.mailToken(ctx, q, p, "reset", resetTokenTTL, "/reset-password")
	})
}

type resetRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

func (r *resetRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Token = strings.TrimSpace(r.Token); r.Token == "" {
		f.Add("token", "is required")
	}
	if why := auth.CheckPassword(r.Password); why != "" {
		f.Add("password", why)
	}
	return f
}

// resetPassword sets a new password with a reset token and revokes every
// session of the account. Holding the link also proves the email address.
// The token is checked first, then the password's strength against the
// account, and only then is the password hashed: a guessed or stale token
// costs no hash. The token is used (once) in the transaction that stores
// the hash.
func (s *Server) resetPassword(w http.ResponseWriter, r *http.Request) error {
	if err := allow(s.limits.resetIP.over(w, r, clientKey(r))); err != nil {
		return err
	}
	var req resetRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	if !auth.PlausibleToken(req.Token) {
		return errBadToken
	}
	live, err := s.store.AuthTokenLive(ctx, db.AuthTokenLiveParams{TokenHash: auth.HashToken(req.Token), Purpose: "reset"})
	if errors.Is(err, db.ErrNotFound) {
		return errBadToken
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
	hash, err := auth.HashPassword(ctx, req.Password, auth.DefaultParams)
	if err != nil {
		return hashErr(w, err)
	}
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		t, err := useToken(ctx, q, req.Token, "reset")
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
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

func (s *Server) getProfile(w http.ResponseWriter, r *http.Request) error {
	u, err := s.loadUser(r.Context(), s.store.Queries, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, u)
	return nil
}

// profilePatch changes some of the profile: absent fields stay. Neither
// may be null (a display name cannot be cleared).
type profilePatch struct {
	DisplayName    field[string] `json:"display_name"`
	MarketingOptIn field[bool]   `json:"marketing_opt_in"`
}

func (r *profilePatch) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.DisplayName.Set {
		n, why := auth.CheckDisplayName(r.DisplayName.V) // null reads as "", which is refused
		if why != "" {
			f.Add("display_name", why)
		}
		r.DisplayName.V = n
	}
	if r.MarketingOptIn.Set && r.MarketingOptIn.Null {
		f.Add("marketing_opt_in", "must be true or false")
	}
	return f
}

// patchProfile is PATCH /api/profile: the display name and the marketing
// opt-in, in one transaction; it answers the profile.
func (s *Server) patchProfile(w http.ResponseWriter, r *http.Request) error {
	var req profilePatch
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	id := principalFrom(ctx).ProfileID
	var u userJSON
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		if req.DisplayName.Set {
			if _, err := q.ProfileSetDisplayName(ctx, db.ProfileSetDisplayNameParams{ID: id, DisplayName: &req.DisplayName.V}); err != nil {
				return err
			}
		}
		if req.MarketingOptIn.Set {
			if err := q.ProfileSetMarketingOptIn(ctx, db.ProfileSetMarketingOptInParams{ID: id, MarketingOptIn: req.MarketingOptIn.V}); err != nil {
				return err
			}
		}
		var err error
		u, err = s.loadUser(ctx, q, id)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, u)
	return nil
}
