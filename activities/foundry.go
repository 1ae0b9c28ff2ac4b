package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"hackdesk/db"
	"hackdesk/internal/feature/foundry"
	"hackdesk/internal/platform/codehost"
)

// FoundryActivities run the steps of a Foundry launch (package foundry) on
// the code host and record each step. A nil Host (no code host
// configured) makes every code host activity fail with the non-retryable
// CodeHostNotConfigured.
type FoundryActivities struct {
	Store *db.Store
	Host  *codehost.Client
}

// Error types of the Foundry activities that are not retried: each is a
// permanent answer of the code host, and its message is the step's detail.
const (
	ErrTypeNotConfigured    = "CodeHostNotConfigured"
	ErrTypeNameTaken        = "NameTaken"
	ErrTypeTemplateNotFound = "TemplateNotFound"
	ErrTypeTeamNotFound     = "TeamNotFound"
	ErrTypeSetupNotFound    = "SetupWorkflowNotFound"
	ErrTypeRejected         = "Rejected"
	ErrTypeRunNotFound      = "RunNotFound"
)

// Error types of the Foundry activities that are retried after the delay
// they carry (temporal.ApplicationError's NextRetryDelay).
const (
	// ErrTypeRateLimited is the code host's rate limit: the next attempt
	// comes when the code host said the limit ends, not earlier.
	ErrTypeRateLimited = "RateLimited"
	// ErrTypeDispatchPending is a setup dispatch recorded by an earlier
	// attempt whose run has not appeared yet.
	ErrTypeDispatchPending = "DispatchPending"
)

// DispatchLostAfter is how long the run of a recorded dispatch may take to
// appear before the dispatch is made again (foundry.DispatchLostAfter).
const DispatchLostAfter = foundry.DispatchLostAfter

// dispatchPendingDelay is how soon a retry looks again for the run of an
// earlier dispatch.
const dispatchPendingDelay = 10 * time.Second

// FoundryNonRetryable lists the error types above, for retry policies.
var FoundryNonRetryable = []string{ErrTypeNotConfigured, ErrTypeNameTaken, ErrTypeTemplateNotFound,
	ErrTypeTeamNotFound, ErrTypeSetupNotFound, ErrTypeRejected, ErrTypeRunNotFound}

// failureTypes are the error types of the kinds of foundry.Failure.
var failureTypes = map[error]string{
	foundry.ErrNameTaken:        ErrTypeNameTaken,
	foundry.ErrTemplateNotFound: ErrTypeTemplateNotFound,
	foundry.ErrTeamNotFound:     ErrTypeTeamNotFound,
	foundry.ErrSetupNotFound:    ErrTypeSetupNotFound,
	foundry.ErrRejected:         ErrTypeRejected,
	foundry.ErrRunNotFound:      ErrTypeRunNotFound,
	foundry.ErrBadInput:         "BadInput",
}

// The values the Foundry activities take and return (package foundry).
type (
	StepUpdate            = foundry.StepUpdate
	CreateRepositoryInput = foundry.CreateRepositoryInput
	RepoRef               = foundry.RepoRef
	GrantTeamInput        = foundry.GrantTeamInput
	DispatchInput         = foundry.DispatchInput
	WatchInput            = foundry.WatchInput
	RunProgress           = foundry.RunProgress
	RunOutcome            = foundry.RunOutcome
)

func permanent(typ, format string, args ...any) error {
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf(format, args...), typ, nil)
}

// host is the code host client for an activity. It never waits for a
// rate limit: the activity fails with a retryable RateLimited error whose
// NextRetryDelay is the wait (foundryError), and Temporal schedules the
// next attempt then. Sleeping instead could outlast the activity's
// start-to-close timeout or, in WatchSetupRun, its heartbeat timeout.
func (a *FoundryActivities) host() (*codehost.Client, error) {
	if a.Host == nil {
		return nil, permanent(ErrTypeNotConfigured, "code host not configured")
	}
	return a.Host.WithoutWaiting(), nil
}

// foundryError maps the error in *err to Temporal's: a foundry.Failure is
// not retried, a dispatch pending is retried shortly, and a code host
// rate limit is retried as late as the code host said. Every Foundry
// activity defers it.
func foundryError(err *error) {
	var (
		f  *foundry.Failure
		rl *codehost.RateLimitError
	)
	switch {
	case *err == nil:
	case errors.As(*err, &f):
		*err = temporal.NewNonRetryableApplicationError(f.Detail, failureTypes[f.Kind], nil)
	case errors.Is(*err, foundry.ErrDispatchPending):
		*err = temporal.NewApplicationErrorWithOptions((*err).Error(), ErrTypeDispatchPending,
			temporal.ApplicationErrorOptions{NextRetryDelay: dispatchPendingDelay})
	case errors.As(*err, &rl):
		*err = temporal.NewApplicationErrorWithOptions((*err).Error(), ErrTypeRateLimited, temporal.ApplicationErrorOptions{
			NextRetryDelay: max(rl.RetryAfter, time.Second), Cause: *err})
	}
}

// RecordStep writes a step update in one transaction (foundry.RecordStep);
// a retry changes nothing.
func (a *FoundryActivities) RecordStep(ctx context.Context, u StepUpdate) (err error) {
	defer foundryError(&err)
	return a.Store.InTx(ctx, func(q *db.Queries) error { return foundry.RecordStep(ctx, q, u) })
}

// CreateRepository makes the repository from the project type's template
// (foundry.CreateRepository): one an earlier attempt made is reused, a
// name taken otherwise fails with NameTaken.
func (a *FoundryActivities) CreateRepository(ctx context.Context, in CreateRepositoryInput) (_ RepoRef, err error) {
	defer foundryError(&err)
	h, err := a.host()
	if err != nil {
		return RepoRef{}, err
	}
	return foundry.CreateRepository(ctx, h, in)
}

// GrantTeam gives the team push access (foundry.GrantTeam); an unknown
// team fails with TeamNotFound.
func (a *FoundryActivities) GrantTeam(ctx context.Context, in GrantTeamInput) (err error) {
	defer foundryError(&err)
	h, err := a.host()
	if err != nil {
		return err
	}
	return foundry.GrantTeam(ctx, h, in)
}

// DispatchSetup dispatches the setup workflow once (foundry.DispatchSetup):
// while the run of a dispatch an earlier attempt recorded has not
// appeared, it fails with the retryable DispatchPending.
func (a *FoundryActivities) DispatchSetup(ctx context.Context, in DispatchInput) (err error) {
	defer foundryError(&err)
	h, err := a.host()
	if err != nil {
		return err
	}
	return foundry.DispatchSetup(ctx, h, a.Store.Queries, in)
}

// WatchSetupRun follows the dispatched run to its end
// (foundry.WatchSetupRun), heartbeating its progress at each poll, and
// resumes from the last heartbeat.
func (a *FoundryActivities) WatchSetupRun(ctx context.Context, in WatchInput) (_ RunOutcome, err error) {
	defer foundryError(&err)
	h, err := a.host()
	if err != nil {
		return RunOutcome{}, err
	}
	var p RunProgress
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &p)
	}
	return foundry.WatchSetupRun(ctx, h, a.Store, in, p, func(p RunProgress) { activity.RecordHeartbeat(ctx, p) })
}
