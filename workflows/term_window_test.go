package workflows_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/workflows"
)

// termWindowRun is a TermWindow run on the test environment with every
// activity mocked; calls records "<step> <kind>" with the (skipped-ahead)
// time of each.
type termWindowRun struct {
	env   *testsuite.TestWorkflowEnvironment
	mu    sync.Mutex
	calls map[string][]time.Time
	// stored are the term's dates in the database (TermWindowDates); nil
	// until set, then every signal is a change stored before it is sent.
	stored *workflows.TermWindows
}

// store sets the dates TermWindowDates reads, as a PATCH commits them.
func (r *termWindowRun) store(w workflows.TermWindows) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stored = &w
}

func newTermWindowRun(t *testing.T) *termWindowRun {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.TermWindow)
	env.RegisterWorkflow(workflows.SendEmail)
	env.RegisterActivity(&activities.TermActivities{})
	r := &termWindowRun{env: env, calls: map[string][]time.Time{}}
	var a *activities.TermActivities
	note := func(step string) func(mock.Arguments) {
		return func(args mock.Arguments) {
			var kind string
			switch in := args.Get(1).(type) {
			case activities.TermWindowEmailsInput:
				kind = string(in.Kind)
			case activities.TermWindowCloseInput:
				kind = string(in.Kind)
			}
			r.mu.Lock()
			r.calls[step+" "+kind] = append(r.calls[step+" "+kind], env.Now())
			r.mu.Unlock()
		}
	}
	env.OnActivity(a.RecordWindowAnnouncements, mock.Anything, mock.Anything).Run(note("announce")).
		Return([]activities.EmailRef{{Key: "open-1", Kind: "exec_form_open"}}, nil)
	env.OnActivity(a.RecordWindowReminders, mock.Anything, mock.Anything).Run(note("remind")).
		Return([]activities.EmailRef{{Key: "remind-1", Kind: "exec_form_reminder"}}, nil)
	env.OnActivity(a.RecordWindowClosed, mock.Anything, mock.Anything).Run(note("close")).Return(3, nil)
	env.OnWorkflow(workflows.SendEmail, mock.Anything, mock.Anything).Return(workflows.SendEmailResult{Status: "sent"}, nil)
	env.OnActivity(a.TermWindowDates, mock.Anything, mock.Anything).Return(func(context.Context, uuid.UUID) (activities.TermDates, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls["read dates"] = append(r.calls["read dates"], env.Now())
		if r.stored == nil {
			return activities.TermDates{}, errors.New("the test stored no dates")
		}
		return activities.TermDates(*r.stored), nil
	})
	return r
}

// signal stores new dates and signals them at delay, as a PATCH does.
func (r *termWindowRun) signal(delay time.Duration, w workflows.TermWindows) {
	r.env.RegisterDelayedCallback(func() {
		r.store(w)
		r.env.SignalWorkflow(workflows.TermWindowDatesSignal, w)
	}, delay)
}

