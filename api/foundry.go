package api

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/codehost"
	"hackdesk/db"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

var (
	errNoCodeHost      = apperr.New(apperr.Unavailable, "Code host not configured")
	errProjectNotFound = apperr.New(apperr.NotFound, "Project not found")
)

// recentRunsShown is how many Actions runs a project's monitoring lists.
const recentRunsShown = 20

// needCodeHost is the first check of every Foundry route: without a code
// host they answer 503.
func (s *Server) needCodeHost() (*codehost.Client, error) {
	if s.codehost == nil {
		return nil, errNoCodeHost
	}
	return s.codehost, nil
}

// codeHostFailed is the 503 for a code host that did not answer as
// expected (down, rate limited, a refused token); the cause is logged.
func (s *Server) codeHostFailed(r *http.Request, err error) error {
	if errors.Is(err, r.Context().Err()) {
		return err
	}
	s.log.WarnContext(r.Context(), "code host call failed", "path", r.URL.Path, "err", err)
	return apperr.WithMessage(apperr.Unavailable, "Code host unavailable", "The code host did not answer; try again shortly")
}

// codehostTeams is GET /api/codehost/teams (admin).
func (s *Server) codehostTeams(w http.ResponseWriter, r *http.Request) error {
	h, err := s.needCodeHost()
	if err != nil {
		return err
	}
	teams, err := h.Teams(r.Context())
	if err != nil {
		return s.codeHostFailed(r, err)
	}
	if teams == nil {
		teams = []codehost.Team{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"teams": teams})
	return nil
}

// codehostTemplates is GET /api/codehost/templates (admin).
func (s *Server) codehostTemplates(w http.ResponseWriter, r *http.Request) error {
	h, err := s.needCodeHost()
	if err != nil {
		return err
	}
	tpls, err := h.Templates(r.Context())
	if err != nil {
		return s.codeHostFailed(r, err)
	}
	if tpls == nil {
		tpls = []codehost.Template{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"templates": tpls})
	return nil
}

type launchRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	ProjectType string `json:"project_type"`
	Database    string `json:"database"`
	Redis       *bool  `json:"redis"`
	S3          *bool  `json:"s3"`
	TeamSlug    string `json:"team_slug"`
	Private     *bool  `json:"private"`
}

func (r *launchRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if why := codehost.CheckRepoName(r.Name); why != "" {
		f.Add("name", why)
	}
	if len([]rune(r.Description)) > codehost.MaxDescription {
		f.Add("description", "must be at most 350 characters")
	}
	if !codehost.ValidProjectType(r.ProjectType) {
		f.Add("project_type", "must be one of "+strings.Join(codehost.ProjectTypes, ", "))
	}
	if !codehost.ValidDatabase(r.Database) {
		f.Add("database", "must be one of "+strings.Join(codehost.Databases, ", "))
	}
	if why := codehost.CheckTeamSlug(r.TeamSlug); why != "" {
		f.Add("team_slug", why)
	}
	return f
}

func orFalse(b *bool) bool { return b != nil && *b }

// launchProject is POST /api/codehost/foundry/launch (admin): it records
// the project with its steps pending and queues its FoundryLaunch
// workflow in the same transaction, then answers 202. The team slug must
// be one the code host lists (400 otherwise), checked before anything is
// recorded or created. A name held by a project that is running or
// succeeded is 409.
func (s *Server) launchProject(w http.ResponseWriter, r *http.Request) error {
	h, err := s.needCodeHost()
	if err != nil {
		return err
	}
	var req launchRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	teams, err := h.Teams(ctx)
	if err != nil {
		return s.codeHostFailed(r, err)
	}
	if !slices.ContainsFunc(teams, func(t codehost.Team) bool { return t.Slug == req.TeamSlug }) {
		return apperr.ValidationFailed(apperr.Fields{"team_slug": "no team " + req.TeamSlug + " in the organization (GET /api/codehost/teams lists them)"})
	}
	me := principalFrom(ctx).ProfileID
	id := uuid.New()
	private := req.Private == nil || *req.Private // private unless asked otherwise
	workflowID := workflows.FoundryLaunchID(id)
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		p, err := q.FoundryProjectInsert(ctx, db.FoundryProjectInsertParams{
			ID: id, Name: req.Name, Description: req.Description, ProjectType: req.ProjectType,
			Database: req.Database, Redis: orFalse(req.Redis), S3: orFalse(req.S3), TeamSlug: req.TeamSlug,
			Private: private, WorkflowID: workflowID, CreatedBy: me,
		})
		if errors.Is(err, db.ErrConflict) {
			return apperr.WithMessage(apperr.Conflict, "Name taken",
				"A project named "+req.Name+" is running or has succeeded; choose another name")
		}
		if err != nil {
			return err
		}
		if err := q.FoundryStepsInit(ctx, id); err != nil {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.FoundryLaunchRequest(workflows.FoundryLaunchInput{
			ProjectID: id, Name: p.Name, Description: p.Description, ProjectType: p.ProjectType,
			Database: p.Database, Redis: p.Redis, S3: p.S3, TeamSlug: p.TeamSlug, Private: p.Private,
			LaunchedAt: p.CreatedAt, PollInterval: s.cfg.FoundryPollInterval,
		}))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"project_id": id, "workflow_id": workflowID})
	return nil
}

type projectOptionsJSON struct {
	Description string `json:"description"`
	ProjectType string `json:"project_type"`
	Database    string `json:"database"`
	Redis       bool   `json:"redis"`
	S3          bool   `json:"s3"`
	TeamSlug    string `json:"team_slug"`
	Private     bool   `json:"private"`
}

