package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
)

// update applies a PATCH body to the settings on behalf of actor.
func update(t *testing.T, s *db.Store, actor uuid.UUID, body string) (out review.Settings, err error) {
	t.Helper()
	var p review.SettingsPatch
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	err = s.InTx(ctx, func(q *db.Queries) error {
		got, err := review.UpdateSettings(ctx, q, actor, p)
		out = got.Settings
		return err
	})
	return out, err
}

func capOf(s review.Settings) int32 {
	if s.Cap == nil {
		return 0
	}
	return *s.Cap
}

func TestSettingsKeepHistory(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ana := person(t, s, "ana@example.com", "Ana")
	ben := person(t, s, "ben@example.com", "Ben")

	if got, err := review.LoadSettings(ctx, s.Queries); err != nil || got.Blind || got.Cap != nil {
		t.Fatalf("initial settings %+v (%v), want not blind, no cap", got, err)
	}
	steps := []struct {
		by    review.Reviewer
		body  string
		blind bool
		cap   int32 // 0: none
	}{
		{ana, `{"blind": true}`, true, 0},
		{ben, `{"cap": 2}`, true, 2},
		{ana, `{"blind": true, "cap": 2}`, true, 2}, // no change: not recorded
		{ben, `{"cap": null, "blind": false}`, false, 0},
	}
	for _, st := range steps {
		got, err := update(t, s, st.by.ProfileID, st.body)
		if err != nil || got.Blind != st.blind || capOf(got) != st.cap {
			t.Fatalf("%s: %+v cap %d (%v), want blind %v cap %d", st.body, got, capOf(got), err, st.blind, st.cap)
		}
		if now, err := review.LoadSettings(ctx, s.Queries); err != nil || now.Blind != st.blind || capOf(now) != st.cap {
			t.Fatalf("%s: stored %+v (%v)", st.body, now, err)
		}
	}

	hist, err := review.SettingsHistory(ctx, s.Queries)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		by    uuid.UUID
		blind bool
		cap   int32
	}{{ana.ProfileID, true, 0}, {ben.ProfileID, true, 2}, {ben.ProfileID, false, 0}}
	if len(hist) != len(want) {
		t.Fatalf("%d changes recorded, want %d: %+v", len(hist), len(want), hist)
	}
	for i, w := range want {
		h := hist[i]
		if h.ChangedBy == nil || *h.ChangedBy != w.by || h.Blind != w.blind || capOf(h.Settings) != w.cap ||
			time.Since(h.ChangedAt) > time.Minute {
			t.Errorf("change %d: %+v by %v, want %+v", i, h, h.ChangedBy, w)
		}
	}
	if h := hist[0]; h.ChangedByEmail == nil || *h.ChangedByEmail != "ana@example.com" {
		t.Errorf("the first change's author email %v, want ana's", h.ChangedByEmail)
	}
	withHist, err := review.LoadSettingsWithHistory(ctx, s.Queries)
	if err != nil || len(withHist.History) != 3 || withHist.History[0].ChangedAt.Before(withHist.History[2].ChangedAt) ||
		withHist.History[0].Blind != false || withHist.History[2].Blind != true {
		t.Fatalf("settings with history %+v (%v), want three changes newest first", withHist, err)
	}

	// A cap below 1 is refused with the API's 400, and the database
	// refuses it too.
	_, err = update(t, s, ana.ProfileID, `{"cap": 0}`)
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Invalid || e.Message != "cap: must be null or at least 1" {
		t.Fatalf("cap 0: %v", err)
	}
	if _, err := s.Pool().Exec(ctx, `UPDATE review_settings SET cap = 0`); err == nil {
		t.Fatal("the database took a cap of 0")
	}
	if _, err := s.Pool().Exec(ctx, `INSERT INTO review_settings (id) VALUES (false)`); err == nil {
		t.Fatal("the database took a second settings row")
	}
	if hist, _ := review.SettingsHistory(ctx, s.Queries); len(hist) != 3 {
		t.Fatalf("refused changes were recorded: %d changes", len(hist))
	}
}

