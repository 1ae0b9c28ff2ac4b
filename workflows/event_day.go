package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/checkin"
)

// EventDayDatesSignal says an edition's event dates changed. A poke: the
// run reads the dates the database holds.
const EventDayDatesSignal = "dates"

// EventDates are an edition's event dates; the input, the signal and the
// EventDayDates activity carry this one type.
type EventDates = checkin.EventDates

// EventDayInput starts the EventDay workflow of an edition.
type EventDayInput struct {
	HackathonID uuid.UUID
	PublicURL   string
	Dates       EventDates
}

// EventDayResult sums up a run.
type EventDayResult struct {
	Tickets int // emails
	Thanks  int // emails
}

// EventDayID is the workflow ID of an edition's event day.
func EventDayID(hackathonID uuid.UUID) string { return "event-day:" + hackathonID.String() }

// EventDayRequest starts (or, with the signal, pokes) the EventDay
// workflow of an edition. The summary names it by id only.
func EventDayRequest(in EventDayInput) Request {
	r := Request{ID: EventDayID(in.HackathonID), Type: "EventDay", Input: in,
		Kind: KindEventDay, Subject: in.HackathonID.String(),
		Summary: "Event day of hackathon " + in.HackathonID.String()}
	r.Signal, r.SignalInput = EventDayDatesSignal, in.Dates
	return r
}

// eventStep is what EventDay does next.
type eventStep int

const (
	stepTickets eventStep = iota
	stepThanks
)

func (s eventStep) String() string { return [...]string{"tickets", "thanks"}[s] }

// eventDay is an edition's event dates and what has been done for them.
type eventDay struct {
	Dates   EventDates
	Tickets bool
	Thanks  bool
}

// next is the earliest thing left to do, and when (never before now):
// the tickets a day before the start (while the event has not ended), the
// thank-you a day after the end. A start moved later than the lead gets
// its tickets again (each is keyed per application: sent once anyway).
func (e *eventDay) next(now time.Time) (step eventStep, at time.Time, ok bool) {
	d := e.Dates
	if !e.Tickets && d.StartsAt != nil && (d.EndsAt == nil || now.Before(*d.EndsAt)) {
		at = d.StartsAt.Add(-checkin.TicketLead)
		step, ok = stepTickets, true
	} else if !e.Thanks && d.EndsAt != nil {
		at = d.EndsAt.Add(checkin.ThanksDelay)
		step, ok = stepThanks, true
	}
	if ok && at.Before(now) {
		at = now
	}
	return step, at, ok
}

// EventDay runs an edition's event day: 24 hours before the start each
// attending applicant gets their ticket by email (event-ticket:<id>), and
// a day after the end one thank-you with the feedback link when there is
// one (event-thanks:<id>). A signal says the dates changed: the run reads
// them (EventDayDates) and re-arms its wait. With nothing left ahead (no
// dates, or both sent) the run ends; a later change starts a fresh run.
func EventDay(ctx workflow.Context, in EventDayInput) (EventDayResult, error) {
	var res EventDayResult
	if in.HackathonID == uuid.Nil {
		return res, temporal.NewNonRetryableApplicationError("hackathon is required", "BadInput", nil)
	}
	e := &eventDay{Dates: in.Dates}
	progress := "starting"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	dates := workflow.GetSignalChannel(ctx, EventDayDatesSignal)
	var a *activities.HackathonActivities
	actx := storeActivity(ctx, activities.ErrTypeHackathonNotFound, activities.ErrTypeNoSigningKey)
	notice := activities.EventNotice{HackathonID: in.HackathonID, PublicURL: in.PublicURL}
	for {
		took := false
		for dates.ReceiveAsync(nil) {
			took = true
		}
		if took {
			var d EventDates
			if err := workflow.ExecuteActivity(actx, a.EventDayDates, in.HackathonID).Get(ctx, &d); err != nil {
				return res, err
			}
			if d.StartsAt != nil && (e.Dates.StartsAt == nil || d.StartsAt.After(*e.Dates.StartsAt)) &&
				d.StartsAt.Add(-checkin.TicketLead).After(workflow.Now(ctx)) {
				e.Tickets = false
			}
			e.Dates = d
			continue
		}
		now := workflow.Now(ctx)
		step, at, ok := e.next(now)
		if !ok {
			progress = "done"
			return res, nil
		}
		progress = fmt.Sprintf("next: %s at %s", step, at.UTC().Format(time.RFC3339))
		if at.After(now) {
			tctx, cancel := workflow.WithCancel(ctx)
			timer := workflow.NewTimer(tctx, at.Sub(now))
			sel := workflow.NewSelector(ctx)
			sel.AddFuture(timer, func(workflow.Future) {})
			sel.AddReceive(dates, func(workflow.ReceiveChannel, bool) {})
			sel.Select(ctx)
			cancel()
			continue
		}
		progress = step.String()
		var refs []activities.EmailRef
		fn := a.RecordEventTickets
		if step == stepThanks {
			fn = a.RecordEventThanks
		}
		if err := workflow.ExecuteActivity(actx, fn, notice).Get(ctx, &refs); err != nil {
			return res, err
		}
		if err := sendAll(ctx, refs); err != nil {
			return res, err
		}
		if step == stepTickets {
			res.Tickets += len(refs)
			e.Tickets = true
		} else {
			res.Thanks += len(refs)
			e.Thanks = true
		}
	}
}
