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
	f, claimed, err := hiring.FinalizationOf(ctx, s.store.Queries, r.URL.Query().Get("term_id"))
	if err != nil {
		return err
	}
	if !claimed {
		writeJSON(w, http.StatusOK, hiring.FinalizationView{Status: hiring.FinalizationNone})
		return nil
	}
	out, err := s.finalizationRun(ctx, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// finalizationRun reads a claimed finalization's run from Temporal.
func (s *Server) finalizationRun(ctx context.Context, f db.HiringFinalization) (hiring.FinalizationView, error) {
	id := f.WorkflowID
	out := hiring.FinalizationView{WorkflowID: &id, Status: hiring.FinalizationRunning, Progress: &hiring.FinalizationProgress{}}
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
		out.Status, out.Progress = hiring.FinalizationCompleted, hiring.RecordedView(f)
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
		out.Status = hiring.FinalizationCompleted
		var res workflows.HiringFinalizationResult
		gctx, cancel := context.WithTimeout(ctx, temporalWait)
		defer cancel()
		if err := s.temporal.GetWorkflow(gctx, id, runID).Get(gctx, &res); err != nil {
			if f.FinalizedAt == nil {
				loggerFrom(ctx).WarnContext(ctx, "finalization result unreadable", "workflow_id", id, "err", err)
				return out, errTemporalDown
			}
			out.Progress = hiring.RecordedView(f)
			return out, nil
		}
		out.Progress = res.View()
	default: // failed, terminated, timed out or cancelled: where it stopped
		out.Status = hiring.FinalizationFailed
		out.Progress = s.queryFinalization(ctx, id, runID)
	}
	return out, nil
}

// queryFinalization asks a run for its progress. The query needs a worker:
// without an answer in time the progress is empty (the page asks again),
// which is not a reason to fail the request.
func (s *Server) queryFinalization(ctx context.Context, id, runID string) *hiring.FinalizationProgress {
	qctx, cancel := context.WithTimeout(ctx, temporalWait)
	defer cancel()
	v, err := s.temporal.QueryWorkflow(qctx, id, runID, workflows.ProgressQuery)
	var p workflows.HiringProgress
	if err == nil {
		err = v.Get(&p)
	}
	if err != nil {
		loggerFrom(ctx).WarnContext(ctx, "finalization progress unreadable", "workflow_id", id, "err", err)
		return &hiring.FinalizationProgress{}
	}
	return p.View()
}

// runLink is the Temporal UI's page of a run (config.RunURL), or nil when
// no UI is configured.
func (s *Server) runLink(workflowID, runID string) *string {
	if u := s.cfg.RunURL(workflowID, runID); u != "" {
		return &u
	}
	return nil
}
