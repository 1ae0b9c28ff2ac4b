package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/onboarding"
)

// TermWindowReminderLead is how long before a form window closes those who
// have not submitted are reminded.
const TermWindowReminderLead = 48 * time.Hour

// TermWindowDatesSignal says a term's window dates changed. It carries the
// whole new set, but runs since the readDates change take it as a poke and
// read the dates the database holds (signals can arrive out of order), so
// a repeated or late signal is harmless.
const TermWindowDatesSignal = "dates"

// readDates is the change that made TermWindow read the stored dates on a
// signal instead of applying the dates it carries (a signal older than the
// last one applied would win), and look at the signals delivered with a
// timer before acting on the timer (a timer and a signal in the same task
// acted on the old dates). Runs started before it keep the old behaviour.
const readDates = "term-window-read-dates"

// TermWindows are a term's two form windows; a window is both times or
// neither. The input, the signal and the TermWindowDates activity carry
// this one type.
type TermWindows = onboarding.Dates

// TermWindowInput starts the TermWindow workflow of a term.
type TermWindowInput struct {
	TermID    uuid.UUID
	TermName  string
	PublicURL string
	Windows   TermWindows
}

// TermWindowResult sums up a run.
type TermWindowResult struct {
	Announced int // emails
	Reminded  int // emails
	Closed    []string
}

// TermWindowID is the workflow ID of a term's windows.
func TermWindowID(termID uuid.UUID) string { return onboarding.WindowWorkflowID(termID) }

// TermWindowRequest starts the TermWindow workflow of a new term.
func TermWindowRequest(in TermWindowInput) Request {
	return Request{ID: TermWindowID(in.TermID), Type: "TermWindow", Input: in, Kind: KindTerm,
		Subject: in.TermID.String(), Summary: "Form windows of term " + in.TermName}
}

// TermWindowSignalRequest sends a term's changed dates to its TermWindow
// workflow, starting a fresh run when none is running.
func TermWindowSignalRequest(in TermWindowInput) Request {
	r := TermWindowRequest(in)
	r.Signal, r.SignalInput = TermWindowDatesSignal, in.Windows
	return r
}

// formWindow is one window's dates and what has been done for it.
type formWindow struct {
	Kind          onboarding.Kind
	Opens, Closes *time.Time
	Announced     bool
	Reminded      bool
	Closed        bool
}

// setDates applies changed dates. A close moved past now reopens the
// record of the close, and a later close gets its own reminder; an
// announcement is never repeated (its emails are keyed per person anyway).
func (w *formWindow) setDates(opens, closes *time.Time, now time.Time) {
	changedClose := (w.Closes == nil) != (closes == nil) || (closes != nil && !closes.Equal(*w.Closes))
	w.Opens, w.Closes = opens, closes
	if closes == nil || !changedClose {
		return
	}
	if closes.After(now) {
		w.Closed = false
		if closes.Add(-TermWindowReminderLead).After(now) {
			w.Reminded = false
		}
	}
}

type windowStep int

const (
	stepAnnounce windowStep = iota
	stepRemind
	stepClose
)

func (s windowStep) String() string {
	return [...]string{"announce", "remind", "close"}[s]
}

// nextStep is the earliest thing left to do over the windows, and when
// (never before now). A window found already closed before it was
// announced sends nothing: only its close is recorded.
func nextStep(ws []*formWindow, now time.Time) (w *formWindow, step windowStep, at time.Time, ok bool) {
	consider := func(cw *formWindow, cs windowStep, t time.Time) {
		if t.Before(now) {
			t = now
		}
		if !ok || t.Before(at) || (t.Equal(at) && cs < step) {
			w, step, at, ok = cw, cs, t, true
		}
	}
	for _, fw := range ws {
		if fw.Opens == nil || fw.Closes == nil {
			continue
		}
		if !fw.Announced && !now.Before(*fw.Closes) {
			fw.Announced, fw.Reminded = true, true
		}
		switch {
		case !fw.Announced:
			consider(fw, stepAnnounce, *fw.Opens)
		case !fw.Reminded && now.Before(*fw.Closes):
			consider(fw, stepRemind, fw.Closes.Add(-TermWindowReminderLead))
		}
		if !fw.Closed {
			consider(fw, stepClose, *fw.Closes)
		}
	}
	return
}

