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
	"hackdesk/internal/feature/hackathon"
	"hackdesk/workflows"
)

// appWindowRun is an ApplicationWindow run on the test environment with
// every activity mocked (timers skipped); calls records each step with
// the (skipped-ahead) time it ran.
type appWindowRun struct {
	env     *testsuite.TestWorkflowEnvironment
	edition uuid.UUID
	mu      sync.Mutex
	calls   map[string][]time.Time
	// stored are the edition's dates in the database
	// (ApplicationWindowDates).
	stored *workflows.ApplicationDates
	// announced is what AnnounceApplications answers.
	announced activities.Announcement
	// broadcasts are the Broadcast workflows started.
	broadcasts []workflows.BroadcastInput
}

func newAppWindowRun(t *testing.T) *appWindowRun {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.ApplicationWindow)
	env.RegisterWorkflow(workflows.SendEmail)
	env.RegisterWorkflow(workflows.Broadcast)
	env.RegisterActivity(&activities.HackathonActivities{})
	r := &appWindowRun{env: env, edition: uuid.New(), calls: map[string][]time.Time{}}
	var a *activities.HackathonActivities
	note := func(step string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls[step] = append(r.calls[step], env.Now())
	}
	env.OnActivity(a.AnnounceApplications, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.AnnounceInput) (activities.Announcement, error) {
			note("announce")
			if in.HackathonID != r.edition || in.WorkflowID != workflows.BroadcastID(hackathon.AnnouncementID(r.edition)) {
				return activities.Announcement{}, errors.New("announce: wrong input")
			}
			return r.announced, nil
		})
	env.OnActivity(a.RecordApplicationReminders, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ApplicationWindowNotice) ([]activities.EmailRef, error) {
			note("remind")
			return []activities.EmailRef{{Key: "apply-reminder:1", Kind: "apply_reminder"},
				{Key: "apply-reminder:2", Kind: "apply_reminder"}}, nil
		})
	env.OnActivity(a.RecordApplicationSummary, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ApplicationWindowNotice) ([]activities.EmailRef, error) {
			note("close")
			return []activities.EmailRef{{Key: "apply-summary:1", Kind: "apply_summary"}}, nil
		})
	env.OnActivity(a.ApplicationWindowDates, mock.Anything, mock.Anything).Return(
		func(context.Context, uuid.UUID) (activities.ApplicationDates, error) {
			note("read dates")
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.stored == nil {
				return activities.ApplicationDates{}, errors.New("the test stored no dates")
			}
			return *r.stored, nil
		})
	env.OnWorkflow(workflows.SendEmail, mock.Anything, mock.Anything).Return(workflows.SendEmailResult{Status: "sent"}, nil)
	env.OnWorkflow(workflows.Broadcast, mock.Anything, mock.Anything).Run(func(args mock.Arguments) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.broadcasts = append(r.broadcasts, args.Get(1).(workflows.BroadcastInput))
	}).Return(workflows.BroadcastResult{}, nil)
	return r
}

// signal stores new dates and signals them at delay, as a PATCH does.
func (r *appWindowRun) signal(delay time.Duration, d workflows.ApplicationDates) {
	r.env.RegisterDelayedCallback(func() {
		r.mu.Lock()
		r.stored = &d
		r.mu.Unlock()
		r.env.SignalWorkflow(workflows.ApplicationWindowDatesSignal, d)
	}, delay)
}

