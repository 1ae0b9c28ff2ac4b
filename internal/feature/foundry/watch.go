package foundry

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/codehost"
)

// WatchInput names the dispatched setup run to follow.
type WatchInput struct {
	ProjectID     uuid.UUID
	Repo          string
	CorrelationID string
	// PollInterval is the time between reads of the run (default 5 s).
	PollInterval time.Duration
	// FindTimeout is how long to look for the dispatched run before
	// failing with ErrRunNotFound (default 5 minutes).
	FindTimeout time.Duration
}

// RunProgress is how far a watch got: the run once found, so a watch
// resumed from it does not look again.
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
// its name), records its link on the setup_run step, and polls it until it
// completes, recording each change of its status. It starts from p (the
// zero RunProgress: look for the run) and reports its progress to beat
// after each poll (Temporal's heartbeat).
func WatchSetupRun(ctx context.Context, h *codehost.Client, s *db.Store, in WatchInput, p RunProgress, beat func(RunProgress)) (RunOutcome, error) {
	poll, findFor := in.PollInterval, in.FindTimeout
	if poll <= 0 {
		poll = 5 * time.Second
	}
	if findFor <= 0 {
		findFor = 5 * time.Minute
	}
	running := func(detail, runURL string) error {
		return recordStep(ctx, s, StepUpdate{ProjectID: in.ProjectID, Step: StepSetupRun, Status: Running, Detail: detail, RunURL: runURL})
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
				if err := running("run "+run.Status, run.URL); err != nil {
					return RunOutcome{}, err
				}
				p.Status = run.Status
			} else if time.Since(lookingSince) > findFor {
				return RunOutcome{}, fail(ErrRunNotFound, "the setup run did not appear within %s of the dispatch", findFor)
			}
		} else {
			run, err := h.Run(ctx, in.Repo, p.RunID)
			if errors.Is(err, codehost.ErrNotFound) {
				return RunOutcome{}, fail(ErrRunNotFound, "setup run %d not found", p.RunID)
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
				if err := running("run "+run.Status, ""); err != nil {
					return RunOutcome{}, err
				}
			}
		}
		beat(p)
		t := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return RunOutcome{}, ctx.Err()
		case <-t.C:
		}
	}
}
