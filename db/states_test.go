package db_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"hackdesk/application"
	"hackdesk/broadcast"
	"hackdesk/hiring"
	"hackdesk/mail"
	"hackdesk/resume"
	"hackdesk/testenv"
)

// strs turns a set of typed constants into their values.
func strs[T ~string](set []T) []string {
	out := make([]string, len(set))
	for i, v := range set {
		out[i] = string(v)
	}
	return out
}

// checkValue matches one quoted literal of a CHECK (col IN (...)) as
// pg_get_constraintdef prints it: 'draft'::text.
var checkValue = regexp.MustCompile(`'((?:[^']|'')*)'::text`)

// The state sets of the Go code and the schema's CHECK constraints are the
// same sets, so that neither can gain a state the other does not know.
func TestStateSetsMatchChecks(t *testing.T) {
	ctx := context.Background()
	s := testenv.Store(t)
	for _, tc := range []struct {
		constraint string
		want       []string
	}{
		{"applications_status_check", strs(application.Statuses())},
		{"applications_decision_check", strs(application.Decisions())},
		{"applications_rsvp_check", strs(application.Rsvps())},
		{"emails_status_check", strs(mail.Statuses())},
		{"selections_status_check", strs(hiring.Statuses())},
		{"positions_grants_check", strs(hiring.Grants())},
		{"broadcasts_status_check", strs(broadcast.Statuses())},
		{"broadcasts_audience_kind_check", strs(broadcast.Kinds())},
		{"broadcasts_decision_check", strs(broadcast.Decisions())},
		{"broadcast_recipients_status_check", strs(broadcast.RecipientStatuses())},
		{"applications_resume_type_check", resume.Kinds()},
	} {
		t.Run(tc.constraint, func(t *testing.T) {
			var def string
			if err := s.Pool().QueryRow(ctx,
				`SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = $1 AND contype = 'c'`,
				tc.constraint).Scan(&def); err != nil {
				t.Fatalf("constraint %s: %v", tc.constraint, err)
			}
			var got []string
			for _, m := range checkValue.FindAllStringSubmatch(def, -1) {
				got = append(got, m[1])
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("%s is %s: values %q, Go constants %q", tc.constraint, def, got, want)
			}
		})
	}
}
