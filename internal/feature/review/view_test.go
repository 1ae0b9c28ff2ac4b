package review_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
)

// linkBlob signs links without an object store; every resume in these
// tests has its type stored, so nothing is read.
type linkBlob struct{}

func (linkBlob) Put(context.Context, string, string, io.Reader, int64) error { return nil }

func (linkBlob) Head(context.Context, string, int) ([]byte, error) {
	return nil, errors.New("not read in these tests")
}

func (linkBlob) PresignGet(_ context.Context, key, _ string, _ time.Duration) (string, error) {
	return "https://blob.test/" + key, nil
}

func (linkBlob) PresignInline(_ context.Context, key, _ string, _ time.Duration) (string, error) {
	return "https://blob.test/inline/" + key, nil
}

// TestApplicationView loads the reviewer's view: the application's
// fields, the team's display names (accounts only), the question-bank
// answers with their prompts and the resume links, the preview for a PDF
// only.
func TestApplicationView(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	owner := person(t, s, "owner@example.com", "")
	person(t, s, "ana@example.com", "Ana")
	id := application(t, s, owner, "submitted", "ana@example.com,stranger@example.com")
	var question uuid.UUID
	if err := s.Pool().QueryRow(ctx, `INSERT INTO questions (prompt, type) VALUES ('Why us?', 'text') RETURNING id`).
		Scan(&question); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool().Exec(ctx, `INSERT INTO application_answers (application_id, question_id, answer)
		VALUES ($1, $2, 'Because')`, id, question); err != nil {
		t.Fatal(err)
	}

	v, err := review.LoadView(ctx, s.Queries, linkBlob{}, log, id)
	if err != nil {
		t.Fatal(err)
	}
	key := owner.ProfileID.String() + "/cv.pdf"
	if v.ID != id || v.Status != "submitted" || v.Email == nil || *v.Email != "owner@example.com" {
		t.Fatalf("application fields %+v", v.View)
	}
	if v.ResumeURL == nil || *v.ResumeURL != "https://blob.test/"+key ||
		v.ResumePreviewURL == nil || *v.ResumePreviewURL != "https://blob.test/inline/"+key {
		t.Fatalf("resume links %v, %v", v.ResumeURL, v.ResumePreviewURL)
	}
	if len(v.TeamMembersWithNames) != 1 || v.TeamMembersWithNames[0].Email != "ana@example.com" ||
		v.TeamMembersWithNames[0].DisplayName == nil || *v.TeamMembersWithNames[0].DisplayName != "Ana" {
		t.Fatalf("team %+v", v.TeamMembersWithNames)
	}
	if v.Answers[question.String()] != "Because" || len(v.QuestionAnswers) != 1 ||
		v.QuestionAnswers[0].Prompt != "Why us?" || v.QuestionAnswers[0].Answer != "Because" {
		t.Fatalf("answers %v, %+v", v.Answers, v.QuestionAnswers)
	}

	// A DOCX resume has a download link and no preview.
	if _, err := s.Pool().Exec(ctx, `UPDATE applications SET resume_type = 'docx' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if v, err = review.LoadView(ctx, s.Queries, linkBlob{}, log, id); err != nil || v.ResumeURL == nil || v.ResumePreviewURL != nil {
		t.Fatalf("docx resume links %v, %v (%v)", v.ResumeURL, v.ResumePreviewURL, err)
	}

	if _, err := review.LoadView(ctx, s.Queries, linkBlob{}, log, uuid.New()); err != review.ErrApplicationNotFound {
		t.Fatalf("unknown application: %v, want ErrApplicationNotFound", err)
	}
}

// TestNextView gives a reviewer the next application in the reviewer's
// view, and ErrQueueEmpty when none fits.
func TestNextView(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	ana := person(t, s, "ana@example.com", "Ana")
	owner := person(t, s, "owner@example.com", "Olga")
	id := application(t, s, owner, "submitted", "owner@example.com")

	a, err := review.Assign(ctx, s.Queries, nil, linkBlob{}, log, ana)
	v := a.Application
	if err != nil || v.ID != id || v.ResumeURL == nil || len(v.TeamMembersWithNames) != 1 || len(v.Answers) != 0 {
		t.Fatalf("ana's next %+v (%v), want %v", v, err, id)
	}
	if _, err := review.Assign(ctx, s.Queries, nil, linkBlob{}, log, owner); !errors.Is(err, review.ErrQueueEmpty) {
		t.Fatalf("owner's next: %v, want ErrQueueEmpty", err)
	}
}
