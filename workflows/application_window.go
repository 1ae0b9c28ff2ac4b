package workflows

import (
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/hackathon"
)

// ApplicationWindowReminderLead is how long before applications close the
// owners of unsubmitted drafts are reminded.
const ApplicationWindowReminderLead = 48 * time.Hour

// ApplicationWindowDatesSignal says an edition's window (or its
// announcement) changed. It is a poke: the run reads the dates the
// database holds (signals can arrive out of order), so a repeated or late
// signal is harmless.
const ApplicationWindowDatesSignal = "dates"

// ApplicationDates are an edition's window; the input, the signal and the
// ApplicationWindowDates activity carry this one type.
type ApplicationDates = hackathon.Dates

// ApplicationWindowInput starts the ApplicationWindow workflow of an
// edition.
type ApplicationWindowInput struct {
	HackathonID uuid.UUID
	PublicURL   string
	Dates       ApplicationDates
}

// ApplicationWindowResult sums up a run.
type ApplicationWindowResult struct {
	Announced int // recipients of the opening's broadcast
	Reminded  int // emails
	Summaries int // emails to superadmins
	Closed    bool
}

// ApplicationWindowID is the workflow ID of an edition's window.
func ApplicationWindowID(hackathonID uuid.UUID) string {
	return "application-window:" + hackathonID.String()
}

// ApplicationWindowRequest starts the ApplicationWindow workflow of a new
// edition. The summary names it by id only.
func ApplicationWindowRequest(in ApplicationWindowInput) Request {
	return Request{ID: ApplicationWindowID(in.HackathonID), Type: "ApplicationWindow", Input: in,
		Kind: KindApplicationWindow, Subject: in.HackathonID.String(),
		Summary: "Application window of hackathon " + in.HackathonID.String()}
}

// ApplicationWindowSignalRequest tells an edition's ApplicationWindow
// workflow that its window changed, starting a fresh run when none is
// running.
func ApplicationWindowSignalRequest(in ApplicationWindowInput) Request {
	r := ApplicationWindowRequest(in)
	r.Signal, r.SignalInput = ApplicationWindowDatesSignal, in.Dates
	return r
}

// appWindow is an edition's window and what has been done for it.
type appWindow struct {
	Opens     time.Time
	Closes    *time.Time
	Announced bool
	Reminded  bool
	Closed    bool
}

// setDates applies changed dates, as TermWindow's windows do: a close
// moved past now reopens the record of the close, and a close moved later
// than the reminder's lead gets its reminder (each draft is reminded once
// anyway: the emails are keyed per application). An announcement is never
// repeated (one broadcast per edition).
func (w *appWindow) setDates(d ApplicationDates, now time.Time) {
	changedClose := (w.Closes == nil) != (d.ClosesAt == nil) || (d.ClosesAt != nil && !d.ClosesAt.Equal(*w.Closes))
	w.Opens, w.Closes = d.OpensAt, d.ClosesAt
	if d.ClosesAt == nil || !changedClose {
		return
	}
	if d.ClosesAt.After(now) {
		w.Closed = false
		if d.ClosesAt.Add(-ApplicationWindowReminderLead).After(now) {
			w.Reminded = false
		}
	}
}

// next is the earliest thing left to do, and when (never before now). A
// window found closed before it was announced announces and reminds
// nothing: only its close is summed up. Without a close, the announcement
// is all there is.
func (w *appWindow) next(now time.Time) (step windowStep, at time.Time, ok bool) {
	consider := func(s windowStep, t time.Time) {
		if t.Before(now) {
			t = now
		}
		if !ok || t.Before(at) || (t.Equal(at) && s < step) {
			step, at, ok = s, t, true
		}
	}
	if !w.Announced && w.Closes != nil && !now.Before(*w.Closes) {
		w.Announced, w.Reminded = true, true
	}
	switch {
	case !w.Announced:
		consider(stepAnnounce, w.Opens)
	case !w.Reminded && w.Closes != nil && now.Before(*w.Closes):
		consider(stepRemind, w.Closes.Add(-ApplicationWindowReminderLead))
	}
	if !w.Closed && w.Closes != nil {
		consider(stepClose, *w.Closes)
	}
	return step, at, ok
}

