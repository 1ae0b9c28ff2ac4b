package activities

import (
	"context"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"

	"hackdesk/db"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/platform/storage"
)

// The values the erasure and retention activities take and return
// (package privacy).
type (
	ErasureState   = privacy.State
	ErasureBegun   = privacy.Begun
	ErasureSubject = privacy.Subject
	ErasedRecords  = privacy.Erased
	RetentionCount = privacy.Purged
)

// ErasureActivities erase an account (the AccountErasure workflow). Each
// is safe to run again: it deletes or blanks what is left.
type ErasureActivities struct {
	Store *db.Store
	Blob  *storage.Store
}

// ErasureState reads where the account's erasure stands.
func (a *ErasureActivities) ErasureState(ctx context.Context, profileID uuid.UUID) (ErasureState, error) {
	return privacy.StateOf(ctx, a.Store.Queries, profileID)
}

// BeginErasure begins the erasure when its grace period is over
// (privacy.Begin).
func (a *ErasureActivities) BeginErasure(ctx context.Context, profileID uuid.UUID) (ErasureBegun, error) {
	var out ErasureBegun
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = privacy.Begin(ctx, q, profileID)
		return err
	})
	return out, err
}

// EraseObjects deletes the person's résumé and headshot files
// (privacy.ErasureObjects) and returns how many.
func (a *ErasureActivities) EraseObjects(ctx context.Context, s ErasureSubject) (int, error) {
	keys, err := privacy.ErasureObjects(ctx, a.Store.Queries, a.Blob, s)
	if err != nil {
		return 0, err
	}
	return privacy.DeleteAll(ctx, a.Blob, keys)
}

// EraseApplications erases the person's applications and their mentions
// in others' teams (privacy.EraseApplications).
func (a *ErasureActivities) EraseApplications(ctx context.Context, s ErasureSubject) (int, error) {
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		n, err = privacy.EraseApplications(ctx, q, s)
		return err
	})
	return n, err
}

// EraseRecords erases the person's other records (privacy.EraseRecords).
func (a *ErasureActivities) EraseRecords(ctx context.Context, s ErasureSubject) (ErasedRecords, error) {
	var out ErasedRecords
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = privacy.EraseRecords(ctx, q, s)
		return err
	})
	return out, err
}

// EraseEmails purges the emails to the person's address
// (privacy.EraseEmails).
func (a *ErasureActivities) EraseEmails(ctx context.Context, s ErasureSubject) (int, error) {
	return privacy.EraseEmails(ctx, a.Store.Queries, s)
}

// EraseTombstone purges what was recorded since and turns the profile
// into a tombstone (privacy.Tombstone).
func (a *ErasureActivities) EraseTombstone(ctx context.Context, s ErasureSubject) (int, error) {
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		n, err = privacy.Tombstone(ctx, q, s)
		return err
	})
	return n, err
}

// RetentionActivities purge what is past its retention (the Retention
// workflow, from the hackdesk-retention schedule). Each purges in batches
// for a while and says whether more is left, so a large purge is many
// short activities rather than one long one.
type RetentionActivities struct {
	Store *db.Store
	Blob  *storage.Store
	// RetentionDays is RETENTION_DAYS.
	RetentionDays int
}

// RetentionBatch is one purge activity's outcome.
type RetentionBatch struct {
	Rows    int
	Objects int
	More    bool
}

// retentionSlice bounds one purge activity's work; it then returns More.
const retentionSlice = 20 * time.Second

// PurgeApplications purges applications of editions past their retention:
// their résumés are deleted, then their identifying fields stripped
// (privacy.ApplicationsDue, privacy.PurgeApplications). When none is left,
// those editions' door volunteers go too (privacy.PurgeVolunteers).
func (a *RetentionActivities) PurgeApplications(ctx context.Context) (RetentionBatch, error) {
	out, err := a.purgeItems(ctx, privacy.ApplicationsDue, privacy.PurgeApplications)
	if err != nil || out.More {
		return out, err
	}
	n, err := privacy.PurgeVolunteers(ctx, a.Store.Queries, time.Now(), a.days())
	out.Rows += n
	return out, err
}

// PurgeSubmissions deletes onboarding submissions, and their headshots, of
// terms past their retention.
func (a *RetentionActivities) PurgeSubmissions(ctx context.Context) (RetentionBatch, error) {
	return a.purgeItems(ctx, privacy.SubmissionsDue, privacy.DeleteSubmissions)
}

func (a *RetentionActivities) purgeItems(ctx context.Context,
	due func(context.Context, *db.Queries, time.Time, int) ([]privacy.Item, error),
	purge func(context.Context, *db.Queries, []privacy.Item) (int, error)) (RetentionBatch, error) {
	var out RetentionBatch
	start := time.Now()
	for time.Since(start) < retentionSlice {
		items, err := due(ctx, a.Store.Queries, time.Now(), a.days())
		if err != nil || len(items) == 0 {
			return out, err
		}
		n, err := privacy.DeleteAll(ctx, a.Blob, privacy.Keys(items))
		if err != nil {
			return out, err
		}
		out.Objects += n
		err = a.Store.InTx(ctx, func(q *db.Queries) error {
			n, err = purge(ctx, q, items)
			return err
		})
		if err != nil {
			return out, err
		}
		out.Rows += n
		activity.RecordHeartbeat(ctx, out.Rows)
	}
	out.More = true
	return out, nil
}

// PurgeRecords purges the rest by age: email bodies and addresses,
// settled raw receipts, started outbox inputs, old access-log rows, and
// spent sessions and tokens.
func (a *RetentionActivities) PurgeRecords(ctx context.Context) (RetentionCount, error) {
	var out RetentionCount
	start := time.Now()
	for _, step := range []struct {
		n  *int
		fn func(context.Context, *db.Queries, time.Time) (int, error)
	}{
		{&out.Emails, privacy.PurgeEmails},
		{&out.Receipts, privacy.PurgeReceipts},
		{&out.OutboxInputs, privacy.ClearOutboxInputs},
		{&out.AccessLog, privacy.PurgeAccessLog},
	} {
		for time.Since(start) < 3*retentionSlice {
			n, err := step.fn(ctx, a.Store.Queries, time.Now())
			if err != nil {
				return out, err
			}
			*step.n += n
			activity.RecordHeartbeat(ctx, out)
			if n < privacy.Batch {
				break
			}
		}
	}
	var err error
	out.Sessions, out.Tokens, err = privacy.DeleteSpent(ctx, a.Store.Queries)
	return out, err
}

// RecordRetentionInput is one run's outcome to record.
type RecordRetentionInput struct {
	WorkflowID string
	StartedAt  time.Time
	Purged     RetentionCount
}

// RecordRetentionRun records a run (once per workflow id), for the
// operator page.
func (a *RetentionActivities) RecordRetentionRun(ctx context.Context, in RecordRetentionInput) error {
	return privacy.RecordRun(ctx, a.Store.Queries, in.WorkflowID, a.days(), in.StartedAt, in.Purged)
}

func (a *RetentionActivities) days() int {
	if a.RetentionDays <= 0 {
		return privacy.DefaultRetentionDays
	}
	return a.RetentionDays
}
