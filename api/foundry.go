package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/foundry"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/codehost"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

var errNoCodeHost = apperr.New(apperr.Unavailable, "Code host not configured")

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
	return codehostList(s, w, r, "teams", (*codehost.Client).Teams)
}

// codehostTemplates is GET /api/codehost/templates (admin).
func (s *Server) codehostTemplates(w http.ResponseWriter, r *http.Request) error {
	return codehostList(s, w, r, "templates", (*codehost.Client).Templates)
}

// codehostList answers a list that the code host reads: {key: [...]},
// never null.
func codehostList[T any](s *Server, w http.ResponseWriter, r *http.Request, key string,
	read func(*codehost.Client, context.Context) ([]T, error)) error {
	h, err := s.needCodeHost()
	if err != nil {
		return err
	}
	items, err := read(h, r.Context())
	if err != nil {
		return s.codeHostFailed(r, err)
	}
	if items == nil {
		items = []T{}
	}
	writeJSON(w, http.StatusOK, map[string]any{key: items})
	return nil
}

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
	var req foundry.LaunchRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	teams, err := h.Teams(ctx)
	if err != nil {
		return s.codeHostFailed(r, err)
	}
	if err := foundry.CheckTeam(teams, req.TeamSlug); err != nil {
		return err
	}
	id := uuid.New()
	launch := foundry.Launch{ID: id, WorkflowID: workflows.FoundryLaunchID(id), CreatedBy: principalFrom(ctx).ProfileID, Request: req}
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		p, err := foundry.Record(ctx, q, launch)
		if err != nil {
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
	writeJSON(w, http.StatusAccepted, map[string]any{"project_id": id, "workflow_id": launch.WorkflowID})
	return nil
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
		out   []foundry.Project
		total int64
	)
	err := s.store.InSnapshot(ctx, func(q *db.Queries) (err error) {
		out, total, err = foundry.List(ctx, q, pg.Size, pg.offset())
		return err
	})
	if err != nil {
		return err
	}
	writeList(w, "projects", out, total, pg)
	return nil
}

// projectID reads the {id} path parameter; a malformed one names no
// project.
func projectID(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return uuid.Nil, foundry.ErrProjectNotFound
	}
	return id, nil
}

// getProject is GET /api/codehost/projects/{id} (admin): one project with
// the status of each step.
func (s *Server) getProject(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.needCodeHost(); err != nil {
		return err
	}
	id, err := projectID(r)
	if err != nil {
		return err
	}
	p, err := foundry.Get(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, p)
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
	id, err := projectID(r)
	if err != nil {
		return err
	}
	p, err := foundry.Find(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	runs, err := foundry.RecentRuns(r.Context(), h, p)
	if err != nil {
		return s.codeHostFailed(r, err)
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": runs})
	return nil
}
