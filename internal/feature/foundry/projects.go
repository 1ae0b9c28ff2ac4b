// Package foundry holds the rules of the project generator: what a launch
// may ask for (project types, databases, extras, the team, the name), the
// project and its steps as recorded, and each step of a launch on the code
// host (package codehost): making the repository from its template,
// giving the team access, dispatching the setup run and following it. The
// API launches and reads projects through it, and the FoundryLaunch
// workflow's activities run the steps through it.
package foundry

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/codehost"
)

// ErrProjectNotFound is the 404 of a project that does not exist.
var ErrProjectNotFound = apperr.New(apperr.NotFound, "Project not found")

// RecentRunsShown is how many Actions runs a project's monitoring lists.
const RecentRunsShown = 20

// Launch is one launch to record: the request, the project's id and the
// ID of the workflow that runs it, and who launched it.
type Launch struct {
	ID         uuid.UUID
	WorkflowID string
	CreatedBy  uuid.UUID
	Request    LaunchRequest
}

// Record records the launched project with its steps pending, in the
// transaction behind q; the caller queues its workflow in the same
// transaction. A name held by a project that is running or succeeded is
// 409.
func Record(ctx context.Context, q *db.Queries, l Launch) (db.FoundryProject, error) {
	r := l.Request
	p, err := q.FoundryProjectInsert(ctx, db.FoundryProjectInsertParams{
		ID: l.ID, Name: r.Name, Description: r.Description, ProjectType: r.ProjectType,
		Database: r.Database, Redis: orFalse(r.Redis), S3: orFalse(r.S3), TeamSlug: r.TeamSlug,
		Private: r.IsPrivate(), WorkflowID: l.WorkflowID, CreatedBy: l.CreatedBy,
	})
	if errors.Is(err, db.ErrConflict) {
		return db.FoundryProject{}, apperr.WithMessage(apperr.Conflict, "Name taken",
			"A project named "+r.Name+" is running or has succeeded; choose another name")
	}
	if err != nil {
		return db.FoundryProject{}, err
	}
	if err := q.FoundryStepsInit(ctx, l.ID); err != nil {
		return db.FoundryProject{}, err
	}
	return p, nil
}

// Options are a project's launch options, as clients see them.
type Options struct {
	Description string `json:"description"`
	ProjectType string `json:"project_type"`
	Database    string `json:"database"`
	Redis       bool   `json:"redis"`
	S3          bool   `json:"s3"`
	TeamSlug    string `json:"team_slug"`
	Private     bool   `json:"private"`
}

// Step is one step of a project, as clients see it.
type Step struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	Detail     string     `json:"detail"`
}

// Project is a project with its steps, as clients see it.
type Project struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	Options       Options   `json:"options"`
	Status        string    `json:"status"`
	Steps         []Step    `json:"steps"`
	RepositoryURL *string   `json:"repository_url"`
	RunURL        *string   `json:"run_url"`
	WorkflowID    string    `json:"workflow_id"`
	CreatedBy     string    `json:"created_by"`
	CreatedAt     time.Time `json:"created_at"`
}

// toProject shows a project row (a list row converts to it: the columns
// are the same) with its steps.
func toProject(p db.FoundryProjectGetRow, steps []db.FoundryStep) Project {
	out := Project{
		ID: p.ID, Name: p.Name, Status: p.Status, RepositoryURL: p.RepositoryUrl, RunURL: p.RunUrl,
		WorkflowID: p.WorkflowID, CreatedBy: p.CreatedByEmail, CreatedAt: p.CreatedAt,
		Options: Options{Description: p.Description, ProjectType: p.ProjectType, Database: p.Database,
			Redis: p.Redis, S3: p.S3, TeamSlug: p.TeamSlug, Private: p.Private},
		Steps: []Step{},
	}
	for _, st := range steps {
		out.Steps = append(out.Steps, Step{Name: st.Name, Status: st.Status,
			StartedAt: st.StartedAt, FinishedAt: st.FinishedAt, Detail: st.Detail})
	}
	return out
}

// List is one page of the launch history, newest first, each project with
// its steps, and the number of projects. Run it in one snapshot, so the
// page, its steps and the total agree.
func List(ctx context.Context, q *db.Queries, limit, offset int32) ([]Project, int64, error) {
	rows, err := q.FoundryProjectList(ctx, db.FoundryProjectListParams{PageSize: limit, PageOffset: offset})
	if err != nil {
		return nil, 0, err
	}
	ids := make([]uuid.UUID, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	steps, err := q.FoundryStepsListFor(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	total, err := q.FoundryProjectCount(ctx)
	if err != nil {
		return nil, 0, err
	}
	byProject := map[uuid.UUID][]db.FoundryStep{}
	for _, st := range steps {
		byProject[st.ProjectID] = append(byProject[st.ProjectID], st)
	}
	out := make([]Project, len(rows))
	for i, r := range rows {
		out[i] = toProject(db.FoundryProjectGetRow(r), byProject[r.ID])
	}
	return out, total, nil
}

// Find reads a project without its steps; ErrProjectNotFound when there
// is none.
func Find(ctx context.Context, q *db.Queries, id uuid.UUID) (db.FoundryProjectGetRow, error) {
	p, err := q.FoundryProjectGet(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return p, ErrProjectNotFound
	}
	return p, err
}

// Get reads a project with the status of each step; ErrProjectNotFound
// when there is none.
func Get(ctx context.Context, q *db.Queries, id uuid.UUID) (Project, error) {
	r, err := Find(ctx, q, id)
	if err != nil {
		return Project{}, err
	}
	steps, err := q.FoundryStepsList(ctx, r.ID)
	if err != nil {
		return Project{}, err
	}
	return toProject(r, steps), nil
}

// RecentRuns are the project's repository's latest Actions runs, newest
// first (RecentRunsShown of them): none before the repository exists, or
// once it is gone. Any other error is the code host's.
func RecentRuns(ctx context.Context, h *codehost.Client, p db.FoundryProjectGetRow) ([]codehost.Run, error) {
	runs := []codehost.Run{}
	if p.RepositoryUrl == nil {
		return runs, nil
	}
	got, err := h.RecentRuns(ctx, p.Name, RecentRunsShown)
	if err != nil && !errors.Is(err, codehost.ErrNotFound) {
		return nil, err
	}
	return append(runs, got...), nil
}
