package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"hackdesk/codehost"
	"hackdesk/db"
)

// FoundryActivities create a project's repository on the code host, give
// its team access, dispatch and watch its setup run, and record each step.
// A nil Host (no code host configured) makes every code host activity fail
// with the non-retryable CodeHostNotConfigured.
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
// appear before the dispatch is taken as lost and made again (GitHub lists
// a dispatched run within seconds). The setup run is looked for as long.
const DispatchLostAfter = 5 * time.Minute

// dispatchPendingDelay is how soon a retry looks again for the run of an
// earlier dispatch.
const dispatchPendingDelay = 10 * time.Second

// FoundryNonRetryable lists the error types above, for retry policies.
var FoundryNonRetryable = []string{ErrTypeNotConfigured, ErrTypeNameTaken, ErrTypeTemplateNotFound,
	ErrTypeTeamNotFound, ErrTypeSetupNotFound, ErrTypeRejected, ErrTypeRunNotFound}

func permanent(typ, format string, args ...any) error {
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf(format, args...), typ, nil)
}

// host is the code host client for an activity. It never waits for a
// rate limit: the activity fails with a retryable RateLimited error whose
// NextRetryDelay is the wait (retryLater), and Temporal schedules the next
// attempt then. Sleeping instead could outlast the activity's start-to-close
// timeout or, in WatchSetupRun, its heartbeat timeout.
func (a *FoundryActivities) host() (*codehost.Client, error) {
	if a.Host == nil {
		return nil, permanent(ErrTypeNotConfigured, "code host not configured")
	}
	return a.Host.WithoutWaiting(), nil
}

// retryLater turns a code host rate limit in *err into a retryable
// application error that asks Temporal to wait as long as the code host
// said. Every code host activity defers it.
func retryLater(err *error) {
	var rl *codehost.RateLimitError
	if *err == nil || !errors.As(*err, &rl) {
		return
	}
	*err = temporal.NewApplicationErrorWithOptions((*err).Error(), ErrTypeRateLimited, temporal.ApplicationErrorOptions{
		NextRetryDelay: max(rl.RetryAfter, time.Second), Cause: *err})
}

// StepUpdate records a step's status. Project, when set (succeeded or
// failed), ends the project too; RepositoryURL and RunURL, when set, are
// recorded on it.
type StepUpdate struct {
	ProjectID     uuid.UUID
	Step          string
	Status        string // running, succeeded or failed
	Detail        string
	Project       string
	RepositoryURL string
	RunURL        string
}

