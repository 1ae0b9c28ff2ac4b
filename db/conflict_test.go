package db_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/coi"
)

// The review queue, the review insert and the admin table apply the
// conflict-of-interest rule in SQL (application_conflict over
// team_lists_email); everything else uses coi.Of and coi.TeamLists. Both
// are the one rule, so they answer alike.
func TestTeamListsEmailMatchesConflictRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	for _, c := range []struct{ team, email string }{
		{"a@x.org", "a@x.org"},
		{"A@X.ORG", "a@x.org"},
		{"b@x.org,a@x.org", "A@x.org"},
		{"b@x.org , a@x.org ", "a@x.org"},
		{" a@x.org", "a@x.org"},
		{"ba@x.org", "a@x.org"},
		{"a@x.org.uk", "a@x.org"},
		{"a@x.org", "a@x.org.uk"},
		{"", "a@x.org"},
		{"a@x.org", ""},
		{"", ""},
		{",,", ""},
		{"a@x.org,,b@x.org", "b@x.org"},
		{"Zoë@X.org", "zoë@x.org"},
	} {
		var sql bool
		if err := s.Pool().QueryRow(ctx, `SELECT team_lists_email($1, $2)`, c.team, c.email).Scan(&sql); err != nil {
			t.Fatal(err)
		}
		if got := coi.TeamLists(c.team, c.email); got != sql {
			t.Errorf("team %q, email %q: coi.TeamLists = %v, team_lists_email = %v", c.team, c.email, got, sql)
		}
	}
}

// application_conflict and coi.Of answer alike, both ways: the actor's
// own application, one whose team lists them, one whose applicant their
// own application lists, and the near misses of each.
func TestApplicationConflictMatchesConflictRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	me, other := uuid.New(), uuid.New()
	for _, c := range []struct {
		actor coi.Actor
		app   coi.Application
	}{
		{coi.Actor{ProfileID: me, Email: "a@x.org"}, coi.Application{ProfileID: me}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "b@x.org"}, coi.Application{ProfileID: me, Email: "b@x.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org"}, coi.Application{ProfileID: other, TeamMembers: "B@x.org , A@X.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "b@x.org"}, coi.Application{ProfileID: other, Email: "b@x.org", TeamMembers: "a@x.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "c@x.org, B@X.ORG"}, coi.Application{ProfileID: other, Email: "b@x.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "b@x.org"}, coi.Application{ProfileID: other, Email: "B@x.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "b@x.org"}, coi.Application{ProfileID: other, Email: "ab@x.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "b@x.org.uk"}, coi.Application{ProfileID: other, Email: "b@x.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "b@x.org"}, coi.Application{ProfileID: other, Email: ""}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: ",,"}, coi.Application{ProfileID: other, Email: ""}},
		{coi.Actor{ProfileID: me, Email: "a@x.org"}, coi.Application{ProfileID: other, Email: "b@x.org"}},
		{coi.Actor{ProfileID: me, Email: "", Team: ""}, coi.Application{ProfileID: other, Email: "", TeamMembers: ""}},
		{coi.Actor{ProfileID: me, Email: "zoë@x.org", Team: "Zoë@X.org"}, coi.Application{ProfileID: other, Email: "zoë@x.org", TeamMembers: "Zoë@X.org"}},
		{coi.Actor{ProfileID: me, Email: "a@x.org", Team: "Zoë@X.org"}, coi.Application{ProfileID: other, Email: "zoë@x.org"}},
	} {
		var sql string
		if err := s.Pool().QueryRow(ctx, `SELECT application_conflict($1, $2, $3, $4, $5, $6)`,
			c.actor.ProfileID, c.actor.Email, c.actor.Team, c.app.ProfileID, c.app.Email, c.app.TeamMembers).Scan(&sql); err != nil {
			t.Fatal(err)
		}
		if got := coi.Of(c.actor, c.app); string(got) != sql {
			t.Errorf("actor %+v, application %+v: coi.Of = %q, application_conflict = %q", c.actor, c.app, got, sql)
		}
	}
}
