package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
)

// temporalWait bounds each call to Temporal the finalization's status
// makes, so an unreachable server answers 503 rather than hanging.
const temporalWait = 5 * time.Second

// errTemporalDown is the 503 of a Temporal server that did not answer.
var errTemporalDown = apperr.WithMessage(apperr.Unavailable, "Service unavailable",
	"Temporal did not answer; try again shortly")

// hiringFinalization is GET /api/applications/hiring/finalization?term_id=
// (President): the term's finalization (finalizationView), none before
// the term is finalized.
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
	out, err := s.finalizationView(ctx, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// errFinalizationHidden refuses a term's finalization to a caller who
// neither requested it nor is a President.
var errFinalizationHidden = apperr.WithMessage(apperr.Forbidden, "Forbidden",
	"Only the person who finalized the term or a President can follow its finalization")

// termFinalization is GET /api/hiring-finalizations/{term_id}
// (authenticated): the term's finalization for whoever requested it, or a
// President. It sits outside the President-only routes because the run
// it describes may end its requester's President role; a President
// asking of a term never finalized gets none, anyone else 403.
func (s *Server) termFinalization(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p := principalFrom(ctx)
	termID, err := uuid.Parse(chi.URLParam(r, "term_id"))
	if err != nil {
		return apperr.ValidationFailed(apperr.Fields{"term_id": "must be a UUID"})
	}
	f, claimed, err := hiring.FinalizationOf(ctx, s.store.Queries, termID.String())
	if err != nil {
		return err
	}
	president := p.Allows(President)
	switch {
	case !claimed && president:
		writeJSON(w, http.StatusOK, hiring.FinalizationView{Status: hiring.FinalizationNone})
		return nil
	case !claimed, !president && (f.RequestedBy == nil || *f.RequestedBy != p.ProfileID):
		return errFinalizationHidden
	}
	out, err := s.finalizationView(ctx, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// finalizationView is a claimed finalization as the hiring page follows
// it, read from its row: a recorded one is completed with its result and
// needs no Temporal; otherwise the row holds the step its run marked and
// the counts so far, and the run's status (one describe call, which reads
// no history) tells running from failed. A finalization still in the
// outbox is running with no step.
func (s *Server) finalizationView(ctx context.Context, f db.HiringFinalization) (hiring.FinalizationView, error) {
	id := f.WorkflowID
	out := hiring.FinalizationView{WorkflowID: &id, Status: hiring.FinalizationRunning, Progress: hiring.StoredView(f)}
	if f.FinalizedAt != nil {
		out.Status = hiring.FinalizationCompleted
		runID := ""
		if f.RunID != nil {
			runID = *f.RunID
		}
		out.RunURL = s.runLink(id, runID)
		return out, nil
	}
	if s.temporal == nil {
		return out, errTemporalDown
	}
	dctx, cancel := context.WithTimeout(ctx, temporalWait)
	defer cancel()
	desc, err := s.temporal.DescribeWorkflowExecution(dctx, id, "")
	var missing *serviceerror.NotFound
	switch {
	case errors.As(err, &missing): // queued in the outbox, not started yet
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
	out.RunURL = s.runLink(id, info.GetExecution().GetRunId())
	switch info.GetStatus() {
	case enums.WORKFLOW_EXECUTION_STATUS_RUNNING, enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		// Completed after its row was read: read it again.
		if again, err := s.store.HiringFinalizationGet(ctx, f.TermID); err == nil && again.FinalizedAt != nil {
			return s.finalizationView(ctx, again)
		}
	default: // failed, terminated, timed out or cancelled: where it stopped
		out.Status = hiring.FinalizationFailed
	}
	return out, nil
}

// runLink is the Temporal UI's page of a run (config.RunURL), or nil when
// no UI is configured.
func (s *Server) runLink(workflowID, runID string) *string {
	if u := s.cfg.RunURL(workflowID, runID); u != "" {
		return &u
	}
	return nil
}