// RecordStep writes a step update in one transaction. Updates are
// conditional (an ended step or project keeps its outcome), so a retry
// changes nothing.
func (a *FoundryActivities) RecordStep(ctx context.Context, u StepUpdate) error {
	return a.Store.InTx(ctx, func(q *db.Queries) error {
		var err error
		switch u.Status {
		case "running":
			err = q.FoundryStepStart(ctx, db.FoundryStepStartParams{ProjectID: u.ProjectID, Name: u.Step, Detail: u.Detail})
		case "succeeded", "failed":
			err = q.FoundryStepFinish(ctx, db.FoundryStepFinishParams{ProjectID: u.ProjectID, Name: u.Step, Status: u.Status, Detail: u.Detail})
		default:
			return permanent("BadInput", "unknown step status %q", u.Status)
		}
		if err != nil {
			return err
		}
		if u.RepositoryURL != "" || u.RunURL != "" {
			if err := q.FoundryProjectSetURLs(ctx, db.FoundryProjectSetURLsParams{ID: u.ProjectID,
				RepositoryUrl: nonEmpty(u.RepositoryURL), RunUrl: nonEmpty(u.RunURL)}); err != nil {
				return err
			}
		}
		if u.Project != "" {
			if _, err := q.FoundryProjectFinish(ctx, db.FoundryProjectFinishParams{ID: u.ProjectID, Status: u.Project}); err != nil {
				return err
			}
		}
		return nil
	})
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateRepositoryInput names the repository to make and the template's
// project type. LaunchedAt is when the project was launched: a repository
// of the same name made from the same template since then is this
// project's own, from an earlier attempt.
type CreateRepositoryInput struct {
	ProjectID   uuid.UUID
	Name        string
	Description string
	ProjectType string
	Private     bool
	LaunchedAt  time.Time
}

// RepoRef is a repository the workflow works on.
type RepoRef struct {
	Name          string
	FullName      string
	URL           string
	DefaultBranch string
	Reused        bool
}

// CreateRepository makes the repository from the project type's template.
// A repository that an earlier attempt of this project made is reused; a
// name taken otherwise fails with NameTaken.
func (a *FoundryActivities) CreateRepository(ctx context.Context, in CreateRepositoryInput) (_ RepoRef, err error) {
	defer retryLater(&err)
	h, err := a.host()
	if err != nil {
		return RepoRef{}, err
	}
	tpl, err := h.TemplateFor(ctx, in.ProjectType)
	if errors.Is(err, codehost.ErrNotFound) {
		return RepoRef{}, permanent(ErrTypeTemplateNotFound, "no template repository for project type %s in %s", in.ProjectType, h.Org())
	}
	if err != nil {
		return RepoRef{}, err
	}
	repo, err := h.CreateFromTemplate(ctx, tpl.FullName, in.Name, in.Description, in.Private)
	switch {
	case err == nil:
		return RepoRef{Name: repo.Name, FullName: repo.FullName, URL: repo.URL, DefaultBranch: repo.DefaultBranch}, nil
	case errors.Is(err, codehost.ErrNameTaken):
		existing, gerr := h.Repository(ctx, in.Name)
		if gerr != nil {
			return RepoRef{}, gerr
		}
		// GitHub's times have whole seconds.
		if existing.Template == tpl.FullName && !existing.CreatedAt.Before(in.LaunchedAt.Truncate(time.Second)) {
			return RepoRef{Name: existing.Name, FullName: existing.FullName, URL: existing.URL,
				DefaultBranch: existing.DefaultBranch, Reused: true}, nil
		}
		return RepoRef{}, permanent(ErrTypeNameTaken, "a repository named %s already exists in %s", in.Name, h.Org())
	case errors.Is(err, codehost.ErrNotFound):
		return RepoRef{}, permanent(ErrTypeTemplateNotFound, "template %s not found: %v", tpl.FullName, err)
	case errors.Is(err, codehost.ErrInvalid):
		return RepoRef{}, permanent(ErrTypeRejected, "the code host refused to create %s: %v", in.Name, err)
	}
	return RepoRef{}, err
}

// GrantTeamInput gives a team push access to a repository.
type GrantTeamInput struct {
	Repo     string
	TeamSlug string
}

// GrantTeam gives the team push access; granting twice is harmless. An
// unknown team fails with TeamNotFound.
func (a *FoundryActivities) GrantTeam(ctx context.Context, in GrantTeamInput) (err error) {
	defer retryLater(&err)
	h, err := a.host()
	if err != nil {
		return err
	}
	err = h.GrantTeam(ctx, in.TeamSlug, in.Repo, "push")
	if errors.Is(err, codehost.ErrNotFound) {
		return permanent(ErrTypeTeamNotFound, "team %s not found in %s", in.TeamSlug, h.Org())
	}
	if errors.Is(err, codehost.ErrInvalid) {
		return permanent(ErrTypeRejected, "the code host refused access for team %s: %v", in.TeamSlug, err)
	}
	return err
}

// DispatchInput is the setup workflow's dispatch: the chosen options and
// the correlation id its run name carries.
type DispatchInput struct {
	// ProjectID is the project the dispatch is recorded on (zero in
	// activities scheduled before it was passed: the correlation id, which
	// is the project id, stands in).
	ProjectID     uuid.UUID
	Repo          string
	Ref           string
	CorrelationID string
	ProjectType   string
	Database      string
	Redis         bool
	S3            bool
}

// DispatchSetup dispatches the setup workflow in the new repository with
// the project's options as inputs, once. GitHub answers a dispatch with no
// run id and lists the run a little later, so "look for the run, then
// dispatch" would dispatch twice when a retry follows a lost answer.
// Instead:
//
//   - a run whose name carries the correlation id means a dispatch went
//     through: done;
//   - else the dispatch is recorded on the project (setup_dispatched_at)
//     before the code host is called, unless one was recorded less than
//     DispatchLostAfter ago: then this attempt fails with the retryable
//     DispatchPending and looks for that dispatch's run again shortly;
//   - a recorded dispatch whose run has not appeared after
//     DispatchLostAfter never reached GitHub, and is made again.
func (a *FoundryActivities) DispatchSetup(ctx context.Context, in DispatchInput) (err error) {
	defer retryLater(&err)
	h, err := a.host()
	if err != nil {
		return err
	}
	notFound := func() error {
		return permanent(ErrTypeSetupNotFound, "setup workflow %s not found in %s", h.SetupWorkflow(), in.Repo)
	}
	_, ok, err := h.FindRun(ctx, in.Repo, in.CorrelationID)
	switch {
	case errors.Is(err, codehost.ErrNotFound):
		return notFound()
	case err != nil || ok:
		return err
	}
	project := in.ProjectID
	if project == uuid.Nil {
		if project, err = uuid.Parse(in.CorrelationID); err != nil {
			return permanent("BadInput", "the dispatch in %s names no project", in.Repo)
		}
	}
	at, err := a.Store.FoundryProjectClaimDispatch(ctx, db.FoundryProjectClaimDispatchParams{
		ID: project, LostAfterSeconds: DispatchLostAfter.Seconds()})
	if errors.Is(err, db.ErrNotFound) {
		return temporal.NewApplicationErrorWithOptions("waiting for the run of an earlier dispatch to appear", ErrTypeDispatchPending,
			temporal.ApplicationErrorOptions{NextRetryDelay: dispatchPendingDelay})
	}
	if err != nil {
		return err
	}
	err = h.DispatchSetup(ctx, in.Repo, in.Ref, map[string]any{
		"correlation_id": in.CorrelationID,
		"project_type":   in.ProjectType,
		"database":       in.Database,
		"redis":          fmt.Sprint(in.Redis),
		"s3":             fmt.Sprint(in.S3),
	})
	switch {
	case errors.Is(err, codehost.ErrNotFound):
		return notFound()
	case errors.Is(err, codehost.ErrInvalid):
		return permanent(ErrTypeRejected, "the code host refused the setup dispatch: %v", err)
	case errors.Is(err, codehost.ErrRateLimited):
		// Refused, so nothing was dispatched: the retry may dispatch at once.
		if rerr := a.Store.FoundryProjectReleaseDispatch(ctx, db.FoundryProjectReleaseDispatchParams{ID: project, DispatchedAt: at}); rerr != nil {
			return rerr
		}
	}
	// Any other error may be a dispatch whose answer was lost: the record
	// stays, and the retry looks for its run first.
	return err
}

// WatchInput names the dispatched setup run to follow.
type WatchInput struct {
	ProjectID     uuid.UUID
	Repo          string
	CorrelationID string
	// PollInterval is the time between reads of the run (default 5 s).
	PollInterval time.Duration
	// FindTimeout is how long to look for the dispatched run before
	// failing with RunNotFound (default 5 minutes).
	FindTimeout time.Duration
}

// RunProgress is the heartbeat of WatchSetupRun: the run once found, so a
// retried attempt resumes with it instead of looking again.
type RunProgress struct {
	RunID  int64
	URL    string
	Status string
}

// RunOutcome is how the setup run ended.
type RunOutcome struct {
	RunID      int64
	URL        string
	Conclusion string
	FailedStep string
}

// WatchSetupRun finds the run the dispatch made (by the correlation id in
// its name), records its link, and polls it with heartbeats until it
// completes. It resumes from the last heartbeat.
func (a *FoundryActivities) WatchSetupRun(ctx context.Context, in WatchInput) (_ RunOutcome, err error) {
	defer retryLater(&err)
	h, err := a.host()
	if err != nil {
		return RunOutcome{}, err
	}
	poll, findFor := in.PollInterval, in.FindTimeout
	if poll <= 0 {
		poll = 5 * time.Second
	}
	if findFor <= 0 {
		findFor = 5 * time.Minute
	}
	var p RunProgress
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &p)
	}
	lookingSince := time.Now()
	for {
		if p.RunID == 0 {
			run, ok, err := h.FindRun(ctx, in.Repo, in.CorrelationID)
			if err != nil {
				return RunOutcome{}, err
			}
			if ok {
				p = RunProgress{RunID: run.ID, URL: run.URL}
				if err := a.RecordStep(ctx, StepUpdate{ProjectID: in.ProjectID, Step: "setup_run", Status: "running",
					Detail: "run " + run.Status, RunURL: run.URL}); err != nil {
					return RunOutcome{}, err
				}
				p.Status = run.Status
			} else if time.Since(lookingSince) > findFor {
				return RunOutcome{}, permanent(ErrTypeRunNotFound, "the setup run did not appear within %s of the dispatch", findFor)
			}
		} else {
			run, err := h.Run(ctx, in.Repo, p.RunID)
			if errors.Is(err, codehost.ErrNotFound) {
				return RunOutcome{}, permanent(ErrTypeRunNotFound, "setup run %d not found", p.RunID)
			}
			if err != nil {
				return RunOutcome{}, err
			}
			if run.Completed() {
				out := RunOutcome{RunID: run.ID, URL: run.URL, Conclusion: run.Conclusion}
				if run.Conclusion != "success" {
					if out.FailedStep, err = h.FailedStep(ctx, in.Repo, run.ID); err != nil {
						return RunOutcome{}, err
					}
				}
				return out, nil
			}
			if run.Status != p.Status {
				p.Status = run.Status
				if err := a.RecordStep(ctx, StepUpdate{ProjectID: in.ProjectID, Step: "setup_run", Status: "running",
					Detail: "run " + run.Status}); err != nil {
					return RunOutcome{}, err
				}
			}
		}
		activity.RecordHeartbeat(ctx, p)
		t := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return RunOutcome{}, ctx.Err()
		case <-t.C:
		}
	}
}
