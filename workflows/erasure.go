package workflows

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/privacy"
)

// AccountErasureSignal says an account's erasure changed: DELETE /api/me
// scheduled it (a signal-with-start, so a person who kept their account
// and asks again gets a fresh run) or "Keep my account" cancelled it. It
// carries nothing: the run reads the state from the database.
const AccountErasureSignal = "erasure-changed"

// AccountErasureInput names the account.
type AccountErasureInput struct {
	ProfileID uuid.UUID
	// Settle is how long the run waits before its last step, so that a
	// request that read the person's address before the erasure began
	// has ended; the last step then purges what it recorded.
	Settle time.Duration
}

// The outcomes of an AccountErasure run.
const (
	ErasureKept    = "kept"    // the account was kept (or never scheduled)
	ErasureRefused = "refused" // it may not be erased any more (cancelled)
	ErasureErased  = "erased"  // a tombstone
)

// AccountErasureResult sums up a run.
type AccountErasureResult struct {
	Outcome string
	Refused string
	Erased  privacy.Erased
}

// The erasure's steps, in order, as its progress lists them.
const (
	StepObjects      = "objects"
	StepApplications = "applications"
	StepRecords      = "records"
	StepEmails       = "emails"
	StepSettle       = "settle"
	StepTombstone    = "tombstone"
)

// ErasureSteps lists the steps in order.
var ErasureSteps = []string{StepObjects, StepApplications, StepRecords, StepEmails, StepSettle, StepTombstone}

// ErasureProgress is the progress query's answer.
type ErasureProgress struct {
	// Status is waiting (the grace period), erasing, erased, kept or
	// refused.
	Status  string     `json:"status"`
	EraseAt *time.Time `json:"erase_at"`
	// Done lists the steps finished, in order; Step is the one under way.
	Done []string `json:"done"`
	Step string   `json:"step,omitempty"`
}

// AccountErasureID is the workflow ID of a profile's erasure.
func AccountErasureID(profileID uuid.UUID) string { return "erase:" + profileID.String() }

// AccountErasureRequest signals (starting it if need be) the erasure of a
// profile: its summary and search attributes name the profile id only.
func AccountErasureRequest(in AccountErasureInput) Request {
	return Request{ID: AccountErasureID(in.ProfileID), Type: "AccountErasure", Input: in, Kind: KindErase,
		Subject: in.ProfileID.String(), Summary: "Erase account " + in.ProfileID.String(),
		Signal: AccountErasureSignal, SignalInput: struct{}{}}
}

// AccountErasure waits out an account's grace period, then erases it.
// The state lives in the database: each signal (scheduled, kept) makes
// the run read it again, a cancellable timer waits for the date, and the
// erasure begins only once the database agrees it is due (privacy.Begin,
// after which the account can no longer be kept). Then the steps run in
// order, each an activity safe to run again: files, applications, other
// records, emails, a pause (Settle) for requests that read the address
// before the erasure began, and the tombstone. The progress query answers
// ErasureProgress.
func AccountErasure(ctx workflow.Context, in AccountErasureInput) (AccountErasureResult, error) {
	var res AccountErasureResult
	if in.ProfileID == uuid.Nil {
		return res, temporal.NewNonRetryableApplicationError("profile is required", "BadInput", nil)
	}
	progress := ErasureProgress{Status: "waiting", Done: []string{}}
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (ErasureProgress, error) { return progress, nil }); err != nil {
		return res, err
	}
	logger := workflow.GetLogger(ctx)
	changed := workflow.GetSignalChannel(ctx, AccountErasureSignal)
	take := func() bool {
		took := false
		for changed.ReceiveAsync(nil) {
			took = true
		}
		return took
	}
	var a *activities.ErasureActivities
	actx := storeActivity(ctx)
	var subject privacy.Subject
	for subject.ProfileID == uuid.Nil {
		take()
		var st privacy.State
		if err := workflow.ExecuteActivity(actx, a.ErasureState, in.ProfileID).Get(ctx, &st); err != nil {
			return res, err
		}
		switch st.State {
		case privacy.StateErased:
			progress.Status, res.Outcome = ErasureErased, ErasureErased
			return res, nil
		case privacy.StateNone:
			if take() {
				continue // changed again while it was read
			}
			progress.Status, res.Outcome = ErasureKept, ErasureKept
			logger.Info("account kept", "profile", in.ProfileID)
			return res, nil
		case privacy.StateScheduled:
			at := st.EraseAt
			progress.Status, progress.EraseAt = "waiting", &at
			// A second past the date, so the database's clock agrees.
			if d := at.Add(time.Second).Sub(workflow.Now(ctx)); d > 0 {
				tctx, cancel := workflow.WithCancel(ctx)
				sel := workflow.NewSelector(ctx)
				sel.AddFuture(workflow.NewTimer(tctx, d), func(workflow.Future) {})
				sel.AddReceive(changed, func(workflow.ReceiveChannel, bool) {}) // the loop takes it
				sel.Select(ctx)
				cancel()
			}
			continue
		}
		var b privacy.Begun
		if err := workflow.ExecuteActivity(actx, a.BeginErasure, in.ProfileID).Get(ctx, &b); err != nil {
			return res, err
		}
		switch {
		case b.Refused != "":
			progress.Status, res.Outcome, res.Refused = ErasureRefused, ErasureRefused, b.Refused
			logger.Info("account erasure refused", "profile", in.ProfileID)
			return res, nil
		case b.State == privacy.StateErasing:
			subject = privacy.Subject{ProfileID: in.ProfileID, Email: b.Email}
		}
	}

	progress.Status = "erasing"
	step := func(name string, fn func() error) error {
		progress.Step = name
		if err := fn(); err != nil {
			return err
		}
		progress.Done = append(progress.Done, name)
		progress.Step = ""
		return nil
	}
	pctx := providerActivity(ctx)
	steps := []struct {
		name string
		fn   func() error
	}{
		{StepObjects, func() error {
			return workflow.ExecuteActivity(pctx, a.EraseObjects, subject).Get(ctx, &res.Erased.Objects)
		}},
		{StepApplications, func() error {
			return workflow.ExecuteActivity(actx, a.EraseApplications, subject).Get(ctx, &res.Erased.Applications)
		}},
		{StepRecords, func() error {
			var r privacy.Erased
			if err := workflow.ExecuteActivity(actx, a.EraseRecords, subject).Get(ctx, &r); err != nil {
				return err
			}
			r.Objects, r.Applications = res.Erased.Objects, res.Erased.Applications
			res.Erased = r
			return nil
		}},
		{StepEmails, func() error {
			return workflow.ExecuteActivity(actx, a.EraseEmails, subject).Get(ctx, &res.Erased.Emails)
		}},
		{StepSettle, func() error { return workflow.Sleep(ctx, in.Settle) }},
		{StepTombstone, func() error {
			var late int
			if err := workflow.ExecuteActivity(actx, a.EraseTombstone, subject).Get(ctx, &late); err != nil {
				return err
			}
			res.Erased.Emails += late
			return nil
		}},
	}
	for _, s := range steps {
		if err := step(s.name, s.fn); err != nil {
			return res, err
		}
	}
	progress.Status, res.Outcome = ErasureErased, ErasureErased
	logger.Info("account erased", "profile", in.ProfileID)
	return res, nil
}
