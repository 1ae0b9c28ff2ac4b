package privacy

import (
	"context"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// The staff access log: opening an application's details (and the résumé
// links it hands out), a CSV or ZIP export of onboarding submissions (one
// row per person in it) and a member's QR page write a row naming who read
// (and their role at the time), what and whose. The review queue's résumé
// links are not logged: reviewing is the job.

// Action is what a staff member read.
type Action string

// The actions logged (access_log's CHECK holds the same list).
const (
	ActionApplicationView     Action = "application.view"
	ActionResumeLink          Action = "resume.link"
	ActionOnboardingCSV       Action = "onboarding.csv"
	ActionOnboardingHeadshots Action = "onboarding.headshots"
	ActionMembershipQR        Action = "membership.qr"
	ActionAttendanceCSV       Action = "attendance.csv"
)

// Actions lists every action.
var Actions = []Action{ActionApplicationView, ActionResumeLink, ActionOnboardingCSV,
	ActionOnboardingHeadshots, ActionMembershipQR, ActionAttendanceCSV}

// Actor is the staff member reading, with their roles on this request.
type Actor struct {
	ProfileID    uuid.UUID
	Role         string  // profiles.role
	ExecPosition *string // the active exec role, if any
}

// RoleName is the actor's role as the log keeps it: the site role, and
// the exec position when they hold one ("admin, VP").
func (a Actor) RoleName() string {
	if a.ExecPosition != nil && *a.ExecPosition != "" {
		return a.Role + ", " + *a.ExecPosition
	}
	return a.Role
}

// Read is one person's data read: whose (the subject's profile) and which
// record (an application, a membership, a submission).
type Read struct {
	Subject uuid.UUID
	Object  uuid.UUID
}

// LogAccess writes one row per read, in one statement. Nothing read,
// nothing written.
func LogAccess(ctx context.Context, q *db.Queries, actor Actor, action Action, reads ...Read) error {
	if len(reads) == 0 {
		return nil
	}
	subjects := make([]uuid.UUID, len(reads))
	objects := make([]uuid.UUID, len(reads))
	for i, r := range reads {
		subjects[i], objects[i] = r.Subject, r.Object
	}
	_, err := q.AccessLogInsert(ctx, db.AccessLogInsertParams{
		ActorID: actor.ProfileID, ActorRole: actor.RoleName(), Action: string(action),
		SubjectIds: subjects, ObjectIds: objects})
	return err
}

// LogAttendance logs an edition's attendance CSV: one row per person in
// it (every attending applicant), each naming their application, in one
// statement.
func LogAttendance(ctx context.Context, q *db.Queries, actor Actor, hackathonID uuid.UUID) error {
	_, err := q.AccessLogAttendance(ctx, db.AccessLogAttendanceParams{
		ActorID: actor.ProfileID, ActorRole: actor.RoleName(), HackathonID: hackathonID})
	return err
}

// PersonRef names a person in the log's view.
type PersonRef struct {
	ID          uuid.UUID `json:"id"`
	DisplayName *string   `json:"display_name"`
	Email       string    `json:"email"`
}

// AccessEntry is one row as the superadmins' page shows it.
type AccessEntry struct {
	ID        int64      `json:"id"`
	Actor     PersonRef  `json:"actor"`
	ActorRole string     `json:"actor_role"`
	Action    string     `json:"action"`
	Subject   PersonRef  `json:"subject"`
	ObjectID  *uuid.UUID `json:"object_id"`
	At        time.Time  `json:"at"`
}

// AccessQuery filters the log: by the staff member who read, by the
// person read about; nil is any.
type AccessQuery struct {
	Actor   *uuid.UUID
	Subject *uuid.UUID
}

// ParseAccessQuery reads ?actor= and ?subject= (profile ids); a value
// that is no id is a validation failure.
func ParseAccessQuery(actor, subject string) (AccessQuery, error) {
	var out AccessQuery
	f := apperr.Fields{}
	for _, p := range []struct {
		name, v string
		dst     **uuid.UUID
	}{{"actor", actor, &out.Actor}, {"subject", subject, &out.Subject}} {
		if p.v == "" {
			continue
		}
		id, err := uuid.Parse(p.v)
		if err != nil {
			f.Add(p.name, "must be a profile id")
			continue
		}
		*p.dst = &id
	}
	return out, f.Err()
}

// AccessLog is a page of the log, newest first, and how many rows match.
func AccessLog(ctx context.Context, q *db.Queries, f AccessQuery, limit, offset int) ([]AccessEntry, int64, error) {
	rows, err := q.AccessLogList(ctx, db.AccessLogListParams{ActorID: f.Actor, SubjectID: f.Subject,
		PageLimit: int32(limit), PageOffset: int32(offset)})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.AccessLogCount(ctx, db.AccessLogCountParams{ActorID: f.Actor, SubjectID: f.Subject})
	if err != nil {
		return nil, 0, err
	}
	out := make([]AccessEntry, len(rows))
	for i, r := range rows {
		out[i] = AccessEntry{ID: r.ID, ActorRole: r.ActorRole, Action: r.Action, ObjectID: r.ObjectID, At: r.At,
			Actor:   PersonRef{ID: r.ActorID, DisplayName: r.ActorName, Email: r.ActorEmail},
			Subject: PersonRef{ID: r.SubjectID, DisplayName: r.SubjectName, Email: r.SubjectEmail}}
	}
	return out, total, nil
}