// ApplicationWindow runs an edition's application window: at the opening
// it announces it to the marketing audience (a broadcast, when the edition
// asks for one: hackathon.Announce), 48 hours before the close it reminds
// the owner of each unsubmitted draft once, and at the close it sends the
// superadmins a summary (submitted, drafts left). A signal says the dates
// changed: the run reads them from the database (ApplicationWindowDates)
// and re-arms its wait (a selector over a cancellable timer and the
// signal channel, as TermWindow). Signals are taken before a fired timer
// is acted on. The progress query answers the next step.
func ApplicationWindow(ctx workflow.Context, in ApplicationWindowInput) (ApplicationWindowResult, error) {
	var res ApplicationWindowResult
	if in.HackathonID == uuid.Nil || in.Dates.OpensAt.IsZero() {
		return res, temporal.NewNonRetryableApplicationError("hackathon and opening are required", "BadInput", nil)
	}
	w := &appWindow{Opens: in.Dates.OpensAt, Closes: in.Dates.ClosesAt}
	progress := "starting"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	logger := workflow.GetLogger(ctx)
	dates := workflow.GetSignalChannel(ctx, ApplicationWindowDatesSignal)
	var a *activities.HackathonActivities
	actx := storeActivity(ctx, activities.ErrTypeHackathonNotFound, activities.ErrTypeNoSigningKey)
	// take takes the signals delivered so far and reports whether there
	// were any.
	take := func() bool {
		took := false
		for dates.ReceiveAsync(nil) {
			took = true
		}
		return took
	}
	for {
		if take() {
			var d ApplicationDates
			if err := workflow.ExecuteActivity(actx, a.ApplicationWindowDates, in.HackathonID).Get(ctx, &d); err != nil {
				return res, err
			}
			w.setDates(d, workflow.Now(ctx))
			logger.Info("application window dates changed", "hackathon", in.HackathonID)
			continue // signals that came during the read
		}
		now := workflow.Now(ctx)
		step, at, ok := w.next(now)
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
			sel.AddReceive(dates, func(workflow.ReceiveChannel, bool) {}) // the loop takes it
			sel.Select(ctx)
			cancel() // a signal leaves no stale timer behind
			continue // decide again: the time has come, or the dates changed
		}
		progress = step.String()
		switch step {
		case stepAnnounce:
			var ann activities.Announcement
			if err := workflow.ExecuteActivity(actx, a.AnnounceApplications, activities.AnnounceInput{
				HackathonID: in.HackathonID, PublicURL: in.PublicURL,
				WorkflowID: BroadcastID(hackathon.AnnouncementID(in.HackathonID)),
			}).Get(ctx, &ann); err != nil {
				return res, err
			}
			if ann.BroadcastID != uuid.Nil {
				if err := startBroadcast(ctx, BroadcastInput{BroadcastID: ann.BroadcastID, Subject: ann.Subject,
					Total: ann.Total, PublicURL: in.PublicURL}); err != nil {
					return res, err
				}
				res.Announced = ann.Total
			}
			w.Announced = true
			// Opened inside the reminder's lead: no reminder right after.
			if w.Closes != nil && !workflow.Now(ctx).Before(w.Closes.Add(-ApplicationWindowReminderLead)) {
				w.Reminded = true
			}
		case stepRemind:
			var refs []activities.EmailRef
			if err := workflow.ExecuteActivity(actx, a.RecordApplicationReminders, activities.ApplicationWindowNotice{
				HackathonID: in.HackathonID, ClosesAt: *w.Closes, PublicURL: in.PublicURL}).Get(ctx, &refs); err != nil {
				return res, err
			}
			if err := sendAll(ctx, refs); err != nil {
				return res, err
			}
			res.Reminded += len(refs)
			w.Reminded = true
		case stepClose:
			var refs []activities.EmailRef
			if err := workflow.ExecuteActivity(actx, a.RecordApplicationSummary, activities.ApplicationWindowNotice{
				HackathonID: in.HackathonID, ClosesAt: *w.Closes, PublicURL: in.PublicURL}).Get(ctx, &refs); err != nil {
				return res, err
			}
			if err := sendAll(ctx, refs); err != nil {
				return res, err
			}
			res.Summaries += len(refs)
			res.Closed = true
			w.Closed = true
			logger.Info("applications closed", "hackathon", in.HackathonID, "summaries", len(refs))
		}
	}
}

// startBroadcast starts the Broadcast workflow of a recorded broadcast as
// an abandoned child under its business-key ID, as the outbox would start
// it, and waits only for the start; one already started counts as started.
func startBroadcast(ctx workflow.Context, in BroadcastInput) error {
	req := BroadcastRequest(in)
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:            req.ID,
		ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
		TypedSearchAttributes: req.SearchAttributes(),
		StaticSummary:         req.Summary,
	})
	err := workflow.ExecuteChildWorkflow(cctx, Broadcast, req.Input).GetChildWorkflowExecution().Get(ctx, nil)
	var started *temporal.ChildWorkflowExecutionAlreadyStartedError
	if errors.As(err, &started) {
		return nil
	}
	return err
}
