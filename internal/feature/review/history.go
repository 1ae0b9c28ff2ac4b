package review

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// HistoryActor is who changed an application's decision or RSVP.
type HistoryActor struct {
	ID    uuid.UUID `json:"id"`
	Name  *string   `json:"name"`
	Email string    `json:"email"`
}

// HistoryEntry is one decision or RSVP change of an application.
//
// Kind is "decision" (Value: offer, waitlist or reject; RsvpDeadline with
// an offer), "rsvp" (Value: attending or declined), "expired" (an offer
// unanswered at its deadline; Value "expired") or "reminded" (the RSVP
// reminder was sent; Value "reminded"). Previous is the value it replaced,
// if any. By is null when the system acted (a deadline, a place freed by
// an expired offer) or the actor's account is gone.
type HistoryEntry struct {
	Kind         string        `json:"kind"`
	Value        string        `json:"value"`
	Previous     *string       `json:"previous"`
	RsvpDeadline *time.Time    `json:"rsvp_deadline"`
	At           time.Time     `json:"at"`
	By           *HistoryActor `json:"by"`
}

// eventDetail is the union of the application_events details this reads.
type eventDetail struct {
	Decision     *string    `json:"decision"`
	Attending    *bool      `json:"attending"`
	Previous     *string    `json:"previous"`
	RsvpDeadline *time.Time `json:"rsvp_deadline"`
}

// historyEntry turns one application_events row into its entry.
func historyEntry(row db.ApplicationHistoryRow) (HistoryEntry, error) {
	var d eventDetail
	if len(row.Detail) > 0 {
		if err := json.Unmarshal(row.Detail, &d); err != nil {
			return HistoryEntry{}, fmt.Errorf("application event detail: %w", err)
		}
	}
	e := HistoryEntry{Kind: row.Kind, Value: row.Kind, Previous: d.Previous, At: row.CreatedAt}
	switch row.Kind {
	case "decision":
		if d.Decision != nil {
			e.Value = *d.Decision
		}
		e.RsvpDeadline = d.RsvpDeadline
	case "rsvp":
		e.Value = "declined"
		if d.Attending != nil && *d.Attending {
			e.Value = "attending"
		}
	}
	if row.ActorID != nil && row.ActorEmail != nil {
		e.By = &HistoryActor{ID: *row.ActorID, Name: row.ActorName, Email: *row.ActorEmail}
	}
	return e, nil
}

// HistoryOf is the decision and RSVP history of application id, oldest
// first (empty, never nil, when nothing was decided).
func HistoryOf(ctx context.Context, q *db.Queries, id uuid.UUID) ([]HistoryEntry, error) {
	rows, err := q.ApplicationHistory(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]HistoryEntry, 0, len(rows))
	for _, row := range rows {
		e, err := historyEntry(row)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
