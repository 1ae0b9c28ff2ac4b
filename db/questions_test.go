package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
)

// TestQuestionRules checks the question bank's rules the schema keeps:
// type and char_limit CHECKs, and an answered question that cannot be
// deleted (only archived).
func TestQuestionRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	limit := func(n int32) *int32 { return &n }

	for _, bad := range []db.QuestionInsertParams{
		{Prompt: "x", Type: "radio"},
		{Prompt: "", Type: "text"},
		{Prompt: "x", Type: "text", CharLimit: limit(0)},
		{Prompt: "x", Type: "text", CharLimit: limit(10001)},
	} {
		if _, err := s.QuestionInsert(ctx, bad); !errors.Is(err, db.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", bad, err)
		}
	}
	for _, ok := range []db.QuestionInsertParams{
		{Prompt: "x", Type: "textarea", CharLimit: limit(1)},
		{Prompt: "x", Type: "text", CharLimit: limit(10000)},
	} {
		if _, err := s.QuestionInsert(ctx, ok); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}

	q, err := s.QuestionInsert(ctx, db.QuestionInsertParams{Prompt: "Why?", Type: "text"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.ProfileInsert(ctx, db.ProfileInsertParams{Email: "q@example.com", PasswordHash: "$argon2id$x", Role: "member"})
	if err != nil {
		t.Fatal(err)
	}
	app, err := s.ApplicationInsert(ctx, db.ApplicationInsertParams{ProfileID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AnswerUpsert(ctx, db.AnswerUpsertParams{ApplicationID: app.ID, QuestionID: uuid.New(), Answer: "a"}); !errors.Is(err, db.ErrInvalid) {
		t.Errorf("answer to no question: err = %v, want ErrInvalid", err)
	}
	if err := s.AnswerUpsert(ctx, db.AnswerUpsertParams{ApplicationID: app.ID, QuestionID: q.ID, Answer: "because"}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.QuestionDeleteUnanswered(ctx, q.ID); err != nil || n != 0 {
		t.Fatalf("delete of an answered question = %d, %v; want 0 rows", n, err)
	}
	if _, err := s.Pool().Exec(ctx, `DELETE FROM questions WHERE id = $1`, q.ID); err == nil {
		t.Error("an answered question was deleted outright")
	}
	if err := s.QuestionArchive(ctx, q.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.QuestionLock(ctx, q.ID); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("archived question lock: err = %v, want ErrNotFound", err)
	}
	rows, err := s.AnswersOfApplications(ctx, []uuid.UUID{app.ID})
	if err != nil || len(rows) != 1 || rows[0].Prompt != "Why?" || rows[0].Answer != "because" {
		t.Errorf("answers after archive = %+v, %v", rows, err)
	}
}
