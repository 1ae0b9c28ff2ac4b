package privacy

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// Retention: how long the club keeps what, after which the daily
// hackdesk-retention schedule purges it (docs/privacy.md).
const (
	// DefaultRetentionDays is RETENTION_DAYS's default: an edition's
	// applications (after the edition ends, or closes) and a term's
	// onboarding submissions (after the term ends) are kept a year.
	DefaultRetentionDays = 365
	// EmailDays is how long the email audit keeps an email's address,
	// subject and bodies (the key and status stay).
	EmailDays = 90
	// ReceiptDays is how long a raw receipt email is kept after the
	// receipt settled.
	ReceiptDays = 90
	// OutboxInputDays is how long a started outbox row keeps its input.
	OutboxInputDays = 7
	// AccessLogDays is how long the staff access log keeps a row.
	AccessLogDays = 365
	// Batch is how many rows one purge statement takes.
	Batch = 500
)

// days is n days as a duration.
func days(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }

// Item is a row a purge takes, with the object it holds (if any).
type Item struct {
	ID  uuid.UUID
	Key *string
}

// Keys are the items' object keys.
func Keys(items []Item) []string {
	var keys []string
	for _, it := range items {
		if it.Key != nil && *it.Key != "" {
			keys = append(keys, *it.Key)
		}
	}
	return keys
}

func ids(items []Item) []uuid.UUID {
	out := make([]uuid.UUID, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// ApplicationsDue is the next batch of applications to purge: of editions
// that ended (or closed) more than retentionDays before now, not yet
// purged, with their résumé keys.
func ApplicationsDue(ctx context.Context, q *db.Queries, now time.Time, retentionDays int) ([]Item, error) {
	cutoff := now.Add(-days(retentionDays))
	rows, err := q.ApplicationsRetentionBatch(ctx, db.ApplicationsRetentionBatchParams{EndedBefore: &cutoff, MaxRows: Batch})
	if err != nil {
		return nil, err
	}
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = Item{ID: r.ID, Key: r.ResumeKey}
	}
	return out, nil
}

// PurgeApplications strips the items (ApplicationsDue, whose résumés the
// caller has deleted) and their question-bank answers, in the transaction
// behind q, keeping what the dashboard and leaderboard read (status,
// decision, RSVP, review counts and the reviews, dates). It returns how
// many it purged.
func PurgeApplications(ctx context.Context, q *db.Queries, items []Item) (int, error) {
	if len(items) == 0 {
		return 0, nil
	}
	if _, err := q.AnswersDeleteFor(ctx, ids(items)); err != nil {
		return 0, err
	}
	n, err := q.ApplicationsPurge(ctx, db.ApplicationsPurgeParams{Ids: ids(items), Erase: false})
	return len(n), err
}

// PurgeVolunteers deletes the door volunteers of editions past their
// retention (the same cutoff as their applications'). It returns how many
// it deleted.
func PurgeVolunteers(ctx context.Context, q *db.Queries, now time.Time, retentionDays int) (int, error) {
	cutoff := now.Add(-days(retentionDays))
	n, err := q.VolunteersRetention(ctx, &cutoff)
	return int(n), err
}

// SubmissionsDue is the next batch of onboarding submissions to delete:
// those of terms that ended more than retentionDays before now, with their
// headshots' keys.
func SubmissionsDue(ctx context.Context, q *db.Queries, now time.Time, retentionDays int) ([]Item, error) {
	cutoff := now.Add(-days(retentionDays))
	rows, err := q.ExecFormSubmissionsRetentionBatch(ctx, db.ExecFormSubmissionsRetentionBatchParams{
		EndedBefore: cutoff, MaxRows: Batch})
	if err != nil {
		return nil, err
	}
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = Item{ID: r.ID, Key: r.HeadshotKey}
	}
	return out, nil
}

