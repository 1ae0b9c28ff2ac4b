package review

import (
	"context"
	"errors"
	"sync"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/apperr"
)

// Next is the application of the current edition the assignment rule
// gives r under the current settings' cap, in the reviewer view's row (team names as JSON).
// ErrQueueEmpty when there is none.
func Next(ctx context.Context, q *db.Queries, r Reviewer) (db.ApplicationNextForReviewerViewRow, error) {
	s, err := LoadSettings(ctx, q)
	if err != nil {
		return db.ApplicationNextForReviewerViewRow{}, err
	}
	return next(ctx, q, r, s)
}

// next applies the assignment rule in one query: a submitted application
// r has no conflict of interest with (package coi) and has not reviewed, the one with the fewest reviews first (ties by id). The cap
// then applies to that row alone: the queue serves the fewest reviews
// first, so when its first fit has reached the cap every other one has.
func next(ctx context.Context, q *db.Queries, r Reviewer, s Settings) (db.ApplicationNextForReviewerViewRow, error) {
	row, err := q.ApplicationNextForReviewerView(ctx, db.ApplicationNextForReviewerViewParams{
		ReviewerID: r.ProfileID, ReviewerEmail: r.Email, Cap: s.Cap,
	})
	if errors.Is(err, db.ErrNotFound) {
		return db.ApplicationNextForReviewerViewRow{}, ErrQueueEmpty
	}
	return row, err
}

// Left is how many applications the queue still holds for r under the
// settings' cap (their skipped ones included): the edition's queue size
// (from sizes while the queue's generation stands) less the applications
// r reviewed or has a conflict of interest with. Neither part reads the
// whole edition. A nil sizes counts the size every time.
func Left(ctx context.Context, q *db.Queries, sizes *QueueSizes, r Reviewer, s Settings) (int32, error) {
	notMine, err := q.ApplicationQueueNotMine(ctx, db.ApplicationQueueNotMineParams{ReviewerID: r.ProfileID, ReviewerEmail: r.Email, Cap: s.Cap})
	if err != nil {
		return 0, err
	}
	key := sizeKey{hackathon: notMine.HackathonID, cap: -1}
	if s.Cap != nil {
		key.cap = *s.Cap
	}
	size, ok := sizes.get(key, notMine.Generation)
	if !ok {
		row, err := q.ApplicationQueueSize(ctx, s.Cap)
		if err != nil {
			return 0, err
		}
		size = row.Size
		if row.HackathonID == key.hackathon {
			sizes.put(key, row.Generation, size)
		}
	}
	return max(size-notMine.NotMine, 0), nil
}

// QueueSizes keeps the size of each edition's review queue (under each
// cap) with the queue's generation it was counted at (ApplicationQueueSize),
// for one API process: a size is used again only while the generation
// read with a reviewer's part is the same, so it is never staler than the
// database's own answer at that generation. The zero value is ready.
type QueueSizes struct {
	mu    sync.Mutex
	sizes map[sizeKey]queueSize
}

type sizeKey struct {
	hackathon uuid.UUID
	cap       int32 // -1: no cap
}

type queueSize struct {
	generation int64
	size       int32
}

func (c *QueueSizes) get(k sizeKey, generation int64) (int32, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.sizes[k]
	return v.size, ok && v.generation == generation
}

func (c *QueueSizes) put(k sizeKey, generation int64, size int32) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sizes == nil {
		c.sizes = map[sizeKey]queueSize{}
	}
	if v, ok := c.sizes[k]; !ok || v.generation <= generation {
		c.sizes[k] = queueSize{generation: generation, size: size}
	}
}

// SkipRequest is the body of POST /api/review/skip.
type SkipRequest struct {
	ApplicationID string `json:"application_id"`
}

// Validate checks the application id.
func (r *SkipRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ApplicationID); err != nil {
		f.Add("application_id", "must be a UUID")
	}
	return f
}

