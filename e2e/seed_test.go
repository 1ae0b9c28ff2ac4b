package e2e

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/testenv"
)

// account creates a confirmed account with a role, whose password is
// "password-" + email, and returns its id. An empty name stores none.
func account(t *testing.T, a *app.App, email, name, role string) uuid.UUID {
	t.Helper()
	if name == "" {
		name = "-"
	}
	return testenv.Account(t, a.Store, testenv.AccountOpts{Email: email, Name: name, Role: role}).ID
}

// as returns a client holding a fresh session of the account (no login, so
// no rate limit).
func as(t *testing.T, a *app.App, base *client, id uuid.UUID) *client {
	t.Helper()
	return &client{t: t, base: base.base, token: newSession(t, a.Store, id)}
}

// newSession opens a session for a profile straight in the store and
// returns its token.
func newSession(t testing.TB, store *db.Store, profileID uuid.UUID) string {
	t.Helper()
	tok, _ := testenv.Session(t, store, profileID, testenv.SessionOpts{Lifetime: time.Hour})
	return tok
}

// seedApplication writes the owner's application straight to the database,
// complete and either submitted or a draft, and returns its id.
func seedApplication(t testing.TB, a *app.App, owner uuid.UUID, status string) uuid.UUID {
	t.Helper()
	return testenv.Application(t, a.Store, owner, testenv.ApplicationOpts{Submitted: status == "submitted"}).ID
}
