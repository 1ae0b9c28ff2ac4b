package db_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/feature/foundry"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/resume"
)

// strs turns a set of typed constants into their values.
func strs[T ~string](set []T) []string {
	out := make([]string, len(set))
	for i, v := range set {
		out[i] = string(v)
	}
	return out
}

// onboardingKinds are the two exec forms.
var onboardingKinds = []onboarding.Kind{onboarding.Onboarding, onboarding.Returning}

// The Foundry states have no Go set yet: these are the values the workflow
// and activities.RecordStep write (a step starts pending, the database's
// default).
var (
	foundryProjectStatuses = []string{foundry.Running, foundry.Succeeded, foundry.Failed}
	foundryStepStatuses    = []string{foundry.Pending, foundry.Running, foundry.Succeeded, foundry.Failed}
)

// checkValue matches one quoted literal of a CHECK (col IN (...)) as
// pg_get_constraintdef prints it: 'draft'::text.
var checkValue = regexp.MustCompile(`'((?:[^']|'')*)'::text`)

// The state sets of the Go code and the schema's CHECK constraints are the
// same sets, so that neither can gain a state the other does not know.
func TestStateSetsMatchChecks(t *testing.T) {
	t.Parallel()
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
		// Memberships and the shop's receipts.
		{"memberships_status_check", strs([]membership.Status{membership.Unpaid, membership.Paid})},
		{"memberships_method_check", strs(append(slices.Clone(membership.InPersonMethods), membership.Shop))},
		{"receipts_status_check", strs([]membership.ReceiptStatus{membership.ReceiptReceived, membership.ReceiptProcessing,
			membership.ReceiptProcessed, membership.ReceiptParked, membership.ReceiptRejected, membership.ReceiptDuplicate})},
		// Terms: the positions of an exec role.
		{"exec_roles_position_check", term.ExecPositions()},
		// Onboarding: the exec forms and their windows.
		{"exec_form_submissions_kind_check", strs(onboardingKinds)},
		{"term_window_closings_kind_check", strs(onboardingKinds)},
		{"exec_form_submissions_term_type_check", onboarding.TermTypes},
		{"exec_form_submissions_ds_competency_check", onboarding.Competencies},
		// Foundry: the options a project is made with, its steps and states.
		{"foundry_projects_project_type_check", foundry.ProjectTypes},
		{"foundry_projects_database_check", foundry.Databases},
		{"foundry_steps_name_check", []string{foundry.StepCreateRepository, foundry.StepGrantTeam,
			foundry.StepDispatchSetup, foundry.StepSetupRun}},
		{"foundry_projects_status_check", foundryProjectStatuses},
		{"foundry_steps_status_check", foundryStepStatuses},
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
