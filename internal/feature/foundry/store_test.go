package foundry_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/foundry"
	"hackdesk/internal/platform/apperr"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// newStore is a fresh database with one admin, who launches.
func newStore(t *testing.T) (*db.Store, uuid.UUID) {
	t.Helper()
	store := testenv.Store(t)
	var admin uuid.UUID
	if err := store.Pool().QueryRow(context.Background(), `INSERT INTO profiles (email, password_hash, role, email_confirmed_at)
		VALUES ('admin@example.com', '$argon2id$x', 'admin', now()) RETURNING id`).Scan(&admin); err != nil {
		t.Fatal(err)
	}
	return store, admin
}

// launch records a launch of name in a transaction of its own.
func launch(t *testing.T, store *db.Store, admin uuid.UUID, name string) (db.FoundryProject, error) {
	t.Helper()
	id := uuid.New()
	req := foundry.LaunchRequest{Name: name, Description: "d", ProjectType: "nextjs", Database: "postgresql", TeamSlug: "platform"}
	var p db.FoundryProject
	err := store.InTx(context.Background(), func(q *db.Queries) (err error) {
		p, err = foundry.Record(context.Background(), q, foundry.Launch{ID: id, WorkflowID: "foundry:" + id.String(), CreatedBy: admin, Request: req})
		return err
	})
	return p, err
}

// TestRecordLaunch: a launch is one project, running, with its four steps
// pending in order; a live project's name is not launched twice, and a
// failed one's is free again.
func TestRecordLaunch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, admin := newStore(t)
	p, err := launch(t, store, admin, "web")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != foundry.Running || !p.Private || p.Redis || p.S3 || p.WorkflowID != "foundry:"+p.ID.String() || p.CreatedBy != admin {
		t.Fatalf("project %+v", p)
	}
	got, err := foundry.Get(ctx, store.Queries, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "web" || got.CreatedBy != "admin@example.com" || got.Options.ProjectType != "nextjs" || !got.Options.Private || len(got.Steps) != 4 {
		t.Fatalf("view %+v", got)
	}
	for i, st := range got.Steps {
		if st.Name != foundry.Steps[i] || st.Status != foundry.Pending || st.StartedAt != nil {
			t.Errorf("step %d = %+v, want %s pending", i, st, foundry.Steps[i])
		}
	}

	// The same name, in any case, while the first is running: 409, and
	// nothing recorded.
	_, err = launch(t, store, admin, "WEB")
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Conflict || e.Title != "Name taken" {
		t.Fatalf("second launch of the name: %v", err)
	}
	var projects, steps int
	if err := store.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM foundry_projects), (SELECT count(*) FROM foundry_steps)`).Scan(&projects, &steps); err != nil {
		t.Fatal(err)
	}
	if projects != 1 || steps != 4 {
		t.Fatalf("%d projects and %d steps after a refused launch, want 1 and 4", projects, steps)
	}

	// Once the first has failed, the name may be launched again.
	if err := store.InTx(ctx, func(q *db.Queries) error {
		return foundry.RecordStep(ctx, q, foundry.StepUpdate{ProjectID: p.ID, Step: foundry.StepCreateRepository, Status: foundry.Failed, Project: foundry.Failed})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := launch(t, store, admin, "web"); err != nil {
		t.Fatalf("launch after a failure: %v", err)
	}
}

func TestListAndFind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, admin := newStore(t)
	var ids []uuid.UUID
	for _, name := range []string{"one", "two", "three"} {
		p, err := launch(t, store, admin, name)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	page, total, err := foundry.List(ctx, store.Queries, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if total != 3 || len(page) != 2 || page[0].ID != ids[2] || page[1].ID != ids[1] {
		t.Fatalf("first page %+v of %d, want three then two of 3", page, total)
	}
	for _, p := range page {
		if len(p.Steps) != 4 || p.Steps[0].Name != foundry.StepCreateRepository {
			t.Errorf("%s has steps %+v", p.Name, p.Steps)
		}
	}
	if page, _, err := foundry.List(ctx, store.Queries, 2, 2); err != nil || len(page) != 1 || page[0].ID != ids[0] {
		t.Fatalf("second page %+v %v", page, err)
	}
	if empty, total, err := foundry.List(ctx, store.Queries, 2, 4); err != nil || len(empty) != 0 || total != 3 {
		t.Fatalf("past the end: %+v %d %v", empty, total, err)
	}

	if r, err := foundry.Find(ctx, store.Queries, ids[1]); err != nil || r.Name != "two" {
		t.Fatalf("Find = %+v %v", r, err)
	}
	if _, err := foundry.Find(ctx, store.Queries, uuid.New()); !errors.Is(err, foundry.ErrProjectNotFound) {
		t.Fatalf("Find of no project = %v", err)
	}
	if _, err := foundry.Get(ctx, store.Queries, uuid.New()); !errors.Is(err, foundry.ErrProjectNotFound) {
		t.Fatalf("Get of no project = %v", err)
	}
}

// TestRecordStep: updates are conditional, so a repeated or late update
// leaves an ended step and project as they are.
func TestRecordStep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, admin := newStore(t)
	p, err := launch(t, store, admin, "web")
	if err != nil {
		t.Fatal(err)
	}
	rec := func(u foundry.StepUpdate) error {
		u.ProjectID = p.ID
		return store.InTx(ctx, func(q *db.Queries) error { return foundry.RecordStep(ctx, q, u) })
	}
	for _, u := range []foundry.StepUpdate{
		{Step: "create_repository", Status: "running"},
		{Step: "create_repository", Status: "failed", Detail: "taken", Project: "failed"},
		{Step: "create_repository", Status: "succeeded", Detail: "late", Project: "succeeded"},
		{Step: "create_repository", Status: "running", Detail: "again"},
	} {
		if err := rec(u); err != nil {
			t.Fatal(err)
		}
	}
	steps, err := store.FoundryStepsList(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := steps[0]; s.Name != "create_repository" || s.Status != "failed" || s.Detail != "taken" || s.StartedAt == nil || s.FinishedAt == nil {
		t.Fatalf("step = %+v", s)
	}
	if steps[1].Status != "pending" {
		t.Fatalf("grant_team = %+v", steps[1])
	}
	got, _ := store.FoundryProjectGet(ctx, p.ID)
	if got.Status != "failed" {
		t.Fatalf("project status = %s", got.Status)
	}

	// Links are recorded on the project; an unknown status is refused.
	if err := rec(foundry.StepUpdate{Step: "grant_team", Status: "running", RepositoryURL: "https://gh.test/org/web"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := store.FoundryProjectGet(ctx, p.ID); got.RepositoryUrl == nil || *got.RepositoryUrl != "https://gh.test/org/web" || got.RunUrl != nil {
		t.Fatalf("urls %v %v", got.RepositoryUrl, got.RunUrl)
	}
	var f *foundry.Failure
	if err := rec(foundry.StepUpdate{Step: "grant_team", Status: "paused"}); !errors.As(err, &f) || !errors.Is(err, foundry.ErrBadInput) {
		t.Fatalf("unknown status: %v", err)
	}
}
