package foundry

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"hackdesk/db"
)

// The steps of a launch, in order, as recorded on the project
// (FoundryStepsInit makes them, pending).
const (
	StepCreateRepository = "create_repository"
	StepGrantTeam        = "grant_team"
	StepDispatchSetup    = "dispatch_setup"
	StepSetupRun         = "setup_run"
)

// Steps lists the steps in order.
var Steps = []string{StepCreateRepository, StepGrantTeam, StepDispatchSetup, StepSetupRun}

// The statuses of a step and of a project (a project is running until it
// succeeds or fails; a step is pending until it starts).
const (
	Pending   = "pending"
	Running   = "running"
	Succeeded = "succeeded"
	Failed    = "failed"
)

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

// RecordStep writes a step update in the transaction behind q. Updates are
// conditional (an ended step or project keeps its outcome), so a repeat
// changes nothing. A status other than running, succeeded or failed is
// an ErrBadInput Failure.
func RecordStep(ctx context.Context, q *db.Queries, u StepUpdate) error {
	var err error
	switch u.Status {
	case Running:
		err = q.FoundryStepStart(ctx, db.FoundryStepStartParams{ProjectID: u.ProjectID, Name: u.Step, Detail: u.Detail})
	case Succeeded, Failed:
		err = q.FoundryStepFinish(ctx, db.FoundryStepFinishParams{ProjectID: u.ProjectID, Name: u.Step, Status: u.Status, Detail: u.Detail})
	default:
		return fail(ErrBadInput, "unknown step status %q", u.Status)
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
}

// recordStep writes a step update in a transaction of its own.
func recordStep(ctx context.Context, s *db.Store, u StepUpdate) error {
	return s.InTx(ctx, func(q *db.Queries) error { return RecordStep(ctx, q, u) })
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Failure is a step's permanent failure: an answer of the code host that
// no retry changes. Kind is one of the Err values below; the message is
// the step's detail.
type Failure struct {
	Kind   error
	Detail string
}

func (f *Failure) Error() string { return f.Detail }
func (f *Failure) Unwrap() error { return f.Kind }

// The kinds of Failure.
var (
	ErrNameTaken        = errors.New("repository name taken")
	ErrTemplateNotFound = errors.New("template repository not found")
	ErrTeamNotFound     = errors.New("team not found")
	ErrSetupNotFound    = errors.New("setup workflow not found")
	ErrRejected         = errors.New("refused by the code host")
	ErrRunNotFound      = errors.New("setup run not found")
	ErrBadInput         = errors.New("bad input")
)

func fail(kind error, format string, args ...any) error {
	return &Failure{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}
