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

// eventDayRun is an EventDay run with every activity mocked (timers
// skipped); calls records each step with the time it ran.
type eventDayRun struct {
	env     *testsuite.TestWorkflowEnvironment
	edition uuid.UUID
	mu      sync.Mutex
	calls   map[string][]time.Time
	stored  *workflows.EventDates
}

func newEventDayRun(t *testing.T) *eventDayRun {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.EventDay)
	env.RegisterWorkflow(workflows.SendEmail)
	env.RegisterActivity(&activities.HackathonActivities{})
	r := &eventDayRun{env: env, edition: uuid.New(), calls: map[string][]time.Time{}}
	var a *activities.HackathonActivities
	note := func(step string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls[step] = append(r.calls[step], env.Now())
	}
	env.OnActivity(a.RecordEventTickets, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.EventNotice) ([]activities.EmailRef, error) {
			note("tickets")
			if in.HackathonID != r.edition {
				return nil, errors.New("tickets: wrong edition")
			}
			return []activities.EmailRef{{Key: "event-ticket:1", Kind: "event_ticket"},
				{Key: "event-ticket:2", Kind: "event_ticket"}}, nil
		})
	env.OnActivity(a.RecordEventThanks, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.EventNotice) ([]activities.EmailRef, error) {
			note("thanks")
			return []activities.EmailRef{{Key: "event-thanks:1", Kind: "event_thanks"}}, nil
		})
	env.OnActivity(a.EventDayDates, mock.Anything, mock.Anything).Return(
		func(context.Context, uuid.UUID) (activities.EventDates, error) {
			note("read dates")
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.stored == nil {
				return activities.EventDates{}, errors.New("the test stored no dates")
			}
			return *r.stored, nil
		})
	env.OnWorkflow(workflows.SendEmail, mock.Anything, mock.Anything).Return(workflows.SendEmailResult{Status: "sent"}, nil)
	return r
}

func (r *eventDayRun) signal(delay time.Duration, d workflows.EventDates) {
	r.env.RegisterDelayedCallback(func() {
		r.mu.Lock()
		r.stored = &d
		r.mu.Unlock()
		r.env.SignalWorkflow(workflows.EventDayDatesSignal, d)
	}, delay)
}

func (r *eventDayRun) run(t *testing.T, d workflows.EventDates) workflows.EventDayResult {
	t.Helper()
	r.env.ExecuteWorkflow(workflows.EventDay, workflows.EventDayInput{HackathonID: r.edition, PublicURL: "https://h.test", Dates: d})
	if err := r.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.EventDayResult
	if err := r.env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

func (r *eventDayRun) at(t *testing.T, step string, want time.Time) {
	t.Helper()
	got := r.calls[step]
	if len(got) != 1 {
		t.Fatalf("%s ran %d times (%v), want once at %v", step, len(got), got, want)
	}
	if d := got[0].Sub(want); d < 0 || d > time.Second {
		t.Fatalf("%s at %v, want %v", step, got[0], want)
	}
}

func TestEventDay(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	ptr := func(t time.Time) *time.Time { return &t }

	t.Run("TicketsThenThanks", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		start := r.env.Now()
		starts, ends := start.Add(10*day), start.Add(11*day)
		res := r.run(t, workflows.EventDates{StartsAt: &starts, EndsAt: &ends})
		if res.Tickets != 2 || res.Thanks != 1 {
			t.Fatalf("result %+v", res)
		}
		r.at(t, "tickets", starts.Add(-day))
		r.at(t, "thanks", ends.Add(day))
	})

	t.Run("NoDatesEndsAtOnce", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		res := r.run(t, workflows.EventDates{})
		if res != (workflows.EventDayResult{}) || len(r.calls) != 0 {
			t.Fatalf("result %+v, calls %v", res, r.calls)
		}
	})

	t.Run("StartedLateSendsTicketsNow", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		start := r.env.Now()
		starts, ends := start.Add(time.Hour), start.Add(2*day)
		r.run(t, workflows.EventDates{StartsAt: &starts, EndsAt: &ends})
		r.at(t, "tickets", start)
		r.at(t, "thanks", ends.Add(day))
	})

	t.Run("OverEventSendsNoTickets", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		start := r.env.Now()
		res := r.run(t, workflows.EventDates{StartsAt: ptr(start.Add(-3 * day)), EndsAt: ptr(start.Add(-2 * day))})
		if res.Tickets != 0 || res.Thanks != 1 || len(r.calls["tickets"]) != 0 {
			t.Fatalf("result %+v, calls %v", res, r.calls)
		}
	})

	t.Run("MovedDatesRearm", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		start := r.env.Now()
		starts, ends := start.Add(10*day), start.Add(11*day)
		// A day in, the event moves 5 days later: the tickets wait for it.
		later := workflows.EventDates{StartsAt: ptr(starts.Add(5 * day)), EndsAt: ptr(ends.Add(5 * day))}
		r.signal(day, later)
		r.run(t, workflows.EventDates{StartsAt: &starts, EndsAt: &ends})
		r.at(t, "tickets", later.StartsAt.Add(-day))
		r.at(t, "thanks", later.EndsAt.Add(day))
		if len(r.calls["read dates"]) != 1 {
			t.Fatalf("dates read %v", r.calls["read dates"])
		}
	})

	t.Run("StartMovedLaterAfterTicketsSendsAgain", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		start := r.env.Now()
		starts, ends := start.Add(2*day), start.Add(3*day)
		// After the tickets went (a day in), the event moves a week later:
		// the tickets go again nearer the new start (each email is keyed
		// per application, so a person gets one anyway).
		later := workflows.EventDates{StartsAt: ptr(starts.Add(7 * day)), EndsAt: ptr(ends.Add(7 * day))}
		r.signal(day+time.Hour, later)
		res := r.run(t, workflows.EventDates{StartsAt: &starts, EndsAt: &ends})
		if got := r.calls["tickets"]; len(got) != 2 || !got[1].Equal(later.StartsAt.Add(-day)) {
			t.Fatalf("tickets at %v", got)
		}
		if res.Tickets != 4 || res.Thanks != 1 {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("BadInput", func(t *testing.T) {
		t.Parallel()
		r := newEventDayRun(t)
		r.env.ExecuteWorkflow(workflows.EventDay, workflows.EventDayInput{})
		if r.env.GetWorkflowError() == nil {
			t.Fatal("a run without an edition did not fail")
		}
	})
}

func TestEventDayRequest(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	r := workflows.EventDayRequest(workflows.EventDayInput{HackathonID: id})
	if r.ID != "event-day:"+id.String() || r.Type != "EventDay" || r.Kind != workflows.KindEventDay ||
		r.Signal != workflows.EventDayDatesSignal || r.Subject != id.String() {
		t.Fatalf("request %+v", r)
	}
}
