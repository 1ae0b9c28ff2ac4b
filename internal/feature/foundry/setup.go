package foundry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/codehost"
)

// The code host steps of a launch. Each takes a client that does not wait
// for rate limits (its callers retry later) and returns a *Failure for an
// answer no retry changes; any other error, a *codehost.RateLimitError
// included, is worth retrying.

// DispatchLostAfter is how long the run of a recorded dispatch may take to
// appear before the dispatch is taken as lost and made again (GitHub lists
// a dispatched run within seconds). The setup run is looked for as long.
const DispatchLostAfter = 5 * time.Minute

// ErrDispatchPending is DispatchSetup's answer while the run of a dispatch
// recorded by an earlier attempt has not appeared yet: try again shortly.
var ErrDispatchPending = errors.New("waiting for the run of an earlier dispatch to appear")

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

// RepoRef is a repository the launch works on.
type RepoRef struct {
	Name          string
	FullName      string
	URL           string
	DefaultBranch string
	Reused        bool
}

// OwnRepository reports whether an existing repository of the project's
// name is the project's own, made by an earlier attempt: made from the
// project type's template since the launch (GitHub's times have whole
// seconds).
func OwnRepository(existing codehost.Repo, template string, launchedAt time.Time) bool {
	return existing.Template == template && !existing.CreatedAt.Before(launchedAt.Truncate(time.Second))
}

// CreateRepository makes the repository from the project type's template.
// A repository that an earlier attempt of this project made is reused; a
// name taken otherwise is an ErrNameTaken Failure.
func CreateRepository(ctx context.Context, h *codehost.Client, in CreateRepositoryInput) (RepoRef, error) {
	tpl, err := h.TemplateFor(ctx, in.ProjectType)
	if errors.Is(err, codehost.ErrNotFound) {
		return RepoRef{}, fail(ErrTemplateNotFound, "no template repository for project type %s in %s", in.ProjectType, h.Org())
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
		if OwnRepository(existing, tpl.FullName, in.LaunchedAt) {
			return RepoRef{Name: existing.Name, FullName: existing.FullName, URL: existing.URL,
				DefaultBranch: existing.DefaultBranch, Reused: true}, nil
		}
		return RepoRef{}, fail(ErrNameTaken, "a repository named %s already exists in %s", in.Name, h.Org())
	case errors.Is(err, codehost.ErrNotFound):
		return RepoRef{}, fail(ErrTemplateNotFound, "template %s not found: %v", tpl.FullName, err)
	case errors.Is(err, codehost.ErrInvalid):
		return RepoRef{}, fail(ErrRejected, "the code host refused to create %s: %v", in.Name, err)
	}
	return RepoRef{}, err
}

// GrantTeamInput gives a team push access to a repository.
type GrantTeamInput struct {
	Repo     string
	TeamSlug string
}

// GrantTeam gives the team push access; granting twice is harmless. An
// unknown team is an ErrTeamNotFound Failure.
func GrantTeam(ctx context.Context, h *codehost.Client, in GrantTeamInput) error {
	err := h.GrantTeam(ctx, in.TeamSlug, in.Repo, "push")
	if errors.Is(err, codehost.ErrNotFound) {
		return fail(ErrTeamNotFound, "team %s not found in %s", in.TeamSlug, h.Org())
	}
	if errors.Is(err, codehost.ErrInvalid) {
		return fail(ErrRejected, "the code host refused access for team %s: %v", in.TeamSlug, err)
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

// SetupInputs are the setup workflow's inputs for a dispatch: the
// project's options, as the workflow_dispatch form takes them (strings).
func SetupInputs(in DispatchInput) map[string]any {
	return map[string]any{
		"correlation_id": in.CorrelationID,
		"project_type":   in.ProjectType,
		"database":       in.Database,
		"redis":          fmt.Sprint(in.Redis),
		"s3":             fmt.Sprint(in.S3),
	}
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
//     DispatchLostAfter ago: then the answer is ErrDispatchPending, and a
//     retry looks for that dispatch's run again shortly;
//   - a recorded dispatch whose run has not appeared after
//     DispatchLostAfter never reached GitHub, and is made again.
//
// q must not be in a transaction: the record must stand before the code
// host is called, whatever happens next.
func DispatchSetup(ctx context.Context, h *codehost.Client, q *db.Queries, in DispatchInput) error {
	notFound := func() error {
		return fail(ErrSetupNotFound, "setup workflow %s not found in %s", h.SetupWorkflow(), in.Repo)
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
			return fail(ErrBadInput, "the dispatch in %s names no project", in.Repo)
		}
	}
	at, err := q.FoundryProjectClaimDispatch(ctx, db.FoundryProjectClaimDispatchParams{
		ID: project, LostAfterSeconds: DispatchLostAfter.Seconds()})
	if errors.Is(err, db.ErrNotFound) {
		return ErrDispatchPending
	}
	if err != nil {
		return err
	}
	err = h.DispatchSetup(ctx, in.Repo, in.Ref, SetupInputs(in))
	switch {
	case errors.Is(err, codehost.ErrNotFound):
		return notFound()
	case errors.Is(err, codehost.ErrInvalid):
		return fail(ErrRejected, "the code host refused the setup dispatch: %v", err)
	case errors.Is(err, codehost.ErrRateLimited):
		// Refused, so nothing was dispatched: the retry may dispatch at once.
		if rerr := q.FoundryProjectReleaseDispatch(ctx, db.FoundryProjectReleaseDispatchParams{ID: project, DispatchedAt: at}); rerr != nil {
			return rerr
		}
	}
	// Any other error may be a dispatch whose answer was lost: the record
	// stays, and the retry looks for its run first.
	return err
}