type projectStepJSON struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	Detail     string     `json:"detail"`
}

type projectJSON struct {
	ID            uuid.UUID          `json:"id"`
	Name          string             `json:"name"`
	Options       projectOptionsJSON `json:"options"`
	Status        string             `json:"status"`
	Steps         []projectStepJSON  `json:"steps"`
	RepositoryURL *string            `json:"repository_url"`
	RunURL        *string            `json:"run_url"`
	WorkflowID    string             `json:"workflow_id"`
	CreatedBy     string             `json:"created_by"`
	CreatedAt     time.Time          `json:"created_at"`
}

func toProjectJSON(p db.FoundryProject, createdBy string, steps []db.FoundryStep) projectJSON {
	out := projectJSON{
		ID: p.ID, Name: p.Name, Status: p.Status, RepositoryURL: p.RepositoryUrl, RunURL: p.RunUrl,
		WorkflowID: p.WorkflowID, CreatedBy: createdBy, CreatedAt: p.CreatedAt,
		Options: projectOptionsJSON{Description: p.Description, ProjectType: p.ProjectType, Database: p.Database,
			Redis: p.Redis, S3: p.S3, TeamSlug: p.TeamSlug, Private: p.Private},
		Steps: []projectStepJSON{},
	}
	for _, st := range steps {
		out.Steps = append(out.Steps, projectStepJSON{Name: st.Name, Status: st.Status,
			StartedAt: st.StartedAt, FinishedAt: st.FinishedAt, Detail: st.Detail})
	}
	return out
}

// listProjects is GET /api/codehost/projects (admin): the launch history,
// newest first, each project with its steps.
func (s *Server) listProjects(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.needCodeHost(); err != nil {
		return err
	}
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	var (
		rows  []db.FoundryProjectListRow
		steps []db.FoundryStep
		total int64
	)
	err := s.store.InSnapshot(ctx, func(q *db.Queries) error {
		var err error
		if rows, err = q.FoundryProjectList(ctx, db.FoundryProjectListParams{PageSize: pg.Size, PageOffset: pg.offset()}); err != nil {
			return err
		}
		ids := make([]uuid.UUID, len(rows))
		for i, row := range rows {
			ids[i] = row.ID
		}
		if steps, err = q.FoundryStepsListFor(ctx, ids); err != nil {
			return err
		}
		total, err = q.FoundryProjectCount(ctx)
		return err
	})
	if err != nil {
		return err
	}
	byProject := map[uuid.UUID][]db.FoundryStep{}
	for _, st := range steps {
		byProject[st.ProjectID] = append(byProject[st.ProjectID], st)
	}
	out := make([]projectJSON, len(rows))
	for i, row := range rows {
		out[i] = toProjectJSON(projectOfList(row), row.CreatedByEmail, byProject[row.ID])
	}
	writeJSON(w, http.StatusOK, map[string]any{"projects": out, "total": total, "page": pg.Number, "page_size": pg.Size})
	return nil
}

func projectOfList(r db.FoundryProjectListRow) db.FoundryProject {
	return db.FoundryProject{ID: r.ID, Name: r.Name, Description: r.Description, ProjectType: r.ProjectType,
		Database: r.Database, Redis: r.Redis, S3: r.S3, TeamSlug: r.TeamSlug, Private: r.Private, Status: r.Status,
		WorkflowID: r.WorkflowID, RepositoryUrl: r.RepositoryUrl, RunUrl: r.RunUrl, CreatedBy: r.CreatedBy,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

func projectOfGet(r db.FoundryProjectGetRow) db.FoundryProject {
	return db.FoundryProject{ID: r.ID, Name: r.Name, Description: r.Description, ProjectType: r.ProjectType,
		Database: r.Database, Redis: r.Redis, S3: r.S3, TeamSlug: r.TeamSlug, Private: r.Private, Status: r.Status,
		WorkflowID: r.WorkflowID, RepositoryUrl: r.RepositoryUrl, RunUrl: r.RunUrl, CreatedBy: r.CreatedBy,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// loadProject reads the project named by the {id} path parameter.
func (s *Server) loadProject(r *http.Request) (db.FoundryProjectGetRow, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return db.FoundryProjectGetRow{}, errProjectNotFound
	}
	p, err := s.store.FoundryProjectGet(r.Context(), id)
	if errors.Is(err, db.ErrNotFound) {
		return p, errProjectNotFound
	}
	return p, err
}

// getProject is GET /api/codehost/projects/{id} (admin): one project with
// the status of each step.
func (s *Server) getProject(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.needCodeHost(); err != nil {
		return err
	}
	p, err := s.loadProject(r)
	if err != nil {
		return err
	}
	steps, err := s.store.FoundryStepsList(r.Context(), p.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toProjectJSON(projectOfGet(p), p.CreatedByEmail, steps))
	return nil
}

// projectRuns is GET /api/codehost/projects/{id}/runs (admin): the
// repository's recent Actions runs, newest first; none before the
// repository exists.
func (s *Server) projectRuns(w http.ResponseWriter, r *http.Request) error {
	h, err := s.needCodeHost()
	if err != nil {
		return err
	}
	p, err := s.loadProject(r)
	if err != nil {
		return err
	}
	runs := []codehost.Run{}
	if p.RepositoryUrl != nil {
		got, err := h.RecentRuns(r.Context(), p.Name, recentRunsShown)
		if err != nil && !errors.Is(err, codehost.ErrNotFound) {
			return s.codeHostFailed(r, err)
		}
		runs = append(runs, got...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": runs})
	return nil
}