// Skipped is POST /api/review/skip's answer: how many times r has skipped
// the application.
type Skipped struct {
	ApplicationID uuid.UUID `json:"application_id"`
	Skips         int32     `json:"skips"`
}

// Skip records that r skipped an application the queue could give them:
// it comes after every other one for r (and for r only), the ones skipped
// fewer times first. Refused as Submit refuses: unknown or draft
// ErrApplicationNotFound, another edition's hackathon.ErrNotCurrent, a
// conflict of interest 403, one r reviewed ErrAlreadyReviewed.
func Skip(ctx context.Context, q *db.Queries, r Reviewer, req SkipRequest) (Skipped, error) {
	if err := req.Validate().Err(); err != nil {
		return Skipped{}, err
	}
	appID := uuid.MustParse(req.ApplicationID) // validated
	n, err := q.ReviewSkip(ctx, db.ReviewSkipParams{ReviewerID: r.ProfileID, ApplicationID: appID, ReviewerEmail: r.Email})
	if errors.Is(err, db.ErrNotFound) {
		err = whyNotReviewed(ctx, q, appID, r)
	}
	if err != nil {
		return Skipped{}, err
	}
	return Skipped{ApplicationID: appID, Skips: n}, nil
}

// Submitted is a recorded review and the reviewer's total including it.
type Submitted struct {
	Review       View
	TotalReviews int32
}

// Submit records r's review of req (validated again here, so every
// caller gets the same 400). One statement inserts it only for a submitted
// application of the current edition that r has no conflict of interest
// with (package coi), and returns r's new total over every edition; the trigger
// moves the counters in the same transaction. When nothing was inserted, a
// second look tells why: unknown or draft ErrApplicationNotFound, another
// edition's hackathon.ErrNotCurrent, a conflict of interest 403 naming it,
// else ErrAlreadyReviewed.
func Submit(ctx context.Context, q *db.Queries, r Reviewer, req Request) (Submitted, error) {
	if err := req.Validate().Err(); err != nil {
		return Submitted{}, err
	}
	appID := uuid.MustParse(req.ApplicationID) // validated
	row, err := q.ReviewInsertChecked(ctx, db.ReviewInsertCheckedParams{
		ApplicationID: appID, ReviewerID: r.ProfileID, ReviewerEmail: r.Email, ResumeScore: *req.ResumeScore,
		LinksScore: *req.LinksScore, Q1Score: *req.Q1Score, Q2Score: *req.Q2Score, Note: req.note(),
	})
	if errors.Is(err, db.ErrNotFound) {
		err = whyNotReviewed(ctx, q, appID, r)
	}
	if err != nil {
		return Submitted{}, err
	}
	return Submitted{Review: toView(row), TotalReviews: row.TotalReviews}, nil
}

// whyNotReviewed explains a review that was not inserted.
func whyNotReviewed(ctx context.Context, q *db.Queries, appID uuid.UUID, r Reviewer) error {
	app, err := q.ApplicationReviewConflict(ctx, db.ApplicationReviewConflictParams{ApplicationID: appID, ActorID: r.ProfileID})
	switch {
	case errors.Is(err, db.ErrNotFound), err == nil && application.Status(app.Status) != application.StatusSubmitted:
		return ErrApplicationNotFound
	case err != nil:
		return err
	case !app.Current:
		return hackathon.ErrNotCurrent
	}
	if err := conflictErr(conflictOf(r, app)); err != nil {
		return err
	}
	return ErrAlreadyReviewed
}

// conflictOf applies the conflict-of-interest rule to r and an
// application, with r's own team in the application's edition.
func conflictOf(r Reviewer, app db.ApplicationReviewConflictRow) coi.Kind {
	return coi.Of(coi.Actor{ProfileID: r.ProfileID, Email: r.Email, Team: app.ActorTeam},
		coi.Application{ProfileID: app.ProfileID, Email: app.ApplicantEmail, TeamMembers: app.TeamMembers})
}
