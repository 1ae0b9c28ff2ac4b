package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
	"hackdesk/workflows"
)

// The states of a term's finalization as the hiring page follows it.
const (
	finalizationNone      = "none"
	finalizationRunning   = "running"
	finalizationCompleted = "completed"
	finalizationFailed    = "failed"
)

// finalizationSteps names the workflow's steps (its progress query's
// Step) in the API, in the order they run.
var finalizationSteps = map[string]string{
	workflows.HiringStepLoad:    "load",
	workflows.HiringStepPromote: "promote",
	workflows.HiringStepDemote:  "demote",
	workflows.HiringStepWelcome: "welcome",
	workflows.HiringStepRecord:  "record",
	workflows.HiringStepDone:    "done",
}

// finalizationProgress is where a finalization is: its step (null before
// the run has started, or when the run could not tell) and its counts.
// Once it has completed the counts are its result: hires and promoted the
// new execs, previous the execs demoted, welcomed the emails sent.
type finalizationProgress struct {
	Step     *string `json:"step"`
	Hires    int     `json:"hires"`
	Promoted int     `json:"promoted"`
	Previous int     `json:"previous"`
	Welcomed int     `json:"welcomed"`
}

// finalizationView is the answer of GET /api/applications/hiring/finalization.
type finalizationView struct {
	WorkflowID *string               `json:"workflow_id"`
	Status     string                `json:"status"`
	Progress   *finalizationProgress `json:"progress"`
	RunURL     *string               `json:"run_url"`
}

// temporalWait bounds each call to Temporal the finalization's status
// makes, so an unreachable server answers 503 rather than hanging.
const temporalWait = 5 * time.Second

// errTemporalDown is the 503 of a Temporal server that did not answer.
var errTemporalDown = apperr.WithMessage(apperr.Unavailable, "Service unavailable",
	"Temporal did not answer; try again shortly")

// hiringFinalization is GET /api/applications/hiring/finalization?term_id=
// (President): the term's HiringFinalization run, none before the term is
// finalized. A finalization claimed but not started yet (still in the
// outbox) is running with empty progress; a running one answers its
// progress query, a completed one its result.
func (s *Server) hiringFinalization(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := hiring.TermOf(ctx, s.store.Queries, r.URL.Query().Get("term_id"))
	if err != nil {
		return err
	}
	f, err := s.store.Queries.HiringFinalizationGet(ctx, t.ID)
	if errors.Is(err, db.ErrNotFound) {
		writeJSON(w, http.StatusOK, finalizationView{Status: finalizationNone})
		return nil
	}
	if err != nil {
		return err
	}
	out, err := s.finalizationRun(ctx, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// finalizationRun reads a claimed finalization's run from Temporal.
func (s *Server) finalizationRun(ctx context.Context, f db.HiringFinalization) (finalizationView, error) {
	id := f.WorkflowID
	out := finalizationView{WorkflowID: &id, Status: finalizationRunning, Progress: &finalizationProgress{}}
	if s.temporal == nil {
		return out, errTemporalDown
	}
	dctx, cancel := context.WithTimeout(ctx, temporalWait)
	defer cancel()
	desc, err := s.temporal.DescribeWorkflowExecution(dctx, id, "")
	var missing *serviceerror.NotFound
	switch {
	case errors.As(err, &missing) && f.FinalizedAt != nil:
		// Recorded, and its history is gone (retention): the row keeps
		// the result.
		out.Status, out.Progress = finalizationCompleted, recordedResult(f)
		out.RunURL = s.runLink(id, "")
		return out, nil
	case errors.As(err, &missing):
		// Queued in the outbox, not started yet.
		out.RunURL = s.runLink(id, "")
		return out, nil
	case err != nil:
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		loggerFrom(ctx).WarnContext(ctx, "temporal unavailable", "workflow_id", id, "err", err)
		return out, errTemporalDown
	}
	info := desc.GetWorkflowExecutionInfo()
	runID := info.GetExecution().GetRunId()
	out.RunURL = s.runLink(id, runID)
	switch info.GetStatus() {
	case enums.WORKFLOW_EXECUTION_STATUS_RUNNING, enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		out.Progress = s.queryFinalization(ctx, id, runID)
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		out.Status = finalizationCompleted
		var res workflows.HiringFinalizationResult
		gctx, cancel := context.WithTimeout(ctx, temporalWait)
		defer cancel()
		if err := s.temporal.GetWorkflow(gctx, id, runID).Get(gctx, &res); err != nil {
			if f.FinalizedAt == nil {
				loggerFrom(ctx).WarnContext(ctx, "finalization result unreadable", "workflow_id", id, "err", err)
				return out, errTemporalDown
			}
			out.Progress = recordedResult(f)
			return out, nil
		}
		done := finalizationSteps[workflows.HiringStepDone]
		out.Progress = &finalizationProgress{Step: &done, Hires: res.Promoted, Promoted: res.Promoted,
			Previous: res.Demoted, Welcomed: res.Welcomed}
	default: // failed, terminated, timed out or cancelled: where it stopped
		out.Status = finalizationFailed
		out.Progress = s.queryFinalization(ctx, id, runID)
	}
	return out, nil
}

// queryFinalization asks a run for its progress. The query needs a worker:
// without an answer in time the progress is empty (the page asks again),
// which is not a reason to fail the request.
func (s *Server) queryFinalization(ctx context.Context, id, runID string) *finalizationProgress {
	qctx, cancel := context.WithTimeout(ctx, temporalWait)
	defer cancel()
	v, err := s.temporal.QueryWorkflow(qctx, id, runID, workflows.ProgressQuery)
	var p workflows.HiringProgress
	if err == nil {
		err = v.Get(&p)
	}
	if err != nil {
		loggerFrom(ctx).WarnContext(ctx, "finalization progress unreadable", "workflow_id", id, "err", err)
		return &finalizationProgress{}
	}
	out := &finalizationProgress{Hires: p.Hires, Promoted: p.Promoted, Previous: p.Previous, Welcomed: p.Welcomed}
	if step, ok := finalizationSteps[p.Step]; ok {
		out.Step = &step
	}
	return out
}

// recordedResult is the result a finalization recorded on its row.
func recordedResult(f db.HiringFinalization) *finalizationProgress {
	n := func(v *int32) int {
		if v == nil {
			return 0
		}
		return int(*v)
	}
	done := finalizationSteps[workflows.HiringStepDone]
	return &finalizationProgress{Step: &done, Hires: n(f.Promoted), Promoted: n(f.Promoted), Previous: n(f.Demoted), Welcomed: n(f.Welcomed)}
}

// runLink is the Temporal UI's page of a run (config.RunURL), or nil when
// no UI is configured.
func (s *Server) runLink(workflowID, runID string) *string {
	if u := s.cfg.RunURL(workflowID, runID); u != "" {
		return &u
	}
	return nil
}
