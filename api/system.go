package api

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"
	"go.temporal.io/sdk/converter"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/runs"
	"hackdesk/internal/platform/schedules"
)

// The windows of the operator's page.
const (
	systemWindow   = time.Hour
	failedRunsDays = 7
	failedRunsMax  = 50
)

type httpWindow struct {
	WindowSeconds int     `json:"window_seconds"`
	Requests      int64   `json:"requests"`
	Errors        int64   `json:"errors"`
	ErrorRate     float64 `json:"error_rate"`
}

type kindCount struct {
	Kind  string `json:"kind"`
	Count int64  `json:"count"`
}

type workflowFailures struct {
	WindowSeconds int         `json:"window_seconds"`
	ByKind        []kindCount `json:"by_kind"`
}

// adminSystem is GET /api/admin/system (superadmin): readiness as /readyz
// computes it, the outbox's backlog, the last hour's requests and 5xx
// answers of this process, and the last hour's failed runs by kind
// (null when Temporal did not answer).
func (s *Server) adminSystem(w http.ResponseWriter, r *http.Request) error {
	now := time.Now()
	rd := s.checkReadiness(r.Context())
	reqs, errs := s.window.Sum(now)
	hw := httpWindow{WindowSeconds: int(systemWindow.Seconds()), Requests: reqs, Errors: errs}
	if reqs > 0 {
		hw.ErrorRate = math.Round(float64(errs)/float64(reqs)*10000) / 10000
	}
	var failures *workflowFailures
	if s.temporal != nil && rd.Checks["temporal"] == "ok" {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if counts, err := runs.CountFailed(ctx, s.temporal, now.Add(-systemWindow)); err != nil {
			s.log.WarnContext(ctx, "system: counting failed runs", "err", err)
		} else {
			failures = &workflowFailures{WindowSeconds: int(systemWindow.Seconds()), ByKind: []kindCount{}}
			for _, k := range runs.Kinds {
				failures.ByKind = append(failures.ByKind, kindCount{Kind: string(k), Count: counts[k]})
			}
		}
	}
	status := "ready"
	if !rd.Ready {
		status = "unavailable"
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"as_of": now.UTC(), "status": status, "checks": rd.Checks, "outbox": rd.Outbox,
		"http": hw, "workflow_failures": failures,
	})
	return nil
}

type failedRun struct {
	WorkflowID string    `json:"workflow_id"`
	RunID      string    `json:"run_id"`
	Type       string    `json:"type"`
	Kind       string    `json:"kind"`
	Status     string    `json:"status"`
	ClosedAt   time.Time `json:"closed_at"`
	Retryable  bool      `json:"retryable"`
	RunURL     *string   `json:"run_url"`
}

// adminWorkflows is GET /api/admin/workflows?status=failed (superadmin):
// the runs of the last seven days that failed or timed out, newest first.
func (s *Server) adminWorkflows(w http.ResponseWriter, r *http.Request) error {
	if st := r.URL.Query().Get("status"); st != "failed" {
		return apperr.ValidationFailed(map[string]string{"status": "must be failed"})
	}
	if s.temporal == nil {
		return errTemporalDown
	}
	ctx := r.Context()
	since := time.Now().AddDate(0, 0, -failedRunsDays)
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	list, err := runs.ListFailed(tctx, s.temporal, since, failedRunsMax)
	cancel()
	if err != nil {
		s.log.WarnContext(ctx, "system: listing failed runs", "err", err)
		return errTemporalDown
	}
	var listed []runs.Listed
	if err := s.store.InSnapshot(ctx, func(q *db.Queries) (err error) {
		listed, err = runs.Annotate(ctx, q, list)
		return err
	}); err != nil {
		return err
	}
	out := make([]failedRun, 0, len(listed))
	for _, l := range listed {
		f := failedRun{WorkflowID: l.WorkflowID, RunID: l.RunID, Type: l.Type, Kind: l.Kind,
			Status: string(l.Status), ClosedAt: l.ClosedAt.UTC(), Retryable: l.Retryable}
		if u := s.cfg.RunURL(l.WorkflowID, l.RunID); u != "" {
			f.RunURL = &u
		}
		out = append(out, f)
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": out, "since": since.UTC()})
	return nil
}

// retryWorkflow is POST /api/admin/workflows/{workflow_id}/retry
// (superadmin): queues one more start of a failed or timed-out run
// (runs.Retry) and answers 202 with its retry number.
func (s *Server) retryWorkflow(w http.ResponseWriter, r *http.Request) error {
	id, err := url.PathUnescape(chi.URLParam(r, "workflow_id"))
	if err != nil || id == "" {
		return apperr.New(apperr.NotFound, "Not found")
	}
	if s.temporal == nil {
		return errTemporalDown
	}
	ctx := r.Context()
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	st, err := runs.LatestStatus(tctx, s.temporal, id)
	cancel()
	if err != nil {
		s.log.WarnContext(ctx, "system: describing a workflow", "err", err)
		return errTemporalDown
	}
	var retry int
	if err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		retry, err = runs.Retry(ctx, q, id, st)
		return err
	}); err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"workflow_id": id, "retry": retry})
	return nil
}

