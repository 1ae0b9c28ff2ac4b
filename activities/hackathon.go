package activities

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/signing"
)

// HackathonActivities run an edition's application window (the
// ApplicationWindow workflow): announce its opening, remind the owners of
// drafts before its close, and sum up the close for the superadmins. Each
// is the hackathon package's function in a transaction.
type HackathonActivities struct {
	Store *db.Store
	// Unsubscribe signs the unsubscribe links of the reminders (from
	// SIGNING_KEY); nil makes RecordApplicationReminders refuse.
	Unsubscribe *signing.Signer
	// Tickets signs the event day's ticket links (from SIGNING_KEY); nil
	// makes RecordEventTickets refuse.
	Tickets *signing.Signer
	// PublicURL is the worker's PUBLIC_URL: the links of a restarted
	// ApplicationWindow whose start named none.
	PublicURL string
}

// The inputs and outputs of the window activities are the hackathon
// package's types.
type (
	// ApplicationDates are an edition's window as stored.
	ApplicationDates = hackathon.Dates
	// AnnounceInput names an edition whose window opens.
	AnnounceInput = hackathon.AnnounceInput
	// Announcement is the broadcast that announces an opening.
	Announcement = hackathon.Announcement
	// ApplicationWindowNotice names an edition's close.
	ApplicationWindowNotice = hackathon.Notice
	// FutureApplicationWindow is an edition with its window ahead.
	FutureApplicationWindow = hackathon.FutureWindow
)

// ErrTypeHackathonNotFound is an edition that no longer exists: no retry
// brings it back.
const ErrTypeHackathonNotFound = "HackathonNotFound"

func hackathonGone(id uuid.UUID, err error) error {
	if errors.Is(err, db.ErrNotFound) {
		return permanent(ErrTypeHackathonNotFound, "hackathon %s not found", id)
	}
	return err
}

// ApplicationWindowDates reads an edition's window as it is now:
// ApplicationWindow reads it whenever it is told the dates changed. An
// edition that no longer exists fails with the non-retryable
// HackathonNotFound.
func (a *HackathonActivities) ApplicationWindowDates(ctx context.Context, id uuid.UUID) (ApplicationDates, error) {
	d, err := hackathon.WindowDates(ctx, a.Store.Queries, id)
	return d, hackathonGone(id, err)
}

// AnnounceApplications records the broadcast that announces the opening,
// when there is one to make (hackathon.Announce), and returns it for the
// workflow to start; a retry returns the same broadcast.
func (a *HackathonActivities) AnnounceApplications(ctx context.Context, in AnnounceInput) (Announcement, error) {
	var out Announcement
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = hackathon.Announce(ctx, q, in)
		return err
	})
	return out, hackathonGone(in.HackathonID, err)
}

// RecordApplicationReminders records one reminder per unsubmitted draft
// of the edition (hackathon.RecordReminders), once per application.
func (a *HackathonActivities) RecordApplicationReminders(ctx context.Context, in ApplicationWindowNotice) ([]EmailRef, error) {
	if a.Unsubscribe == nil {
		return nil, permanent(ErrTypeNoSigningKey, "SIGNING_KEY is not set: reminders carry signed unsubscribe links")
	}
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = hackathon.RecordReminders(ctx, q, *a.Unsubscribe, in)
		return err
	})
	return refs, hackathonGone(in.HackathonID, err)
}

// RecordApplicationSummary records the close's summary for each
// superadmin (hackathon.RecordSummary), once per person and closing time.
func (a *HackathonActivities) RecordApplicationSummary(ctx context.Context, in ApplicationWindowNotice) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = hackathon.RecordSummary(ctx, q, in)
		return err
	})
	return refs, hackathonGone(in.HackathonID, err)
}

// HackathonsWithFutureWindows lists the editions whose opening or close is
// ahead, oldest first (TermReconcile restarts their missing runs).
func (a *HackathonActivities) HackathonsWithFutureWindows(ctx context.Context) ([]FutureApplicationWindow, error) {
	all, err := hackathon.FutureWindows(ctx, a.Store.Queries, time.Now())
	if err != nil {
		return nil, err
	}
	out := make([]FutureApplicationWindow, 0, len(all))
	for _, e := range all {
		// As for terms: a run an operator stopped stays stopped until the
		// dates change or an admin retries it.
		stopped, err := stoppedByOperator(ctx, hackathon.WindowWorkflowID(e.HackathonID))
		if err != nil {
			return nil, err
		}
		if !stopped {
			if e.PublicURL == "" {
				e.PublicURL = a.PublicURL
			}
			out = append(out, e)
		}
	}
	return out, nil
}