func TestCapTakesApplicationsOutOfTheQueue(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	boss := person(t, s, "boss@example.com", "")
	x1, x2, me := person(t, s, "x1@example.com", ""), person(t, s, "x2@example.com", ""), person(t, s, "me@example.com", "")
	full := application(t, s, person(t, s, "full@example.com", ""), "submitted", "")
	half := application(t, s, person(t, s, "half@example.com", ""), "submitted", "")
	for _, r := range []review.Reviewer{x1, x2} {
		if _, err := submit(s, r, scores(full, 1, 1, 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := submit(s, x1, scores(half, 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := update(t, s, boss.ProfileID, `{"cap": 2}`); err != nil {
		t.Fatal(err)
	}
	// full has 2 reviews: out; half (1) is given, then it has 2 too.
	got, err := review.Next(ctx, s.Queries, me)
	if err != nil || got.Application.ID != half {
		t.Fatalf("next %v (%v), want the application below the cap", got.Application.ID, err)
	}
	if _, err := submit(s, me, scores(half, 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := review.Next(ctx, s.Queries, me); !errors.Is(err, review.ErrQueueEmpty) {
		t.Fatalf("every application at the cap: %v, want ErrQueueEmpty", err)
	}
	// Without the cap, full is back.
	if _, err := update(t, s, boss.ProfileID, `{"cap": null}`); err != nil {
		t.Fatal(err)
	}
	if got, err := review.Next(ctx, s.Queries, me); err != nil || got.Application.ID != full {
		t.Fatalf("no cap: next %v (%v), want %v", got.Application.ID, err, full)
	}
}

// blob signs links without a bucket.
type blob struct{}

func (blob) Put(context.Context, string, string, io.Reader, int64) error { return nil }
func (blob) Head(context.Context, string, int) ([]byte, error)           { return []byte("%PDF-"), nil }
func (blob) PresignGet(_ context.Context, key, _ string, _ time.Duration) (string, error) {
	return "https://s3.test/" + key, nil
}
func (blob) PresignInline(_ context.Context, key, _ string, _ time.Duration) (string, error) {
	return "https://s3.test/" + key + "?inline", nil
}

func TestAssignBlind(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	me := person(t, s, "me@example.com", "")
	person(t, s, "mate@example.com", "Mate")
	app := application(t, s, person(t, s, "ada@example.com", "Ada"), "submitted", "mate@example.com")

	open, err := review.Assign(ctx, s.Queries, nil, blob{}, testenv.Logger(t), me)
	if err != nil || open.Blind || open.Application.ID != app || open.Application.Email == nil ||
		len(open.Application.TeamMembersWithNames) != 1 || open.Application.University == nil {
		t.Fatalf("not blind: %+v (%v)", open, err)
	}
	if _, err := update(t, s, me.ProfileID, `{"blind": true}`); err != nil {
		t.Fatal(err)
	}
	got, err := review.Assign(ctx, s.Queries, nil, blob{}, testenv.Logger(t), me)
	if err != nil || !got.Blind || got.Application.ID != app {
		t.Fatalf("blind: %+v (%v)", got, err)
	}
	if a := got.Application; a.Email != nil || a.Phone != nil || a.Age != nil || a.Country != nil || a.University != nil ||
		a.TeamMembers != "" || len(a.TeamMembersWithNames) != 0 {
		t.Errorf("blind view shows who applied: %+v", a)
	}
	if a := got.Application; a.ResumeURL == nil || *a.ResumeURL != *open.Application.ResumeURL || a.Q1Answer == nil || *a.Q1Answer != "q1" {
		t.Errorf("blind view lost what is scored: resume %v q1 %v", a.ResumeURL, a.Q1Answer)
	}
	// The admin details still show everything.
	d, err := review.DetailsOf(ctx, s.Queries, blob{}, testenv.Logger(t), me, current(t, s), app)
	if err != nil || d.Application.Email == nil || *d.Application.Email != "ada@example.com" || len(d.Application.TeamMembersWithNames) != 1 {
		t.Fatalf("details under blind: %+v (%v)", d.Application, err)
	}
}