// TermWindow runs a term's two form windows: for each, it sleeps until the
// window opens and emails the people the form is for, reminds those who
// have not submitted 48 hours before it closes, and records the close.
// A signal says the dates changed: the run reads them from the database
// (TermWindowDates) and re-arms the wait (a selector over a cancellable
// timer and the signal channel, like Temporal's updatable timer sample).
// Signals are taken before a fired timer is acted on. The progress query
// answers the next step.
func TermWindow(ctx workflow.Context, in TermWindowInput) (TermWindowResult, error) {
	var res TermWindowResult
	if in.TermID == uuid.Nil {
		return res, temporal.NewNonRetryableApplicationError("term is required", "BadInput", nil)
	}
	ws := []*formWindow{
		{Kind: onboarding.Onboarding, Opens: in.Windows.OnboardingOpensAt, Closes: in.Windows.OnboardingClosesAt},
		{Kind: onboarding.Returning, Opens: in.Windows.ReturningOpensAt, Closes: in.Windows.ReturningClosesAt},
	}
	progress := "starting"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	reread := workflow.GetVersion(ctx, readDates, workflow.DefaultVersion, 1) >= 1
	dates := workflow.GetSignalChannel(ctx, TermWindowDatesSignal)
	apply := func(d TermWindows) {
		now := workflow.Now(ctx)
		ws[0].setDates(d.OnboardingOpensAt, d.OnboardingClosesAt, now)
		ws[1].setDates(d.ReturningOpensAt, d.ReturningClosesAt, now)
		workflow.GetLogger(ctx).Info("term window dates changed", "term", in.TermID)
	}
	var a *activities.TermActivities
	actx := storeActivity(ctx)
	// take takes the signals delivered so far and reports whether there
	// were any. Before readDates each one's dates are applied in turn.
	take := func() bool {
		took := false
		for {
			var d TermWindows
			if !dates.ReceiveAsync(&d) {
				return took
			}
			took = true
			if !reread {
				apply(d)
			}
		}
	}
	// read applies the dates the database holds now.
	read := func() error {
		var d TermWindows
		if err := workflow.ExecuteActivity(actx, a.TermWindowDates, in.TermID).Get(ctx, &d); err != nil {
			return err
		}
		apply(d)
		return nil
	}
	for {
		// Take every signal already delivered before deciding.
		if take() && reread {
			if err := read(); err != nil {
				return res, err
			}
			continue // signals that came during the read
		}
		now := workflow.Now(ctx)
		w, step, at, ok := nextStep(ws, now)
		if !ok {
			progress = "done"
			return res, nil
		}
		progress = fmt.Sprintf("next: %s %s at %s", step, w.Kind, at.UTC().Format(time.RFC3339))
		if at.After(now) {
			tctx, cancel := workflow.WithCancel(ctx)
			timer := workflow.NewTimer(tctx, at.Sub(now))
			fired := false
			sel := workflow.NewSelector(ctx)
			sel.AddFuture(timer, func(f workflow.Future) { fired = f.Get(ctx, nil) == nil })
			sel.AddReceive(dates, func(c workflow.ReceiveChannel, _ bool) {
				if reread {
					return // the loop takes it
				}
				var d TermWindows
				c.Receive(ctx, &d)
				apply(d)
			})
			sel.Select(ctx)
			cancel() // a signal leaves no stale timer behind
			if reread && dates.Len() > 0 {
				continue // dates changed, perhaps as the timer fired: decide again
			}
			if !fired {
				continue // dates changed: decide again
			}
		}
		progress = fmt.Sprintf("%s %s", step, w.Kind)
		closes := *w.Closes
		ein := activities.TermWindowEmailsInput{TermID: in.TermID, Kind: w.Kind, ClosesAt: closes, PublicURL: in.PublicURL}
		switch step {
		case stepAnnounce:
			var refs []activities.EmailRef
			if err := workflow.ExecuteActivity(actx, a.RecordWindowAnnouncements, ein).Get(ctx, &refs); err != nil {
				return res, err
			}
			if err := sendAll(ctx, refs); err != nil {
				return res, err
			}
			res.Announced += len(refs)
			w.Announced = true
			// Announced inside the reminder lead: no reminder right after.
			if !workflow.Now(ctx).Before(closes.Add(-TermWindowReminderLead)) {
				w.Reminded = true
			}
		case stepRemind:
			var refs []activities.EmailRef
			if err := workflow.ExecuteActivity(actx, a.RecordWindowReminders, ein).Get(ctx, &refs); err != nil {
				return res, err
			}
			if err := sendAll(ctx, refs); err != nil {
				return res, err
			}
			res.Reminded += len(refs)
			w.Reminded = true
		case stepClose:
			var submitted int
			if err := workflow.ExecuteActivity(actx, a.RecordWindowClosed,
				activities.TermWindowCloseInput{TermID: in.TermID, Kind: w.Kind, ClosesAt: closes}).Get(ctx, &submitted); err != nil {
				return res, err
			}
			w.Closed = true
			res.Closed = append(res.Closed, string(w.Kind))
			workflow.GetLogger(ctx).Info("form window closed", "term", in.TermID, "kind", w.Kind, "submitted", submitted)
		}
	}
}
