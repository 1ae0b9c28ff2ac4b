package db_test

import (
	"context"
	"testing"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/coi"
)

// The review queue and the review insert test team lists in SQL
// (team_lists_email); everything else uses coi.TeamLists. Both are
// the one rule, so they answer alike.
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
