package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/mail"
)

// TermActivities announce the exec forms' windows, remind those who have
// not submitted, and record each window's close (TermWindow).
type TermActivities struct {
	Store *db.Store
}

// TermWindowEmailsInput names one form window of a term.
type TermWindowEmailsInput struct {
	TermID    uuid.UUID
	Kind      string // onboarding or returning
	ClosesAt  time.Time
	PublicURL string // base of the form's link
}

// ErrTypeTermNotFound is a term that no longer exists: no retry brings it
// back.
const ErrTypeTermNotFound = "TermNotFound"

func termGone(id uuid.UUID) error {
	return permanent(ErrTypeTermNotFound, "term %s not found", id)
}

func formNames(kind string) (title, path string) {
	if kind == "returning" {
		return "The returning-exec form", "/onboarding/returning"
	}
	return "The onboarding form", "/onboarding"
}

// recordFormEmails records one email of the template per recipient of the
// form (all of them, or only those without a submission) under keys made by
// key, so a retry records nothing new.
func (a *TermActivities) recordFormEmails(ctx context.Context, in TermWindowEmailsInput, template string, onlyMissing bool,
	key func(profile uuid.UUID) string) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		refs = refs[:0]
		term, err := q.TermGet(ctx, in.TermID)
		if errors.Is(err, db.ErrNotFound) {
			return termGone(in.TermID)
		}
		if err != nil {
			return err
		}
		// The onboarding form is for the term's execs, the returning form
		// for the execs of the term before it (none without one).
		roleTerm := term.ID
		if in.Kind == "returning" {
			prev, err := q.TermPrevious(ctx, term.ID)
			if errors.Is(err, db.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			roleTerm = prev.ID
		}
		rows, err := q.ExecFormRecipients(ctx, db.ExecFormRecipientsParams{RoleTermID: &roleTerm,
			IncludeEnded: in.Kind == "returning", OnlyMissing: onlyMissing, TermID: term.ID, Kind: in.Kind})
		if err != nil {
			return err
		}
		title, path := formNames(in.Kind)
		for _, row := range rows {
			k := key(row.ID)
			name := row.Name
			if name == "" {
				name = row.Email
			}
			if _, err := mail.Record(ctx, q, k, template, row.Email, map[string]string{
				"name": name, "form": title, "form_lower": strings.ToLower(title[:1]) + title[1:], "term": term.Name,
				"closes": deadlineText(in.ClosesAt), "link": in.PublicURL + path + "?term_id=" + term.ID.String(),
			}); err != nil {
				return err
			}
			refs = append(refs, EmailRef{Key: k, Kind: template, To: row.Email})
		}
		return nil
	})
	return refs, err
}

// RecordWindowAnnouncements records the "form is open" email for everyone
// the form is for, once per person, term and form.
func (a *TermActivities) RecordWindowAnnouncements(ctx context.Context, in TermWindowEmailsInput) ([]EmailRef, error) {
	return a.recordFormEmails(ctx, in, "exec_form_open", false, func(p uuid.UUID) string {
		return fmt.Sprintf("term-window:%s:%s:open:%s", in.TermID, in.Kind, p)
	})
}

// RecordWindowReminders records a reminder for everyone the form is for who
// has not submitted, once per person and closing time.
func (a *TermActivities) RecordWindowReminders(ctx context.Context, in TermWindowEmailsInput) ([]EmailRef, error) {
	return a.recordFormEmails(ctx, in, "exec_form_reminder", true, func(p uuid.UUID) string {
		return fmt.Sprintf("term-window:%s:%s:remind:%d:%s", in.TermID, in.Kind, in.ClosesAt.Unix(), p)
	})
}

// TermDates are a term's two form windows as stored; a window is both
// times or neither.
type TermDates struct {
	OnboardingOpensAt  *time.Time
	OnboardingClosesAt *time.Time
	ReturningOpensAt   *time.Time
	ReturningClosesAt  *time.Time
}

// TermWindowDates reads a term's window dates as they are now. TermWindow
// reads them whenever it is told they changed, rather than trusting the
// dates a signal carries: signals can arrive out of order, the database's
// latest committed dates cannot be stale. A term that no longer exists
// fails with the non-retryable TermNotFound.
func (a *TermActivities) TermWindowDates(ctx context.Context, termID uuid.UUID) (TermDates, error) {
	t, err := a.Store.TermGet(ctx, termID)
	if errors.Is(err, db.ErrNotFound) {
		return TermDates{}, termGone(termID)
	}
	if err != nil {
		return TermDates{}, err
	}
	return TermDates{OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
		ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt}, nil
}

// TermWindowCloseInput names a window that has closed.
type TermWindowCloseInput struct {
	TermID   uuid.UUID
	Kind     string
	ClosesAt time.Time
}

// RecordWindowClosed records the window's close and how many had submitted;
// it answers that count. Running it again rewrites the same row.
func (a *TermActivities) RecordWindowClosed(ctx context.Context, in TermWindowCloseInput) (int, error) {
	row, err := a.Store.TermWindowCloseRecord(ctx, db.TermWindowCloseRecordParams{TermID: in.TermID, Kind: in.Kind, ClosesAt: in.ClosesAt})
	return int(row.Submitted), err
}
