package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/ratelimit"
)

// forgotFloor is the least time forgot-password takes, so a known and an
// unknown email answer alike.
const forgotFloor = 400 * time.Millisecond

// userJSON is the profile as GET /api/profile shows it, with the
// membership of the active term in the membership view (or null).
type userJSON struct {
	account.User
	Membership *membership.View `json:"membership"`
	// Volunteer: the caller volunteers at the current edition's door
	// (session status and profile only, read from the signed-in caller).
	Volunteer *bool `json:"volunteer,omitempty"`
}

// withVolunteer adds whether the principal volunteers at the current
// edition's door, so the pages can offer them check-in.
func withVolunteer(u userJSON, p *Principal) userJSON {
	v := p != nil && p.Volunteer
	u.Volunteer = &v
	return u
}

func toUserJSON(u account.User) userJSON {
	out := userJSON{User: u}
	if u.ActiveMembership != nil {
		m := membership.ToView(*u.ActiveMembership)
		out.Membership = &m
	}
	return out
}

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

// signup is POST /api/auth/signup (account.Signup). The password is hashed
// before the transaction, whether or not the email has an account; the
// owner of a taken address is emailed at most at the SignupMail rate, and
// the answer is the same 201 either way.
func (s *Server) signup(w http.ResponseWriter, r *http.Request) error {
	if err := allow(over(w, r, s.limits.SignupIP, ratelimit.ClientKey(r.RemoteAddr))); err != nil {
		return err
	}
	var req account.SignupRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	hash, err := auth.HashPassword(ctx, req.Password, auth.DefaultParams)
	if err != nil {
		return hashErr(w, err)
	}
	// Counted for every sign-up, new address or not, so the answer's time
	// does not tell them apart; only the "you already have an account"
	// email is held back beyond the rate.
	notify, err := take(w, r, s.limits.SignupMail, ratelimit.EmailKey(req.Email))
	if err != nil {
		return err
	}
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		refs, err := account.Signup(ctx, q, s.cfg.PublicURL, req, hash, notify)
		if err != nil {
			return err
		}
		return queueEmails(ctx, q, refs...)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"success": true, "message": account.SignupMessage})
	return nil
}

// confirm is POST /api/auth/confirm (account.Confirm).
func (s *Server) confirm(w http.ResponseWriter, r *http.Request) error {
	var req account.TokenRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.store.InTx(ctx, func(q *db.Queries) error { return account.Confirm(ctx, q, req.Token) }); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// login is POST /api/auth/login (account.Login): the session's token in
// the body and an HttpOnly cookie. Wrong credentials count against the
// email and client. The statements run without a transaction, so no
// connection is held while the password is hashed.
func (s *Server) login(w http.ResponseWriter, r *http.Request) error {
	var req account.LoginRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	failures := ratelimit.EmailIPKey(req.Email, r.RemoteAddr)
	if err := allow(
		over(w, r, s.limits.LoginIP, ratelimit.ClientKey(r.RemoteAddr)),
		full(w, s.limits.LoginFailures, failures)); err != nil {
		return err
	}
	out, err := account.Login(r.Context(), s.store.Queries, req)
	if errors.Is(err, account.ErrBadCredentials) {
		s.limits.LoginFailures.Fail(r.Context(), failures)
	}
	if err != nil {
		return hashErr(w, err)
	}
	s.setSessionCookie(w, out.Token, account.SessionAbsolute)
	writeJSON(w, http.StatusOK, map[string]any{"token": out.Token, "user": toUserJSON(out.User)})
	return nil
}

// logout revokes the caller's session and clears the cookie.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) error {
	if err := account.Logout(r.Context(), s.store.Queries, principalFrom(r.Context()).SessionID); err != nil {
		return err
	}
	s.sessions.clear()
	s.setSessionCookie(w, "", -time.Second)
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// forgotPassword is POST /api/auth/forgot-password (account.RequestReset).
// The answer, and the time it takes, are the same whether the account
// exists. A client is refused (429) per IP and per email and IP; beyond the
// per-email mailing rate the answer is the same 200 and nothing is sent,
// so posts from elsewhere neither lock the owner out nor retire the link
// mailed last.
func (s *Server) forgotPassword(w http.ResponseWriter, r *http.Request) error {
	start := time.Now()
	var req account.ForgotRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	if err := allow(
		over(w, r, s.limits.ForgotIP, ratelimit.ClientKey(r.RemoteAddr)),
		over(w, r, s.limits.ForgotEmailIP, ratelimit.EmailIPKey(req.Email, r.RemoteAddr))); err != nil {
		return err
	}
	send, err := take(w, r, s.limits.ForgotEmail, ratelimit.EmailKey(req.Email))
	if err != nil {
		return err
	}
	ctx := r.Context()
	if send {
		err = s.store.InTx(ctx, func(q *db.Queries) error {
			refs, err := account.RequestReset(ctx, q, s.cfg.PublicURL, req.Email)
			if err != nil {
				return err
			}
			return queueEmails(ctx, q, refs...)
		})
	}
	if err != nil {
		// Logged, but the answer must not tell the two cases apart.
		s.log.ErrorContext(ctx, "forgot-password", "err", err)
	}
	if wait := forgotFloor - time.Since(start); wait > 0 {
		time.Sleep(wait)
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": account.ForgotMessage})
	return nil
}

// resetPassword is POST /api/auth/reset-password: the token and the
// password's strength are checked (account.CheckReset) before the password
// is hashed, so a guessed or stale token costs no hash; the token is used
// in the transaction that stores the hash (account.ResetPassword).
func (s *Server) resetPassword(w http.ResponseWriter, r *http.Request) error {
	if err := allow(over(w, r, s.limits.ResetIP, ratelimit.ClientKey(r.RemoteAddr))); err != nil {
		return err
	}
	var req account.ResetRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	if err := account.CheckReset(ctx, s.store.Queries, req); err != nil {
		return err
	}
	hash, err := auth.HashPassword(ctx, req.Password, auth.DefaultParams)
	if err != nil {
		return hashErr(w, err)
	}
	err = s.store.InTx(ctx, func(q *db.Queries) error { return account.ResetPassword(ctx, q, req.Token, hash) })
	s.sessions.clear() // the reset signs the account out everywhere
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// getProfile is GET /api/profile.
func (s *Server) getProfile(w http.ResponseWriter, r *http.Request) error {
	u, err := account.Load(r.Context(), s.store.Queries, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, withVolunteer(toUserJSON(u), principalFrom(r.Context())))
	return nil
}

// patchProfile is PATCH /api/profile: the display name and the marketing
// opt-in, in one transaction; it answers the profile.
func (s *Server) patchProfile(w http.ResponseWriter, r *http.Request) error {
	var req account.ProfilePatch
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	var u account.User
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		u, err = account.UpdateProfile(ctx, q, principalFrom(ctx).ProfileID, req)
		return err
	})
	s.sessions.clear()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toUserJSON(u))
	return nil
}
