package hackathon

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// Create inserts the edition of a (validated) create input, saved by the
// superadmin actor; {current:true} makes it the current edition in the
// same transaction. A close already past by the database's clock is a 400
// (a PATCH may move a window anywhere, past included); a name taken
// (whatever its case) is ErrExists. The caller starts the edition's
// ApplicationWindow workflow in the same transaction.
func Create(ctx context.Context, q *db.Queries, actor uuid.UUID, in *Input) (db.Hackathon, error) {
	var h db.Hackathon
	if err := in.Apply(&h); err != nil {
		return h, err
	}
	if h.ApplicationsCloseAt != nil {
		now, err := q.DBNow(ctx)
		if err != nil {
			return h, err
		}
		if !h.ApplicationsCloseAt.After(now) {
			return h, apperr.ValidationFailed(apperr.Fields{"applications_close_at": "must be in the future"})
		}
	}
	h, err := q.HackathonInsert(ctx, db.HackathonInsertParams{Name: h.Name, ApplicationsOpenAt: h.ApplicationsOpenAt,
		ApplicationsCloseAt: h.ApplicationsCloseAt, StartsAt: h.StartsAt, EndsAt: h.EndsAt, Capacity: h.Capacity,
		Announce: h.Announce, SavedBy: &actor, Venue: h.Venue, WaiverUrl: h.WaiverUrl, FeedbackUrl: h.FeedbackUrl})
	if err != nil {
		return h, written(err)
	}
	if in.makesCurrent() {
		return makeCurrent(ctx, q, actor, h.ID)
	}
	return h, nil
}

// Update applies a (validated) patch input to edition id (ErrNotFound when
// there is none), saved by the superadmin actor, and with {current:true}
// makes it the current edition, clearing the flag of the one that held it
// in the same transaction. It answers the edition and whether its window
// (opening, close) or its announcement changed, which the caller signals
// to the edition's ApplicationWindow workflow in the same transaction.
func Update(ctx context.Context, q *db.Queries, actor uuid.UUID, id uuid.UUID, in *Input) (db.Hackathon, bool, error) {
	h, err := q.HackathonLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return h, false, ErrNotFound
	}
	if err != nil {
		return h, false, err
	}
	before := h
	if err := in.Apply(&h); err != nil {
		return h, false, err
	}
	changed := WindowChanged(before, h)
	if h, err = q.HackathonUpdate(ctx, db.HackathonUpdateParams{ID: id, Name: h.Name,
		ApplicationsOpenAt: h.ApplicationsOpenAt, ApplicationsCloseAt: h.ApplicationsCloseAt,
		StartsAt: h.StartsAt, EndsAt: h.EndsAt, Capacity: h.Capacity, Announce: h.Announce, SavedBy: &actor,
		Venue: h.Venue, WaiverUrl: h.WaiverUrl, FeedbackUrl: h.FeedbackUrl}); err != nil {
		return h, changed, written(err)
	}
	if in.makesCurrent() {
		h, err = makeCurrent(ctx, q, actor, id)
	}
	return h, changed, err
}

// WindowChanged reports whether what the ApplicationWindow workflow acts
// on differs between two versions of an edition: the opening, the close
// (to the microsecond the database keeps) or the announcement.
func WindowChanged(before, after db.Hackathon) bool {
	closes := func(h db.Hackathon) int64 {
		if h.ApplicationsCloseAt == nil {
			return -1 << 62
		}
		return h.ApplicationsCloseAt.UnixMicro()
	}
	return !before.ApplicationsOpenAt.Equal(after.ApplicationsOpenAt) || closes(before) != closes(after) ||
		before.Announce != after.Announce
}

// makeCurrent moves the current flag to id.
func makeCurrent(ctx context.Context, q *db.Queries, actor, id uuid.UUID) (db.Hackathon, error) {
	if err := q.HackathonClearCurrent(ctx, id); err != nil {
		return db.Hackathon{}, err
	}
	if err := q.HackathonSetCurrent(ctx, db.HackathonSetCurrentParams{ID: id, SavedBy: &actor}); err != nil {
		return db.Hackathon{}, err
	}
	return q.HackathonGet(ctx, id)
}

// written maps an edition write's conflict: names are unique.
func written(err error) error {
	if errors.Is(err, db.ErrConflict) {
		return ErrExists
	}
	return err
}