// stuckRunsTimeout bounds looking through the running runs.
const stuckRunsTimeout = 10 * time.Second

type stuckProblem struct {
	Reason        string     `json:"reason"`
	ActivityType  *string    `json:"activity_type"`
	Attempt       int32      `json:"attempt"`
	LastError     *string    `json:"last_error"`
	LastFailedAt  *time.Time `json:"last_failed_at"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
}

type stuckRun struct {
	WorkflowID string         `json:"workflow_id"`
	RunID      string         `json:"run_id"`
	Type       string         `json:"type"`
	Kind       string         `json:"kind"`
	StartedAt  time.Time      `json:"started_at"`
	Problems   []stuckProblem `json:"problems"`
	RunURL     *string        `json:"run_url"`
}

// adminStuckWorkflows is GET /api/admin/workflows/stuck (superadmin): the
// running runs that are not moving, oldest first: a workflow task that
// keeps failing, or an activity past its third attempt, each with its last
// error (runs.ListStuck).
func (s *Server) adminStuckWorkflows(w http.ResponseWriter, r *http.Request) error {
	if s.temporal == nil {
		return errTemporalDown
	}
	ctx := r.Context()
	now := time.Now()
	tctx, cancel := context.WithTimeout(ctx, stuckRunsTimeout)
	rep, err := runs.ListStuck(tctx, s.temporal, s.dataConverter(), s.cfg.TemporalNamespace, s.cfg.TaskQueue)
	cancel()
	if err != nil {
		s.log.WarnContext(ctx, "system: listing stuck runs", "err", err)
		return errTemporalDown
	}
	out := make([]stuckRun, 0, len(rep.Runs))
	for _, run := range rep.Runs {
		sr := stuckRun{WorkflowID: run.WorkflowID, RunID: run.RunID, Type: run.Type, Kind: run.Kind,
			StartedAt: run.StartedAt.UTC(), Problems: make([]stuckProblem, 0, len(run.Problems))}
		if u := s.cfg.RunURL(run.WorkflowID, run.RunID); u != "" {
			sr.RunURL = &u
		}
		for _, p := range run.Problems {
			sp := stuckProblem{Reason: p.Reason, Attempt: p.Attempt, ActivityType: nonEmpty(p.ActivityType),
				LastError: nonEmpty(p.LastError), LastFailedAt: nonZero(p.LastFailedAt), NextAttemptAt: nonZero(p.NextAttemptAt)}
			sr.Problems = append(sr.Problems, sp)
		}
		out = append(out, sr)
	}
	writeJSON(w, http.StatusOK, map[string]any{"as_of": now.UTC(), "runs": out, "scanned": rep.Scanned, "truncated": rep.Truncated})
	return nil
}

// dataConverter is the Temporal client's data converter: JSON through the
// payload codec (the SDK's default without one).
func (s *Server) dataConverter() converter.DataConverter {
	if s.payloadCodec == nil {
		return converter.GetDefaultDataConverter()
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), s.payloadCodec)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonZero(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

type scheduleRun struct {
	WorkflowID  string    `json:"workflow_id"`
	RunID       string    `json:"run_id"`
	ScheduledAt time.Time `json:"scheduled_at"`
	StartedAt   time.Time `json:"started_at"`
	Status      string    `json:"status"`
	RunURL      *string   `json:"run_url"`
}

type scheduleState struct {
	ID           string       `json:"id"`
	WorkflowType string       `json:"workflow_type"`
	EverySeconds int64        `json:"every_seconds"`
	State        string       `json:"state"`
	Note         *string      `json:"note"`
	LastRun      *scheduleRun `json:"last_run"`
	NextRunAt    *time.Time   `json:"next_run_at"`
}

// adminSchedules is GET /api/admin/schedules (superadmin): each of
// hackdesk's Temporal Schedules of this task queue, active, paused (with
// its note) or missing (no worker has created it), its interval, its last
// run (and how that run is doing) and its next.
func (s *Server) adminSchedules(w http.ResponseWriter, r *http.Request) error {
	if s.temporal == nil {
		return errTemporalDown
	}
	ctx := r.Context()
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	states, err := schedules.States(tctx, s.temporal, schedules.All(s.cfg.TaskQueue))
	if err != nil {
		s.log.WarnContext(ctx, "system: describing schedules", "err", err)
		return errTemporalDown
	}
	out := make([]scheduleState, 0, len(states))
	for _, st := range states {
		ss := scheduleState{ID: st.ID, WorkflowType: st.Workflow, EverySeconds: int64(st.Every.Seconds()),
			State: "active", Note: nonEmpty(st.Note), NextRunAt: nonZero(st.NextRunAt)}
		switch {
		case !st.Exists:
			ss.State = "missing"
		case st.Paused:
			ss.State = "paused"
		}
		if lr := st.LastRun; lr != nil {
			run := &scheduleRun{WorkflowID: lr.WorkflowID, RunID: lr.RunID, ScheduledAt: lr.ScheduledAt.UTC(),
				StartedAt: lr.StartedAt.UTC(), Status: string(runs.Unknown)}
			if d, err := s.temporal.DescribeWorkflowExecution(tctx, lr.WorkflowID, lr.RunID); err == nil {
				run.Status = string(runs.StatusOf(d.GetWorkflowExecutionInfo().GetStatus()))
			}
			if u := s.cfg.RunURL(lr.WorkflowID, lr.RunID); u != "" {
				run.RunURL = &u
			}
			ss.LastRun = run
		}
		out = append(out, ss)
	}
	writeJSON(w, http.StatusOK, map[string]any{"schedules": out})
	return nil
}

// cancelWorkflow is POST /api/admin/workflows/{workflow_id}/cancel
// (superadmin): asks Temporal to cancel the running run of a hackdesk
// workflow (runs.Cancel) and answers 202 with its run id; the run ends
// cancelled once the workflow has handled it.
func (s *Server) cancelWorkflow(w http.ResponseWriter, r *http.Request) error {
	id, err := url.PathUnescape(chi.URLParam(r, "workflow_id"))
	if err != nil || id == "" {
		return apperr.New(apperr.NotFound, "Not found")
	}
	if s.temporal == nil {
		return errTemporalDown
	}
	ctx := r.Context()
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	runID, err := runs.Cancel(tctx, s.temporal, id)
	cancel()
	if _, ok := apperr.As(err); err != nil && !ok {
		s.log.WarnContext(ctx, "system: cancelling a run", "err", err)
		return errTemporalDown
	}
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "system: run cancel requested", "workflow_id", id, "run_id", runID)
	writeJSON(w, http.StatusAccepted, map[string]any{"workflow_id": id, "run_id": runID})
	return nil
}
