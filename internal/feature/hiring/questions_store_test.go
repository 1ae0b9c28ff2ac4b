package hiring_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
)

func questionInput(prompt string, required bool, positions ...uuid.UUID) *hiring.QuestionInput {
	in := &hiring.QuestionInput{Create: true}
	in.Prompt.Set, in.Prompt.V = true, prompt
	in.Type.Set, in.Type.V = true, "text"
	in.Required.Set, in.Required.V = true, required
	if positions != nil {
		in.PositionIDs.Set = true
		for _, p := range positions {
			in.PositionIDs.V = append(in.PositionIDs.V, p.String())
		}
	}
	if f := in.Validate(); len(f) != 0 {
		panic(f)
	}
	return in
}

func TestQuestionBankScopeAndDelete(t *testing.T) {
	t.Parallel()
	r := newRound(t)
	ctx := context.Background()
	q := r.store.Queries
	vp := hiring.NewActor(newProfile(t, r.store, "vp@example.com"), "vp@example.com", false, "VP", "Design")
	president := hiring.NewActor(newProfile(t, r.store, "pres@example.com"), "pres@example.com", false, "President", "")

	// A VP asks questions of their subteam's positions only.
	own, err := hiring.CreateQuestion(ctx, q, vp, questionInput("Portfolio?", true, r.design))
	if err != nil || !own.Editable || len(own.PositionIDs) != 1 || own.PositionIDs[0] != r.design {
		t.Fatalf("VP's own question: %+v %v", own, err)
	}
	for name, in := range map[string]*hiring.QuestionInput{
		"general": questionInput("Why?", false), "other subteam": questionInput("Stack?", false, r.design, r.tech)} {
		if _, err := hiring.CreateQuestion(ctx, q, vp, in); !errors.Is(err, hiring.ErrQuestionScope) {
			t.Errorf("VP %s question: %v", name, err)
		}
	}
	_, err = hiring.CreateQuestion(ctx, q, president, questionInput("Stack?", false, uuid.New()))
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Invalid || e.Details["position_ids"] == "" {
		t.Fatalf("unknown position: %v", err)
	}
	general, err := hiring.CreateQuestion(ctx, q, president, questionInput("Why us?", false))
	if err != nil || len(general.PositionIDs) != 0 || general.PositionIDs == nil {
		t.Fatalf("general question: %+v %v", general, err)
	}
	// The bank says what each caller may edit.
	bank, err := hiring.ListQuestions(ctx, q, vp.Scope)
	if err != nil || len(bank) != 2 {
		t.Fatalf("bank %+v %v", bank, err)
	}
	for _, b := range bank {
		if b.Editable != (b.ID == own.ID) {
			t.Errorf("VP editable %v for %q", b.Editable, b.Prompt)
		}
	}

	// The applicant answers the required question; the general one is
	// answered by nobody.
	app, err := q.ApplicationGetByProfile(ctx, r.applicant)
	if err != nil {
		t.Fatal(err)
	}
	missing, err := hiring.MissingAnswers(ctx, q, app)
	if err != nil || len(missing) != 1 || missing["answers."+own.ID.String()] != "is required" {
		t.Fatalf("missing %v %v", missing, err)
	}
	// A one-line ("text") question's answer takes no line break (the
	// decoder let it through: it did not know the question).
	broken := "dribbble.com/ada\nsee also"
	err = r.store.InTx(ctx, func(q *db.Queries) error {
		return hiring.SaveAnswers(ctx, q, app, map[string]*string{own.ID.String(): &broken})
	})
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Invalid || e.Details["answers."+own.ID.String()] == "" {
		t.Fatalf("a line break in a one-line answer: %v", err)
	}
	text := "dribbble.com/ada"
	if err := r.store.InTx(ctx, func(q *db.Queries) error {
		return hiring.SaveAnswers(ctx, q, app, map[string]*string{own.ID.String(): &text})
	}); err != nil {
		t.Fatal(err)
	}
	if missing, err := hiring.MissingAnswers(ctx, q, app); err != nil || len(missing) != 0 {
		t.Fatalf("missing after answering: %v %v", missing, err)
	}

	// A VP may not delete the President's question; a missing one is 404.
	if _, err := hiring.DeleteQuestion(ctx, q, vp.Scope, general.ID); !errors.Is(err, hiring.ErrQuestionScope) {
		t.Fatalf("VP deletes general: %v", err)
	}
	if _, err := hiring.DeleteQuestion(ctx, q, president.Scope, uuid.New()); !errors.Is(err, hiring.ErrQuestionMissing) {
		t.Fatalf("missing question: %v", err)
	}
	// Answered: archived, kept with its answer. Unanswered: deleted.
	for _, c := range []struct {
		id       uuid.UUID
		scope    hiring.Scope
		archived bool
	}{{own.ID, vp.Scope, true}, {general.ID, president.Scope, false}} {
		var archived bool
		err := r.store.InTx(ctx, func(q *db.Queries) (err error) {
			archived, err = hiring.DeleteQuestion(ctx, q, c.scope, c.id)
			return err
		})
		if err != nil || archived != c.archived {
			t.Fatalf("delete %s: archived %v, %v", c.id, archived, err)
		}
		var rows, answers int
		if err := r.store.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM questions WHERE id = $1 AND archived_at IS NOT NULL),
			(SELECT count(*) FROM application_answers WHERE question_id = $1)`, c.id).Scan(&rows, &answers); err != nil {
			t.Fatal(err)
		}
		if c.archived && (rows != 1 || answers != 1) || !c.archived && (rows != 0 || answers != 0) {
			t.Errorf("after delete: %d archived rows, %d answers", rows, answers)
		}
	}
	if bank, err := hiring.ListQuestions(ctx, q, president.Scope); err != nil || len(bank) != 0 {
		t.Fatalf("bank after deletes: %+v %v", bank, err)
	}
	if _, err := hiring.DeleteQuestion(ctx, q, president.Scope, own.ID); !errors.Is(err, hiring.ErrQuestionMissing) {
		t.Fatalf("archived question deleted again: %v", err)
	}
}

func TestDeletePositionRules(t *testing.T) {
	t.Parallel()
	r := newRound(t)
	ctx := context.Background()
	del := func(id uuid.UUID) error {
		return r.store.InTx(ctx, func(q *db.Queries) error { return hiring.DeletePosition(ctx, q, id) })
	}
	if err := del(r.tech); !errors.Is(err, hiring.ErrPositionInUse) {
		t.Fatalf("chosen position: %v", err)
	}
	if err := del(uuid.New()); !errors.Is(err, hiring.ErrPositionMissing) {
		t.Fatalf("missing position: %v", err)
	}
	// A position nobody chose but with a question is kept too.
	asked := newPosition(t, r.store, "Editor", "Comms")
	president := hiring.NewActor(newProfile(t, r.store, "pres@example.com"), "pres@example.com", false, "President", "")
	if _, err := hiring.CreateQuestion(ctx, r.store.Queries, president, questionInput("Samples?", false, asked)); err != nil {
		t.Fatal(err)
	}
	if err := del(asked); !errors.Is(err, hiring.ErrPositionHasQuestions) {
		t.Fatalf("position with a question: %v", err)
	}
	unused := newPosition(t, r.store, "Writer", "Comms")
	if err := del(unused); err != nil {
		t.Fatalf("unused position: %v", err)
	}
	list, err := hiring.ListPositions(ctx, r.store.Queries, "", true)
	if err != nil || len(list) != 3 {
		t.Fatalf("positions after delete: %+v %v", list, err)
	}
}