// DeleteSubmissions deletes the items (SubmissionsDue, whose headshots the
// caller has deleted).
func DeleteSubmissions(ctx context.Context, q *db.Queries, items []Item) (int, error) {
	if len(items) == 0 {
		return 0, nil
	}
	n, err := q.ExecFormSubmissionsDelete(ctx, ids(items))
	return int(n), err
}

// PurgeEmails purges a batch of emails recorded more than EmailDays before
// now and settled; 0 when none is left.
func PurgeEmails(ctx context.Context, q *db.Queries, now time.Time) (int, error) {
	n, err := q.EmailsPurgeOlderThan(ctx, db.EmailsPurgeOlderThanParams{Before: now.Add(-days(EmailDays)), MaxRows: Batch})
	return int(n), err
}

// PurgeReceipts drops a batch of raw receipt emails settled more than
// ReceiptDays before now.
func PurgeReceipts(ctx context.Context, q *db.Queries, now time.Time) (int, error) {
	n, err := q.ReceiptsPurgeSettled(ctx, db.ReceiptsPurgeSettledParams{Before: now.Add(-days(ReceiptDays)), MaxRows: Batch})
	return int(n), err
}

// ClearOutboxInputs clears a batch of started outbox rows' inputs queued
// more than OutboxInputDays before now.
func ClearOutboxInputs(ctx context.Context, q *db.Queries, now time.Time) (int, error) {
	n, err := q.WorkflowStartsClearInputs(ctx, db.WorkflowStartsClearInputsParams{
		Before: now.Add(-days(OutboxInputDays)), MaxRows: Batch})
	return int(n), err
}

// PurgeAccessLog deletes a batch of access-log rows older than
// AccessLogDays.
func PurgeAccessLog(ctx context.Context, q *db.Queries, now time.Time) (int, error) {
	n, err := q.AccessLogDeleteOlderThan(ctx, db.AccessLogDeleteOlderThanParams{
		Before: now.Add(-days(AccessLogDays)), MaxRows: Batch})
	return int(n), err
}

// DeleteSpent deletes expired or revoked sessions and used or expired
// one-time tokens, at once.
func DeleteSpent(ctx context.Context, q *db.Queries) (sessions, tokens int, err error) {
	s, err := q.SessionsDeleteExpired(ctx)
	if err != nil {
		return 0, 0, err
	}
	t, err := q.AuthTokensDeleteSpent(ctx)
	return int(s), int(t), err
}

// Purged counts what one retention run purged, by kind.
type Purged struct {
	Applications int `json:"applications"`
	Resumes      int `json:"resumes"`
	Submissions  int `json:"submissions"`
	Headshots    int `json:"headshots"`
	Emails       int `json:"emails"`
	Receipts     int `json:"receipts"`
	Sessions     int `json:"sessions"`
	Tokens       int `json:"tokens"`
	OutboxInputs int `json:"outbox_inputs"`
	AccessLog    int `json:"access_log"`
}

// Run is a retention run as recorded.
type Run struct {
	WorkflowID    string          `json:"workflow_id"`
	RetentionDays int32           `json:"retention_days"`
	StartedAt     time.Time       `json:"started_at"`
	FinishedAt    time.Time       `json:"finished_at"`
	Purged        json.RawMessage `json:"purged"`
}

// RecordRun records what run workflowID purged, once per run (again, it
// rewrites the counts).
func RecordRun(ctx context.Context, q *db.Queries, workflowID string, retentionDays int, startedAt time.Time, p Purged) error {
	purged, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = q.RetentionRunRecord(ctx, db.RetentionRunRecordParams{
		WorkflowID: workflowID, RetentionDays: int32(retentionDays), StartedAt: startedAt, Purged: purged})
	return err
}

// LastRun is the latest retention run; nil before the first.
func LastRun(ctx context.Context, q *db.Queries) (*Run, error) {
	r, err := q.RetentionRunLast(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Run{WorkflowID: r.WorkflowID, RetentionDays: r.RetentionDays, StartedAt: r.StartedAt.UTC(),
		FinishedAt: r.FinishedAt.UTC(), Purged: r.Purged}, nil
}