func (r *termWindowRun) run(t *testing.T, w workflows.TermWindows) workflows.TermWindowResult {
	t.Helper()
	r.env.ExecuteWorkflow(workflows.TermWindow, workflows.TermWindowInput{TermID: uuid.New(), TermName: "2026-2027",
		PublicURL: "https://h.test", Windows: w})
	if err := r.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.TermWindowResult
	if err := r.env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

// at checks that step happened exactly once, within a second of want.
func (r *termWindowRun) at(t *testing.T, step string, want time.Time) {
	t.Helper()
	got := r.calls[step]
	if len(got) != 1 {
		t.Fatalf("%s ran %d times (%v), want once at %v", step, len(got), got, want)
	}
	if d := got[0].Sub(want); d < 0 || d > time.Second {
		t.Fatalf("%s at %v, want %v", step, got[0], want)
	}
}

func (r *termWindowRun) never(t *testing.T, step string) {
	t.Helper()
	if got := r.calls[step]; len(got) != 0 {
		t.Fatalf("%s ran at %v", step, got)
	}
}

func tp(t time.Time) *time.Time { return &t }

func TestTermWindow(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour

	t.Run("AnnounceRemindClose", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(day), start.Add(5*day)
		rOpens, rCloses := start.Add(2*day), start.Add(3*day) // shorter than the lead: no reminder
		res := r.run(t, workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes,
			ReturningOpensAt: &rOpens, ReturningClosesAt: &rCloses})
		r.at(t, "announce onboarding", opens)
		r.at(t, "remind onboarding", closes.Add(-workflows.TermWindowReminderLead))
		r.at(t, "close onboarding", closes)
		r.at(t, "announce returning", rOpens)
		r.never(t, "remind returning")
		r.at(t, "close returning", rCloses)
		if res.Announced != 2 || res.Reminded != 1 || len(res.Closed) != 2 {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("NoWindows", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		res := r.run(t, workflows.TermWindows{})
		if res.Announced != 0 || len(res.Closed) != 0 || len(r.calls) != 0 {
			t.Fatalf("result %+v, calls %v", res, r.calls)
		}
	})

	t.Run("AlreadyClosedSendsNothing", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		r.run(t, workflows.TermWindows{OnboardingOpensAt: tp(start.Add(-3 * day)), OnboardingClosesAt: tp(start.Add(-day))})
		r.never(t, "announce onboarding")
		r.never(t, "remind onboarding")
		r.at(t, "close onboarding", start)
	})

	t.Run("OpenedInThePastAnnouncesAtOnce", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		closes := start.Add(4 * day)
		r.run(t, workflows.TermWindows{OnboardingOpensAt: tp(start.Add(-day)), OnboardingClosesAt: &closes})
		r.at(t, "announce onboarding", start)
		r.at(t, "remind onboarding", closes.Add(-workflows.TermWindowReminderLead))
		r.at(t, "close onboarding", closes)
	})

	t.Run("DatesMovedEarlier", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		newCloses := start.Add(day)
		// The opening moves into the past: announced at once; the close is
		// inside the lead, so no reminder.
		r.signal(time.Hour, workflows.TermWindows{OnboardingOpensAt: tp(start.Add(-time.Hour)), OnboardingClosesAt: &newCloses})
		r.run(t, workflows.TermWindows{OnboardingOpensAt: tp(start.Add(10 * day)), OnboardingClosesAt: tp(start.Add(20 * day))})
		r.at(t, "announce onboarding", start.Add(time.Hour))
		r.never(t, "remind onboarding")
		r.at(t, "close onboarding", newCloses)
	})

	t.Run("DatesMovedLater", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(day), start.Add(5*day)
		newOpens, newCloses := start.Add(2*day), start.Add(10*day)
		r.signal(time.Hour, workflows.TermWindows{OnboardingOpensAt: &newOpens, OnboardingClosesAt: &newCloses})
		r.run(t, workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes})
		r.at(t, "announce onboarding", newOpens)
		r.at(t, "remind onboarding", newCloses.Add(-workflows.TermWindowReminderLead))
		r.at(t, "close onboarding", newCloses)
	})

	t.Run("ChangeAfterClose", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		closes := start.Add(day)
		rOpens, rCloses := start.Add(10*day), start.Add(20*day)
		// Onboarding closed a day ago; moving its (past) dates sends nothing
		// and records no second close.
		r.signal(2*day, workflows.TermWindows{
			OnboardingOpensAt: tp(start.Add(-5 * day)), OnboardingClosesAt: tp(start.Add(36 * time.Hour)),
			ReturningOpensAt: &rOpens, ReturningClosesAt: &rCloses})
		r.run(t, workflows.TermWindows{OnboardingOpensAt: tp(start.Add(-time.Hour)), OnboardingClosesAt: &closes,
			ReturningOpensAt: &rOpens, ReturningClosesAt: &rCloses})
		r.at(t, "announce onboarding", start)
		r.at(t, "close onboarding", closes)
		r.at(t, "announce returning", rOpens)
		r.at(t, "close returning", rCloses)
	})

	t.Run("RepeatedSignalIsHarmless", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(day), start.Add(5*day)
		same := workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes}
		for _, d := range []time.Duration{time.Hour, 2 * time.Hour, 2 * day} {
			r.signal(d, same)
		}
		r.run(t, same)
		r.at(t, "announce onboarding", opens)
		r.at(t, "remind onboarding", closes.Add(-workflows.TermWindowReminderLead))
		r.at(t, "close onboarding", closes)
	})

	t.Run("StaleSignalIgnored", func(t *testing.T) {
		t.Parallel()
		// Two changes, D1 then D2, reach the workflow out of order (the
		// outbox retried D1's row after D2's): the dates stored last win.
		r := newTermWindowRun(t)
		start := r.env.Now()
		d0 := workflows.TermWindows{OnboardingOpensAt: tp(start.Add(day)), OnboardingClosesAt: tp(start.Add(10 * day))}
		d1 := workflows.TermWindows{OnboardingOpensAt: tp(start.Add(2 * day)), OnboardingClosesAt: tp(start.Add(3 * day))}
		d2 := workflows.TermWindows{OnboardingOpensAt: tp(start.Add(4 * day)), OnboardingClosesAt: tp(start.Add(5 * day))}
		r.store(d0)
		r.env.RegisterDelayedCallback(func() {
			r.store(d1)
			r.store(d2)
			r.env.SignalWorkflow(workflows.TermWindowDatesSignal, d2)
		}, time.Hour)
		r.env.RegisterDelayedCallback(func() { r.env.SignalWorkflow(workflows.TermWindowDatesSignal, d1) }, 2*time.Hour)
		r.run(t, d0)
		r.at(t, "announce onboarding", *d2.OnboardingOpensAt)
		r.at(t, "close onboarding", *d2.OnboardingClosesAt)
	})

	t.Run("Progress", func(t *testing.T) {
		t.Parallel()
		r := newTermWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(day), start.Add(5*day)
		var progress string
		r.env.RegisterDelayedCallback(func() {
			v, err := r.env.QueryWorkflow(workflows.ProgressQuery)
			if err != nil {
				t.Error(err)
				return
			}
			_ = v.Get(&progress)
		}, time.Hour)
		r.run(t, workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes})
		if want := "next: announce onboarding at " + opens.UTC().Format(time.RFC3339); progress != want {
			t.Fatalf("progress %q, want %q", progress, want)
		}
	})
}
