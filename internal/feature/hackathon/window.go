package hackathon

import (
	"context"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// ClosedTitle is the error of a write outside the application window.
const ClosedTitle = "Applications are closed"

// dateFormat is how a window's times appear in messages (always UTC), as
// the exec forms' windows give theirs.
const dateFormat = "2 January 2006 15:04 UTC"

// Window is the application window of an edition at one instant.
type Window struct {
	Open bool
	// Message says when a closed window opens or closed; empty when open.
	Message string
}

// WindowAt judges h's application window at now: open from its opening
// (inclusive) until its close (exclusive), for good without a close.
func WindowAt(h db.Hackathon, now time.Time) Window {
	prefix := "Applications for " + h.Name
	switch {
	case now.Before(h.ApplicationsOpenAt):
		return Window{Message: prefix + " open " + h.ApplicationsOpenAt.UTC().Format(dateFormat)}
	case h.ApplicationsCloseAt != nil && !now.Before(*h.ApplicationsCloseAt):
		return Window{Message: prefix + " closed on " + h.ApplicationsCloseAt.UTC().Format(dateFormat)}
	}
	return Window{Open: true}
}

// Err is the 403 of a write outside the window; nil when it is open.
func (w Window) Err() error {
	if w.Open {
		return nil
	}
	return apperr.WithMessage(apperr.Forbidden, ClosedTitle, w.Message)
}

// OpenForWrites is the current edition when its application window is
// open at the database's clock, else the 403 "Applications are closed"
// saying when it opens or closed. Every write of an application checks it
// first, before any other check. Inside a transaction the clock is the
// transaction's start, the instant its writes are stamped with (now()), so
// a submission racing the close is accepted before it or refused after it,
// never half.
func OpenForWrites(ctx context.Context, q db.Querier) (db.Hackathon, error) {
	h, now, err := CurrentAt(ctx, q)
	if err != nil {
		return h, err
	}
	return h, WindowAt(h, now).Err()
}
