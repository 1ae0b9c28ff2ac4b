package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// HackathonOpts describes an edition; zero fields take the defaults.
type HackathonOpts struct {
	Name string // default: a unique name
	// OpensAt defaults to a day ago; ClosesAt, StartsAt and EndsAt stay
	// unset unless given.
	OpensAt                    time.Time
	ClosesAt, StartsAt, EndsAt *time.Time
	Capacity                   *int32
	Announce                   bool
	// Current makes it the current edition (the flag moves from the one
	// that held it).
	Current bool
	// SavedBy is the superadmin who saved it last.
	SavedBy *uuid.UUID
}

// Hackathon inserts an edition.
func Hackathon(t testing.TB, s *db.Store, o HackathonOpts) db.Hackathon {
	t.Helper()
	ctx := context.Background()
	if o.Name == "" {
		o.Name = "Hackathon " + randomHex(4)
	}
	if o.OpensAt.IsZero() {
		o.OpensAt = time.Now().Add(-24 * time.Hour)
	}
	var h db.Hackathon
	err := s.InTx(ctx, func(q *db.Queries) (err error) {
		h, err = q.HackathonInsert(ctx, db.HackathonInsertParams{Name: o.Name, ApplicationsOpenAt: o.OpensAt,
			ApplicationsCloseAt: o.ClosesAt, StartsAt: o.StartsAt, EndsAt: o.EndsAt, Capacity: o.Capacity,
			Announce: o.Announce, SavedBy: o.SavedBy})
		if err != nil || !o.Current {
			return err
		}
		if err := q.HackathonClearCurrent(ctx, h.ID); err != nil {
			return err
		}
		if err := q.HackathonSetCurrent(ctx, db.HackathonSetCurrentParams{ID: h.ID, SavedBy: o.SavedBy}); err != nil {
			return err
		}
		h, err = q.HackathonGet(ctx, h.ID)
		return err
	})
	if err != nil {
		t.Fatalf("testenv: hackathon %s: %v", o.Name, err)
	}
	return h
}

// CurrentHackathon is the current edition.
func CurrentHackathon(t testing.TB, s *db.Store) db.Hackathon {
	t.Helper()
	h, err := s.HackathonCurrent(context.Background())
	if err != nil {
		t.Fatalf("testenv: the current hackathon: %v", err)
	}
	return h
}

// CloseApplications moves the current edition's close to the given time
// (written as it stands: a PATCH would signal its workflow).
func CloseApplications(t testing.TB, s *db.Store, at time.Time) {
	t.Helper()
	if _, err := s.Pool().Exec(context.Background(),
		`UPDATE hackathons SET applications_close_at = $1, applications_open_at = least(applications_open_at, $1::timestamptz - interval '1 day')
		 WHERE current`, at); err != nil {
		t.Fatalf("testenv: close applications: %v", err)
	}
}
