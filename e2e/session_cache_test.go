package e2e

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"hackdesk/api"
	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// TestSessionCacheAcrossReplicas: two API processes over one database, each
// with its own session cache. A sign-out, a demotion and a deleted account
// made through (or beside) replica A are honoured by replica B within one
// second, and by A itself on its next request.
func TestSessionCacheAcrossReplicas(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	a := testenv.App(t, cfg)
	b, err := app.Open(context.Background(), cfg, testenv.Logger(t), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := b.Listen(); err != nil {
		t.Fatal(err)
	}
	onA := &client{t: t, base: a.URL()}
	onB := &client{t: t, base: b.URL()}
	// on moves a client's session to the other replica.
	on := func(c *client, replica *client) *client { return &client{t: t, base: replica.base, token: c.token} }

	// within polls a replica until want, and fails if a request that began
	// more than a second after since still got the old answer (or if none
	// gets want at all).
	within := func(what string, c *client, want int, method, path string, since time.Time) {
		t.Helper()
		for {
			began := time.Now()
			got := c.do(method, path, nil).Status
			if got == want {
				t.Logf("%s: honoured by a request that began %v after the change", what, began.Sub(since).Round(time.Millisecond))
				return
			}
			if began.Sub(since) > time.Second {
				t.Fatalf("%s: a request that began %v after the change got %d, want %d", what, began.Sub(since), got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	// Sign-out through A.
	account(t, a, "leaving@example.com", "Leaving", "member")
	leaving := login(t, onA, "leaving@example.com", "password-leaving@example.com")
	onB2 := on(leaving, onB)
	for range 3 { // B reads the session once and keeps it
		onB2.expect(http.StatusOK, "GET", "/api/profile", nil)
		leaving.expect(http.StatusOK, "GET", "/api/profile", nil)
	}
	leaving.expect(http.StatusOK, "POST", "/api/auth/logout", nil)
	out := time.Now()
	leaving.expect(http.StatusUnauthorized, "GET", "/api/profile", nil) // A at once
	within("sign-out", onB2, http.StatusUnauthorized, "GET", "/api/profile", out)

	// Demotion through A's admin page.
	rootID := account(t, a, "root@example.com", "Root", "superadmin")
	root := as(t, a, onA, rootID)
	adminID := account(t, a, "demoted@example.com", "Demoted", "admin")
	adminOnA := as(t, a, onA, adminID)
	adminOnB := on(adminOnA, onB)
	for range 3 {
		adminOnB.expect(http.StatusOK, "GET", "/api/admin/applications", nil)
		adminOnA.expect(http.StatusOK, "GET", "/api/admin/applications", nil)
	}
	root.expect(http.StatusOK, "PATCH", "/api/admin/users/"+adminID.String(), map[string]any{"role": "member"})
	demoted := time.Now()
	adminOnA.expect(http.StatusForbidden, "GET", "/api/admin/applications", nil) // A at once
	within("demotion", adminOnB, http.StatusForbidden, "GET", "/api/admin/applications", demoted)

	// An account deleted outside either process (SQL): both within the bound.
	goneID := account(t, a, "gone@example.com", "Gone", "admin")
	goneOnA := as(t, a, onA, goneID)
	goneOnB := on(goneOnA, onB)
	goneOnA.expect(http.StatusOK, "GET", "/api/admin/applications", nil)
	goneOnB.expect(http.StatusOK, "GET", "/api/admin/applications", nil)
	if _, err := a.Store.Pool().Exec(context.Background(), `DELETE FROM profiles WHERE id = $1`, goneID); err != nil {
		t.Fatal(err)
	}
	deleted := time.Now()
	within("deleted account (A)", goneOnA, http.StatusUnauthorized, "GET", "/api/admin/applications", deleted)
	within("deleted account (B)", goneOnB, http.StatusUnauthorized, "GET", "/api/admin/applications", deleted)

	if api.SessionCacheTTL > time.Second {
		t.Fatalf("SessionCacheTTL %v is above the 1 s bound", api.SessionCacheTTL)
	}
}
