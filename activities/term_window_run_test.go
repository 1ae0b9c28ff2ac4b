package activities_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/outbox"
	hdworker "hackdesk/worker"
	"hackdesk/workflows"
)

// TestTermWindowSignalWithItsTimer runs TermWindow on hackdesk's worker
// with the real activities and makes its timer fire in the same workflow
// task as a signal: the worker is stopped while the opening's timer fires
// and a PATCH moves the opening an hour later, then a worker comes back.
// The run must follow the new dates, not announce on the old ones.
func TestTermWindowSignalWithItsTimer(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	store := testenv.Store(t)
	tc := testenv.Temporal(t, cfg)
	ctx := context.Background()

	var term db.Term // made once the worker is up
	start := func() func() {
		w := hdworker.New(tc, testenv.WorkerOptions(cfg), activities.NewSet(activities.Deps{Store: store}))
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		testenv.MakeCurrent(t, tc, testenv.WorkerOptions(cfg))
		return w.Stop
	}
	progress := func(want string) {
		t.Helper()
		var got string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			v, err := tc.QueryWorkflow(ctx, workflows.TermWindowID(term.ID), "", workflows.ProgressQuery)
			if err == nil && v.Get(&got) == nil && (got == want || strings.HasPrefix(got, "next: remind")) {
				break
			}
		}
		if got != want {
			t.Fatalf("progress %q, want %q", got, want)
		}
	}

	// The worker is up (and current) before the opening is set, so a slow
	// start on a loaded machine does not eat the seconds before it.
	stop := start()
	var err error
	opens := time.Now().Add(5 * time.Second).UTC().Truncate(time.Second)
	closes := opens.Add(30 * 24 * time.Hour)
	term, err = store.TermInsert(ctx, db.TermInsertParams{Name: "2031-2032", StartsOn: opens, EndsOn: closes,
		OnboardingOpensAt: &opens, OnboardingClosesAt: &closes})
	if err != nil {
		t.Fatal(err)
	}
	in := workflows.TermWindowInput{TermID: term.ID, TermName: term.Name, PublicURL: "https://hackdesk.test",
		Windows: workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes}}
	if _, err := outbox.Start(ctx, tc, cfg.TaskQueue, workflows.TermWindowRequest(in)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.TerminateWorkflow(ctx, workflows.TermWindowID(term.ID), "", "test over") })
	progress("next: announce onboarding at " + opens.Format(time.RFC3339))
	stop()

	time.Sleep(time.Until(opens.Add(time.Second))) // the timer fires with no worker
	later := opens.Add(time.Hour)
	if _, err := store.TermUpdate(ctx, db.TermUpdateParams{ID: term.ID, Name: term.Name, StartsOn: term.StartsOn, EndsOn: term.EndsOn,
		OnboardingOpensAt: &later, OnboardingClosesAt: &closes}); err != nil {
		t.Fatal(err)
	}
	in.Windows.OnboardingOpensAt = &later
	if err := tc.SignalWorkflow(ctx, workflows.TermWindowID(term.ID), "", workflows.TermWindowDatesSignal, in.Windows); err != nil {
		t.Fatal(err)
	}

	defer start()()
	progress("next: announce onboarding at " + later.Format(time.RFC3339))
}