func (r *appWindowRun) run(t *testing.T, d workflows.ApplicationDates) workflows.ApplicationWindowResult {
	t.Helper()
	r.env.ExecuteWorkflow(workflows.ApplicationWindow, workflows.ApplicationWindowInput{HackathonID: r.edition,
		PublicURL: "https://h.test", Dates: d})
	if err := r.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.ApplicationWindowResult
	if err := r.env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

func (r *appWindowRun) at(t *testing.T, step string, want time.Time) {
	t.Helper()
	got := r.calls[step]
	if len(got) != 1 {
		t.Fatalf("%s ran %d times (%v), want once at %v", step, len(got), got, want)
	}
	if d := got[0].Sub(want); d < 0 || d > time.Second {
		t.Fatalf("%s at %v, want %v", step, got[0], want)
	}
}

func (r *appWindowRun) never(t *testing.T, step string) {
	t.Helper()
	if got := r.calls[step]; len(got) != 0 {
		t.Fatalf("%s ran at %v", step, got)
	}
}

func TestApplicationWindow(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour

	t.Run("AnnounceRemindClose", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		r.announced = activities.Announcement{BroadcastID: hackathon.AnnouncementID(r.edition), Subject: "Applications for H are open", Total: 7}
		start := r.env.Now()
		opens, closes := start.Add(day), start.Add(10*day)
		res := r.run(t, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes})
		r.at(t, "announce", opens)
		r.at(t, "remind", closes.Add(-workflows.ApplicationWindowReminderLead))
		r.at(t, "close", closes)
		if res.Announced != 7 || res.Reminded != 2 || res.Summaries != 1 || !res.Closed {
			t.Fatalf("result %+v", res)
		}
		if len(r.broadcasts) != 1 || r.broadcasts[0].BroadcastID != r.announced.BroadcastID || r.broadcasts[0].Total != 7 ||
			r.broadcasts[0].PublicURL != "https://h.test" {
			t.Fatalf("broadcasts started %+v", r.broadcasts)
		}
	})

	t.Run("NothingToAnnounceStartsNoBroadcast", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		closes := start.Add(5 * day)
		res := r.run(t, workflows.ApplicationDates{OpensAt: start.Add(time.Hour), ClosesAt: &closes})
		if res.Announced != 0 || len(r.broadcasts) != 0 || res.Reminded != 2 {
			t.Fatalf("result %+v, broadcasts %v", res, r.broadcasts)
		}
	})

	t.Run("NoCloseAnnouncesOnly", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		res := r.run(t, workflows.ApplicationDates{OpensAt: start.Add(2 * day)})
		r.at(t, "announce", start.Add(2*day))
		r.never(t, "remind")
		r.never(t, "close")
		if res.Closed {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("AlreadyClosedSummarizesOnly", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		closes := start.Add(-day)
		res := r.run(t, workflows.ApplicationDates{OpensAt: start.Add(-10 * day), ClosesAt: &closes})
		r.never(t, "announce")
		r.never(t, "remind")
		r.at(t, "close", start)
		if !res.Closed || res.Summaries != 1 {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("OpensInsideTheLeadNoReminder", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(time.Hour), start.Add(24*time.Hour)
		r.run(t, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes})
		r.at(t, "announce", opens)
		r.never(t, "remind")
		r.at(t, "close", closes)
	})

	t.Run("DatesMovedLater", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(day), start.Add(5*day)
		newOpens, newCloses := start.Add(2*day), start.Add(12*day)
		r.signal(time.Hour, workflows.ApplicationDates{OpensAt: newOpens, ClosesAt: &newCloses})
		r.run(t, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes})
		r.at(t, "announce", newOpens)
		r.at(t, "remind", newCloses.Add(-workflows.ApplicationWindowReminderLead))
		r.at(t, "close", newCloses)
		r.at(t, "read dates", start.Add(time.Hour))
	})

	t.Run("CloseMovedEarlierAfterTheReminder", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(-day), start.Add(3*day)
		// After the reminder (at +1 day), the close moves from +3 to +2
		// days: no second reminder, one summary at the new close.
		newCloses := start.Add(2 * day)
		r.signal(36*time.Hour, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &newCloses})
		r.run(t, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes})
		r.at(t, "announce", start)
		r.at(t, "remind", closes.Add(-workflows.ApplicationWindowReminderLead))
		r.at(t, "close", newCloses)
	})

	t.Run("CloseMovedLaterBeforeItCame", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		start := r.env.Now()
		opens, closes := start.Add(-day), start.Add(time.Hour)
		later := start.Add(6 * day)
		// The close, an hour away (inside the lead: no reminder), moves
		// six days out: the reminder comes back two days before the new
		// close, and one summary at it.
		r.signal(30*time.Minute, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &later})
		res := r.run(t, workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes})
		r.at(t, "remind", later.Add(-workflows.ApplicationWindowReminderLead))
		r.at(t, "close", later)
		if !res.Closed {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("ErrBadInput", func(t *testing.T) {
		t.Parallel()
		r := newAppWindowRun(t)
		r.env.ExecuteWorkflow(workflows.ApplicationWindow, workflows.ApplicationWindowInput{})
		if r.env.GetWorkflowError() == nil {
			t.Fatal("a run without an edition succeeded")
		}
	})
}

func TestApplicationWindowRequest(t *testing.T) {
	t.Parallel()
	id := uuid.MustParse("0b7d8c51-2c57-4f7e-9d55-0dd1a9e0b001")
	req := workflows.ApplicationWindowRequest(workflows.ApplicationWindowInput{HackathonID: id})
	if req.ID != "application-window:"+id.String() || req.Type != "ApplicationWindow" || req.Kind != "application-window" ||
		req.Subject != id.String() || req.Summary != "Application window of hackathon "+id.String() {
		t.Fatalf("request %+v", req)
	}
	sig := workflows.ApplicationWindowSignalRequest(workflows.ApplicationWindowInput{HackathonID: id})
	if sig.ID != req.ID || sig.Signal != workflows.ApplicationWindowDatesSignal {
		t.Fatalf("signal request %+v", sig)
	}
}
