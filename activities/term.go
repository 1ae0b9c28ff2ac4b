package activities

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"

	"hackdesk/db"
	"hackdesk/internal/feature/onboarding"
)

// TermActivities announce the exec forms' windows, remind those who have
// not submitted, and record each window's close (TermWindow). Each is the
// onboarding package's function in a transaction.
type TermActivities struct {
	Store *db.Store
	// PublicURL is the worker's PUBLIC_URL: the site address of a
	// restarted TermWindow run whose term's own start does not say
	// (TermsWithFutureWindows).
	PublicURL string
}

// TermWindowEmailsInput names one form window of a term.
type TermWindowEmailsInput = onboarding.Notice

// TermDates are a term's two form windows as stored.
type TermDates = onboarding.Dates

// TermWindowCloseInput names a window that has closed.
type TermWindowCloseInput = onboarding.Closing

// ErrTypeTermNotFound is a term that no longer exists: no retry brings it
// back.
const ErrTypeTermNotFound = "TermNotFound"

func termGone(id uuid.UUID) error {
	return permanent(ErrTypeTermNotFound, "term %s not found", id)
}

// recordFormEmails runs one of the window email functions in a
// transaction; a term that no longer exists is TermNotFound.
func (a *TermActivities) recordFormEmails(ctx context.Context, in TermWindowEmailsInput,
	record func(context.Context, *db.Queries, onboarding.Notice) ([]EmailRef, error)) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		var err error
		refs, err = record(ctx, q, in)
		return err
	})
	if errors.Is(err, db.ErrNotFound) {
		return nil, termGone(in.TermID)
	}
	return refs, err
}

// RecordWindowAnnouncements records the "form is open" email for everyone
// the form is for, once per person, term and form.
func (a *TermActivities) RecordWindowAnnouncements(ctx context.Context, in TermWindowEmailsInput) ([]EmailRef, error) {
	return a.recordFormEmails(ctx, in, onboarding.RecordAnnouncements)
}

// RecordWindowReminders records a reminder for everyone the form is for who
// has not submitted, once per person and closing time.
func (a *TermActivities) RecordWindowReminders(ctx context.Context, in TermWindowEmailsInput) ([]EmailRef, error) {
	return a.recordFormEmails(ctx, in, onboarding.RecordReminders)
}

// TermWindowDates reads a term's window dates as they are now. TermWindow
// reads them whenever it is told they changed, rather than trusting the
// dates a signal carries: signals can arrive out of order, the database's
// latest committed dates cannot be stale. A term that no longer exists
// fails with the non-retryable TermNotFound.
func (a *TermActivities) TermWindowDates(ctx context.Context, termID uuid.UUID) (TermDates, error) {
	d, err := onboarding.WindowDates(ctx, a.Store.Queries, termID)
	if errors.Is(err, db.ErrNotFound) {
		return TermDates{}, termGone(termID)
	}
	return d, err
}

// RecordWindowClosed records the window's close and how many had submitted;
// it answers that count. Running it again rewrites the same row.
func (a *TermActivities) RecordWindowClosed(ctx context.Context, in TermWindowCloseInput) (int, error) {
	return onboarding.RecordClosed(ctx, a.Store.Queries, in)
}

// FutureWindowTerm is a term with a form window yet to close, as the term
// reconciler starts its TermWindow workflow.
type FutureWindowTerm struct {
	TermID   uuid.UUID
	TermName string
	Windows  TermDates
	// PublicURL is the site address the term's TermWindow was last
	// queued with (the API's PUBLIC_URL), else the worker's.
	PublicURL string
}

// TermsWithFutureWindows lists the terms with a form window that closes
// after now, oldest first, whose TermWindow run the term reconciler may
// start: every one but those whose latest run an operator stopped
// (terminated or cancelled). A stopped run stays stopped until the term's
// dates change (the API's signal-with-start starts a new run) or an admin
// restarts it from the operator page (a retry).
func (a *TermActivities) TermsWithFutureWindows(ctx context.Context) ([]FutureWindowTerm, error) {
	terms, err := onboarding.FutureWindows(ctx, a.Store.Queries, time.Now())
	if err != nil {
		return nil, err
	}
	out := make([]FutureWindowTerm, 0, len(terms))
	for _, t := range terms {
		stopped, err := stoppedByOperator(ctx, onboarding.WindowWorkflowID(t.TermID))
		if err != nil {
			return nil, err
		}
		if stopped {
			continue
		}
		url, err := onboarding.WindowPublicURL(ctx, a.Store.Queries, t.TermID, a.PublicURL)
		if err != nil {
			return nil, err
		}
		out = append(out, FutureWindowTerm{TermID: t.TermID, TermName: t.TermName, PublicURL: url, Windows: t.Windows})
	}
	return out, nil
}

// stoppedByOperator reports whether the latest run of workflowID was
// terminated or cancelled; a workflow with no run is not.
func stoppedByOperator(ctx context.Context, workflowID string) (bool, error) {
	d, err := activity.GetClient(ctx).DescribeWorkflowExecution(ctx, workflowID, "")
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch d.GetWorkflowExecutionInfo().GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED, enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return true, nil
	}
	return false, nil
}
