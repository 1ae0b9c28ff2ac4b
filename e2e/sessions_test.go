package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	acct "hackdesk/internal/feature/account"
)

// sessionAt opens a session straight in the database as if it had been
// opened createdAgo and last used seenAgo, with the 30-day absolute limit a
// login stores, and returns a client holding it and the session's id.
func sessionAt(t *testing.T, a *app.App, base *client, profile uuid.UUID, createdAgo, seenAgo time.Duration) (*client, uuid.UUID) {
	t.Helper()
	tok, id := testenv.Session(t, a.Store, profile, testenv.SessionOpts{CreatedAgo: createdAgo, SeenAgo: seenAgo})
	return &client{t: t, base: base.base, token: tok}, id
}

// ageSession moves a session's login and last use into the past.
func ageSession(t *testing.T, a *app.App, c *client, createdAgo, seenAgo time.Duration) {
	t.Helper()
	if _, err := a.Store.Pool().Exec(context.Background(), `
		UPDATE sessions SET created_at = now() - make_interval(secs => $2), last_seen_at = now() - make_interval(secs => $3)
		WHERE token_hash = sha256($1::text::bytea)`, c.token, createdAgo.Seconds(), seenAgo.Seconds()); err != nil {
		t.Fatal(err)
	}
}

const day = 24 * time.Hour

// TestSessionLifetimesByRole: members' sessions last 7 days idle / 30 days
// absolute, admins' and superadmins' 12 hours idle / 7 days absolute, read
// from the role at each request.
func TestSessionLifetimesByRole(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	member := account(t, a, "member@example.com", "Member", "member")
	admin := account(t, a, "admin@example.com", "Admin", "admin")
	super := account(t, a, "super@example.com", "Super", "superadmin")
	cases := []struct {
		name                string
		who                 uuid.UUID
		createdAgo, seenAgo time.Duration
		want                int
	}{
		{"member idle 13 h", member, 13 * time.Hour, 13 * time.Hour, http.StatusOK},
		{"member idle 6 days", member, 6 * day, 6 * day, http.StatusOK},
		{"member idle 8 days", member, 8 * day, 8 * day, http.StatusUnauthorized},
		{"member 20 days old, used lately", member, 20 * day, time.Hour, http.StatusOK},
		{"admin idle 11 h", admin, 11 * time.Hour, 11 * time.Hour, http.StatusOK},
		{"admin idle 13 h", admin, 13 * time.Hour, 13 * time.Hour, http.StatusUnauthorized},
		{"admin 6 days old, used lately", admin, 6 * day, time.Hour, http.StatusOK},
		{"admin 8 days old, used lately", admin, 8 * day, time.Hour, http.StatusUnauthorized},
		{"superadmin idle 13 h", super, 13 * time.Hour, 13 * time.Hour, http.StatusUnauthorized},
		{"superadmin 8 days old, used lately", super, 8 * day, time.Hour, http.StatusUnauthorized},
		{"superadmin idle 11 h", super, 11 * time.Hour, 11 * time.Hour, http.StatusOK},
	}
	for _, c := range cases {
		cl, _ := sessionAt(t, a, anon, c.who, c.createdAgo, c.seenAgo)
		if got := cl.do("GET", "/api/profile", nil).Status; got != c.want {
			t.Errorf("%s: GET /api/profile = %d, want %d", c.name, got, c.want)
		}
	}

	// A session opened by login (which stores 30 days) is still cut at the
	// admin's limits.
	account(t, a, "admin2@example.com", "Admin Two", "admin")
	idle := login(t, anon, "admin2@example.com", "password-admin2@example.com")
	old := login(t, anon, "admin2@example.com", "password-admin2@example.com")
	ageSession(t, a, idle, 13*time.Hour, 13*time.Hour)
	ageSession(t, a, old, 7*day+time.Minute, time.Minute)
	idle.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
	old.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
}

// TestSessionPromotion: a member promoted to admin is held to the admin's
// limits from the next request on; a session within them keeps working.
func TestSessionPromotion(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	id := account(t, a, "rising@example.com", "Rising", "member")
	week, _ := sessionAt(t, a, anon, id, 8*day, time.Hour)           // fine for a member only
	lazy, _ := sessionAt(t, a, anon, id, 14*time.Hour, 13*time.Hour) // idle too long for an admin
	fresh, _ := sessionAt(t, a, anon, id, time.Hour, 2*time.Minute)
	for _, c := range []*client{week, lazy, fresh} {
		c.expect(http.StatusOK, "GET", "/api/profile", nil)
	}
	if err := acct.GrantByEmail(context.Background(), a.Store, "rising@example.com", acct.Change{Role: "admin"}); err != nil {
		t.Fatal(err)
	}
	sessionBound() // the grant is another process's (the CLI's)
	week.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
	fresh.expect(http.StatusOK, "GET", "/api/admin/applications", nil) // an admin now
	// lazy was used just before the promotion (last_seen_at moved to now),
	// so it is within the admin's idle limit; make it idle again.
	ageSession(t, a, lazy, 14*time.Hour, 13*time.Hour)
	sessionBound()
	lazy.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
}

