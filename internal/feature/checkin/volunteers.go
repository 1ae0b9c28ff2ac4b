package checkin

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hackathon"
)

// Volunteer is one of an edition's volunteers, as superadmins see them.
type Volunteer struct {
	ProfileID uuid.UUID `json:"profile_id"`
	Name      string    `json:"name"`
	Email     string    `json:"email"`
	AddedAt   time.Time `json:"added_at"`
}

// Volunteers lists edition id's volunteers (ErrNotFound for no edition).
func Volunteers(ctx context.Context, q *db.Queries, id uuid.UUID) ([]Volunteer, error) {
	if _, err := hackathon.Get(ctx, q, id); err != nil {
		return nil, err
	}
	rows, err := q.VolunteerList(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]Volunteer, len(rows))
	for i, r := range rows {
		out[i] = Volunteer{ProfileID: r.ProfileID, Name: r.Name, Email: r.Email, AddedAt: r.CreatedAt}
	}
	return out, nil
}

// AddVolunteer makes the account a volunteer of edition id (again: no
// change); an unknown edition or account is a 404.
func AddVolunteer(ctx context.Context, q *db.Queries, actor, id, profile uuid.UUID) error {
	if _, err := hackathon.Get(ctx, q, id); err != nil {
		return err
	}
	if _, err := q.ProfileView(ctx, profile); errors.Is(err, db.ErrNotFound) {
		return ErrVolunteer
	} else if err != nil {
		return err
	}
	return q.VolunteerAdd(ctx, db.VolunteerAddParams{HackathonID: id, ProfileID: profile, AddedBy: &actor})
}

// RemoveVolunteer ends the account's volunteering for edition id; one
// that was not a volunteer is a 404.
func RemoveVolunteer(ctx context.Context, q *db.Queries, id, profile uuid.UUID) error {
	if _, err := hackathon.Get(ctx, q, id); err != nil {
		return err
	}
	n, err := q.VolunteerRemove(ctx, db.VolunteerRemoveParams{HackathonID: id, ProfileID: profile})
	if err == nil && n == 0 {
		return ErrVolunteer
	}
	return err
}
