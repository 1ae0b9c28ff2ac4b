package onboarding

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/mail"
)

// WindowWorkflowID is the workflow ID of a term's TermWindow run, from its
// business key (workflows.TermWindowID); the term reconciler's activity
// looks its runs up by it.
func WindowWorkflowID(termID uuid.UUID) string { return "term-window:" + termID.String() }

// Dates are a term's two form windows as stored; a window is both times or
// neither. The TermWindow workflow takes them as its input and signal, and
// reads them back through WindowDates: one type across that boundary.
type Dates struct {
	OnboardingOpensAt  *time.Time
	OnboardingClosesAt *time.Time
	ReturningOpensAt   *time.Time
	ReturningClosesAt  *time.Time
}

// DatesOf are term t's window dates.
func DatesOf(t db.Term) Dates {
	return Dates{OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
		ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt}
}

// Of picks the kind's window.
func (d Dates) Of(kind Kind) (opens, closes *time.Time) {
	if kind == Returning {
		return d.ReturningOpensAt, d.ReturningClosesAt
	}
	return d.OnboardingOpensAt, d.OnboardingClosesAt
}

// WindowDates reads a term's window dates as they are now; a term that does
// not exist is db.ErrNotFound.
func WindowDates(ctx context.Context, q *db.Queries, termID uuid.UUID) (Dates, error) {
	t, err := q.TermGet(ctx, termID)
	if err != nil {
		return Dates{}, fmt.Errorf("term %s: %w", termID, err)
	}
	return DatesOf(t), nil
}

// WindowTerm is a term with a form window yet to close, as the term
// reconciler starts its TermWindow workflow.
type WindowTerm struct {
	TermID   uuid.UUID
	TermName string
	Windows  Dates
}

// FutureWindows lists the terms with a form window that closes after now,
// oldest first: each should have a running TermWindow workflow.
func FutureWindows(ctx context.Context, q *db.Queries, now time.Time) ([]WindowTerm, error) {
	rows, err := q.TermListFutureWindows(ctx, now)
	if err != nil {
		return nil, err
	}
	out := make([]WindowTerm, 0, len(rows))
	for _, t := range rows {
		out = append(out, WindowTerm{TermID: t.ID, TermName: t.Name, Windows: DatesOf(t)})
	}
	return out, nil
}

// Notice names one form window of a term whose people are emailed.
type Notice struct {
	TermID    uuid.UUID
	Kind      Kind
	ClosesAt  time.Time
	PublicURL string // base of the form's link
}

// Email templates of the window emails.
const (
	OpenKind     = "exec_form_open"
	ReminderKind = "exec_form_reminder"
)

// emailDateFormat is how an email gives the closing time (UTC).
const emailDateFormat = "Mon 2 Jan 2006 15:04 MST"

// AnnounceKey is the idempotency key of the "form is open" email: once per
// person, term and form.
func AnnounceKey(n Notice, profile uuid.UUID) string {
	return fmt.Sprintf("term-window:%s:%s:open:%s", n.TermID, n.Kind, profile)
}

// ReminderKey is the idempotency key of a reminder: once per person and
// closing time.
func ReminderKey(n Notice, profile uuid.UUID) string {
	return fmt.Sprintf("term-window:%s:%s:remind:%d:%s", n.TermID, n.Kind, n.ClosesAt.Unix(), profile)
}

// RecordAnnouncements records the "form is open" email for everyone the
// form is for and returns them for delivery; a repeat records nothing new.
func RecordAnnouncements(ctx context.Context, q *db.Queries, n Notice) ([]mail.Ref, error) {
	return recordFormEmails(ctx, q, n, OpenKind, false, AnnounceKey)
}

// RecordReminders records a reminder for everyone the form is for who has
// not submitted, and returns them for delivery.
func RecordReminders(ctx context.Context, q *db.Queries, n Notice) ([]mail.Ref, error) {
	return recordFormEmails(ctx, q, n, ReminderKind, true, ReminderKey)
}

// recordFormEmails records one email of the template per recipient of the
// form (all of them, or only those without a submission) under keys made by
// key, so a retry records nothing new. The onboarding form is for the
// term's execs, the returning form for the execs of the term before it
// (none without one). A term that does not exist is db.ErrNotFound.
func recordFormEmails(ctx context.Context, q *db.Queries, n Notice, template string, onlyMissing bool,
	key func(Notice, uuid.UUID) string) ([]mail.Ref, error) {
	term, err := q.TermGet(ctx, n.TermID)
	if err != nil {
		return nil, fmt.Errorf("term %s: %w", n.TermID, err)
	}
	roleTerm := term.ID
	if n.Kind == Returning {
		prev, err := q.TermPrevious(ctx, term.ID)
		if errors.Is(err, db.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		roleTerm = prev.ID
	}
	rows, err := q.ExecFormRecipients(ctx, db.ExecFormRecipientsParams{RoleTermID: &roleTerm,
		IncludeEnded: n.Kind == Returning, OnlyMissing: onlyMissing, TermID: term.ID, Kind: string(n.Kind)})
	if err != nil {
		return nil, err
	}
	title := n.Kind.FormName()
	var refs []mail.Ref
	for _, row := range rows {
		name := row.Name
		if name == "" {
			name = row.Email
		}
		ref, err := mail.RecordRef(ctx, q, key(n, row.ID), template, row.Email, map[string]string{
			"name": name, "form": title, "form_lower": strings.ToLower(title[:1]) + title[1:], "term": term.Name,
			"closes": n.ClosesAt.UTC().Format(emailDateFormat), "link": n.PublicURL + n.Kind.Path() + "?term_id=" + term.ID.String(),
		})
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// Closing names a form window that has closed.
type Closing struct {
	TermID   uuid.UUID
	Kind     Kind
	ClosesAt time.Time
}

// RecordClosed records the window's close and how many had submitted, and
// answers that count. Recording it again rewrites the same row.
func RecordClosed(ctx context.Context, q *db.Queries, c Closing) (int, error) {
	row, err := q.TermWindowCloseRecord(ctx, db.TermWindowCloseRecordParams{TermID: c.TermID, Kind: string(c.Kind), ClosesAt: c.ClosesAt})
	return int(row.Submitted), err
}

// WindowPublicURL is the site address the term's TermWindow workflow was
// last queued with (the API's PUBLIC_URL), else fallback: a run the
// reconciler restarts sends the links its term was queued with, whatever
// the worker's settings.
func WindowPublicURL(ctx context.Context, q *db.Queries, termID uuid.UUID, fallback string) (string, error) {
	url, err := q.WorkflowStartPublicURL(ctx, WindowWorkflowID(termID))
	if err != nil || url == "" {
		return fallback, err
	}
	return url, nil
}