type sessionsJSON struct {
	Sessions []struct {
		ID         uuid.UUID `json:"id"`
		CreatedAt  time.Time `json:"created_at"`
		LastSeenAt time.Time `json:"last_seen_at"`
		ExpiresAt  time.Time `json:"expires_at"`
		Current    bool      `json:"current"`
	} `json:"sessions"`
}

// TestSessionList: GET /api/auth/sessions lists the caller's live sessions
// only, newest first, marks the current one, and shows no token.
func TestSessionList(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me := account(t, a, "me@example.com", "Me", "member")
	someone := account(t, a, "someone@example.com", "Someone", "member")
	oldest, oldestID := sessionAt(t, a, anon, me, 3*day, 2*day)
	current, currentID := sessionAt(t, a, anon, me, 2*day, 10*time.Minute)
	_, newestID := sessionAt(t, a, anon, me, time.Hour, time.Hour)
	sessionAt(t, a, anon, me, 9*day, 8*day) // idle too long
	revoked, _ := sessionAt(t, a, anon, me, time.Hour, time.Hour)
	revoked.expect(http.StatusOK, "POST", "/api/auth/logout", nil)
	sessionAt(t, a, anon, someone, time.Hour, time.Hour) // another person's

	r := current.expect(http.StatusOK, "GET", "/api/auth/sessions", nil)
	var got sessionsJSON
	r.JSON(t, &got)
	want := []uuid.UUID{newestID, currentID, oldestID}
	if len(got.Sessions) != len(want) {
		t.Fatalf("%d sessions, want %d: %s", len(got.Sessions), len(want), r.Body)
	}
	for i, s := range got.Sessions {
		if s.ID != want[i] || s.Current != (s.ID == currentID) {
			t.Fatalf("session %d = %+v, want id %v current=%v", i, s, want[i], want[i] == currentID)
		}
		// A member's session ends 7 days after its last use (within 30
		// days of login).
		if d := s.ExpiresAt.Sub(s.LastSeenAt); d != 7*day {
			t.Fatalf("session %v: expires %v after last use, want 7 days", s.ID, d)
		}
	}
	// The current session's use was just recorded.
	if d := time.Since(got.Sessions[1].LastSeenAt); d > time.Minute {
		t.Fatalf("current session last seen %v ago", d)
	}
	for _, tok := range []string{current.token, oldest.token} {
		if bytes.Contains(r.Body, []byte(tok)) {
			t.Fatal("the answer carries a session token")
		}
	}
	for _, s := range r.Map(t)["sessions"].([]any) {
		if keys := fmt.Sprint(len(s.(map[string]any))); keys != "5" {
			t.Fatalf("session has fields %v", s)
		}
	}

	// An admin's sessions end 12 hours after their last use.
	adm := account(t, a, "adm@example.com", "Adm", "admin")
	ac, _ := sessionAt(t, a, anon, adm, time.Hour, 30*time.Minute)
	ac.expect(http.StatusOK, "GET", "/api/auth/sessions", nil).JSON(t, &got)
	if len(got.Sessions) != 1 || !got.Sessions[0].Current || got.Sessions[0].ExpiresAt.Sub(got.Sessions[0].LastSeenAt) != 12*time.Hour {
		t.Fatalf("admin sessions %+v", got.Sessions)
	}
	anon.expect(http.StatusUnauthorized, "GET", "/api/auth/sessions", nil)
}

// TestSessionRevokeOthers: DELETE /api/auth/sessions signs the caller out
// everywhere else; the current session and other people's keep working.
func TestSessionRevokeOthers(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me := account(t, a, "me@example.com", "Me", "member")
	someone := account(t, a, "someone@example.com", "Someone", "member")
	first, _ := sessionAt(t, a, anon, me, 2*day, time.Hour)
	current, currentID := sessionAt(t, a, anon, me, day, time.Hour)
	third := login(t, anon, "me@example.com", "password-me@example.com")
	sessionAt(t, a, anon, me, 9*day, 8*day) // already expired: not counted
	theirs, _ := sessionAt(t, a, anon, someone, time.Hour, time.Hour)

	var body struct {
		Success bool `json:"success"`
		Revoked int  `json:"revoked"`
	}
	current.expect(http.StatusOK, "DELETE", "/api/auth/sessions", nil).JSON(t, &body)
	if !body.Success || body.Revoked != 2 {
		t.Fatalf("answer %+v, want success and 2 revoked", body)
	}
	current.expect(http.StatusOK, "GET", "/api/profile", nil)
	first.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
	third.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
	theirs.expect(http.StatusOK, "GET", "/api/profile", nil)

	var list sessionsJSON
	current.expect(http.StatusOK, "GET", "/api/auth/sessions", nil).JSON(t, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != currentID || !list.Sessions[0].Current {
		t.Fatalf("after revoking: %+v", list.Sessions)
	}
	current.expect(http.StatusOK, "DELETE", "/api/auth/sessions", nil).JSON(t, &body)
	if body.Revoked != 0 {
		t.Fatalf("second DELETE revoked %d", body.Revoked)
	}
	anon.expect(http.StatusUnauthorized, "DELETE", "/api/auth/sessions", nil)
}
