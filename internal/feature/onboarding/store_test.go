package onboarding_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/platform/apperr"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// world is a database with terms and people in it.
type world struct {
	t     *testing.T
	ctx   context.Context
	store *db.Store
}

func newWorld(t *testing.T) *world {
	return &world{t: t, ctx: context.Background(), store: testenv.Store(t)}
}

// term inserts a term starting on starts with the given windows (nil: not
// scheduled).
func (w *world) term(name, starts string, onboarding, returning *[2]time.Time) db.Term {
	w.t.Helper()
	s, err := time.Parse(time.DateOnly, starts)
	if err != nil {
		w.t.Fatal(err)
	}
	p := db.TermInsertParams{Name: name, StartsOn: s, EndsOn: s.AddDate(0, 10, 0)}
	if onboarding != nil {
		p.OnboardingOpensAt, p.OnboardingClosesAt = &onboarding[0], &onboarding[1]
	}
	if returning != nil {
		p.ReturningOpensAt, p.ReturningClosesAt = &returning[0], &returning[1]
	}
	term, err := w.store.TermInsert(w.ctx, p)
	if err != nil {
		w.t.Fatal(err)
	}
	return term
}

// person inserts a profile, with an exec role in term when term is not nil.
func (w *world) person(email string, term *db.Term, subteam string, active bool) uuid.UUID {
	w.t.Helper()
	var id uuid.UUID
	if err := w.store.Pool().QueryRow(w.ctx, `INSERT INTO profiles (email, display_name, password_hash) VALUES ($1, $1, '$argon2id$x') RETURNING id`,
		email).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	if term != nil {
		if _, err := w.store.Pool().Exec(w.ctx, `INSERT INTO exec_roles (profile_id, position, subteam, term_id, active) VALUES ($1, 'Exec', $2, $3, $4)`,
			id, subteam, term.ID, active); err != nil {
			w.t.Fatal(err)
		}
	}
	return id
}

// open is a window open now, closed one that closed an hour ago.
func open() *[2]time.Time {
	n := time.Now()
	return &[2]time.Time{n.Add(-time.Hour), n.Add(time.Hour)}
}

func closed() *[2]time.Time {
	n := time.Now()
	return &[2]time.Time{n.Add(-2 * time.Hour), n.Add(-time.Hour)}
}

// wantErr checks err is the apperr of code and title, with the message
// when one is given.
func wantErr(t *testing.T, err error, code apperr.Code, title, message string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != code || e.Title != title || (message != "" && e.Message != message) {
		t.Fatalf("error %v, want %s %q %q", err, code, title, message)
	}
}

// TestOpen lets people into the forms at the database clock: who each form
// is for, the windows, and the role options.
func TestOpen(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	first := w.term("2025-2026", "2025-09-01", nil, open())
	cur := w.term("2026-2027", "2026-09-01", open(), open())
	later := w.term("2027-2028", "2027-09-01", closed(), nil)
	execNow := w.person("now@example.com", &cur, "web", true)
	execBefore := w.person("before@example.com", &first, "design", false) // ended roles count for returning
	member := w.person("member@example.com", nil, "", false)
	w.person("later@example.com", &later, "web", true)
	if _, err := w.store.PositionInsert(w.ctx, db.PositionInsertParams{TermID: cur.ID, Title: "VP Web", Subteam: "web", Grants: "vp"}); err != nil {
		t.Fatal(err)
	}

	f, err := onboarding.Open(w.ctx, w.store.Queries, cur, onboarding.Onboarding, execNow)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Window.Open || f.Window.ClosesAt == nil || len(f.RoleOptions) != 1 || f.RoleOptions[0] != "VP Web" {
		t.Errorf("form %+v", f)
	}
	if f, err := onboarding.Open(w.ctx, w.store.Queries, cur, onboarding.Returning, execBefore); err != nil ||
		len(f.RoleOptions) != 1 {
		t.Errorf("returning exec: %+v %v", f, err)
	}
	cases := []struct {
		name    string
		term    db.Term
		kind    onboarding.Kind
		who     uuid.UUID
		title   string
		message string
	}{
		{"not an exec", cur, onboarding.Onboarding, member, "Forbidden", "The onboarding form is for execs of 2026-2027"},
		{"exec of the term before only", cur, onboarding.Onboarding, execBefore, "Forbidden", "The onboarding form is for execs of 2026-2027"},
		{"not an exec before", cur, onboarding.Returning, execNow, "Forbidden", "The returning-exec form is for execs of the term before 2026-2027"},
		{"no term before", first, onboarding.Returning, execBefore, "Forbidden", "The returning-exec form is for execs of the term before 2025-2026"},
		{"not scheduled", later, onboarding.Returning, execNow, "Form closed", "The returning-exec form for 2027-2028 is not scheduled yet"},
		{"closed", later, onboarding.Onboarding, w.person("l2@example.com", &later, "web", true), "Form closed", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := onboarding.Open(w.ctx, w.store.Queries, c.term, c.kind, c.who)
			wantErr(t, err, apperr.Forbidden, c.title, c.message)
		})
	}
}

// TestSubmit stores a submission inside its window, then a resubmission,
// and refuses invalid fields, a headshot key nothing was uploaded under,
// and a closed window.
func TestSubmit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cur := w.term("2026-2027", "2026-09-01", open(), nil)
	me := w.person("ada@example.com", &cur, "web", true)
	objs := memObjects{}
	answers := onboarding.Answers{DisplayName: "  Ada  ", Email: "ada@example.com", Role: "VP", TermType: "fall", DsCompetency: "none"}
	submit := func(a onboarding.Answers) (onboarding.Saved, error) {
		var out onboarding.Saved
		err := w.store.InTx(w.ctx, func(q *db.Queries) error {
			var err error
			out, err = onboarding.Submit(w.ctx, q, objs, cur, onboarding.Onboarding, me, a)
			return err
		})
		return out, err
	}

	first, err := submit(answers)
	if err != nil {
		t.Fatal(err)
	}
	if !first.Created || first.Dropped != nil || first.Submission.DisplayName != "Ada" || first.Submission.Kind != "onboarding" {
		t.Fatalf("first submission %+v", first)
	}
	again := answers
	again.Role = "Exec"
	second, err := submit(again)
	if err != nil {
		t.Fatal(err)
	}
	if second.Created || second.Submission.ID != first.Submission.ID || second.Submission.Role != "Exec" ||
		!second.Submission.SubmittedAt.Equal(first.Submission.SubmittedAt) {
		t.Fatalf("resubmission %+v", second)
	}
	_, got, err := onboarding.Get(w.ctx, w.store.Queries, cur, onboarding.Onboarding, me)
	if err != nil || got == nil || got.Role != "Exec" {
		t.Fatalf("get: %+v %v", got, err)
	}

	bad := answers
	bad.Role = "King"
	_, err = submit(bad)
	wantErr(t, err, apperr.Invalid, "Validation failed", "role: must be one of President, VP, Exec")

	key := onboarding.HeadshotKey(cur.ID, onboarding.Onboarding, me, "jpg")
	withKey := answers
	withKey.SetHeadshotKey, withKey.HeadshotKey, withKey.SetHeadshotConsent, withKey.HeadshotConsent = true, &key, true, true
	_, err = submit(withKey)
	wantErr(t, err, apperr.Invalid, "Validation failed", "headshot_key: no headshot was uploaded under this key; upload it first")
	objs[key] = []byte("jpeg")
	if out, err := submit(withKey); err != nil || out.Submission.HeadshotKey == nil || *out.Submission.HeadshotKey != key {
		t.Fatalf("with an uploaded headshot: %+v %v", out, err)
	}
	// Left out, the headshot stays; null removes it and names it dropped.
	if out, err := submit(answers); err != nil || out.Submission.HeadshotKey == nil || !out.Submission.HeadshotConsent {
		t.Fatalf("headshot left out: %+v %v", out, err)
	}
	removed := answers
	removed.SetHeadshotKey = true
	if out, err := submit(removed); err != nil || out.Submission.HeadshotKey != nil || out.Dropped == nil || *out.Dropped != key {
		t.Fatalf("headshot removed: %+v %v", out, err)
	}

	// A closed window stores nothing.
	past := w.term("2025-2026", "2025-09-01", closed(), nil)
	old := w.person("old@example.com", &past, "web", true)
	err = w.store.InTx(w.ctx, func(q *db.Queries) error {
		_, err := onboarding.Submit(w.ctx, q, objs, past, onboarding.Onboarding, old, answers)
		return err
	})
	wantErr(t, err, apperr.Forbidden, "Form closed", "")
	if _, err := w.store.ExecFormSubmissionGet(w.ctx, db.ExecFormSubmissionGetParams{TermID: past.ID, ProfileID: old, Kind: "onboarding"}); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("closed form stored a submission: %v", err)
	}
}

// TestSaveHeadshot stores uploads under the caller's key and points the
// submission at the latest; a headshot of the other type is dropped.
func TestSaveHeadshot(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cur := w.term("2026-2027", "2026-09-01", open(), nil)
	me := w.person("ada@example.com", &cur, "web", true)
	objs := memObjects{}
	save := func(img onboarding.Image, data string) onboarding.Upload {
		t.Helper()
		var up onboarding.Upload
		if err := w.store.InTx(w.ctx, func(q *db.Queries) error {
			var err error
			up, err = onboarding.SaveHeadshot(w.ctx, q, objs, cur, onboarding.Onboarding, me, img, []byte(data))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return up
	}
	jpg := save(onboarding.Image{Ext: "jpg", ContentType: "image/jpeg"}, "jpeg")
	if jpg.Key != onboarding.HeadshotKey(cur.ID, onboarding.Onboarding, me, "jpg") || jpg.Dropped != nil || string(objs[jpg.Key]) != "jpeg" {
		t.Fatalf("first upload %+v", jpg)
	}
	if err := w.store.InTx(w.ctx, func(q *db.Queries) error {
		_, err := onboarding.Submit(w.ctx, q, objs, cur, onboarding.Onboarding, me, onboarding.Answers{DisplayName: "Ada",
			Email: "ada@example.com", Role: "VP", TermType: "fall", DsCompetency: "none",
			SetHeadshotKey: true, HeadshotKey: &jpg.Key, SetHeadshotConsent: true, HeadshotConsent: true})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	png := save(onboarding.Image{Ext: "png", ContentType: "image/png"}, "png")
	if png.Dropped == nil || *png.Dropped != jpg.Key {
		t.Fatalf("replacing upload %+v", png)
	}
	sub, err := w.store.ExecFormSubmissionGet(w.ctx, db.ExecFormSubmissionGetParams{TermID: cur.ID, ProfileID: me, Kind: "onboarding"})
	if err != nil || sub.HeadshotKey == nil || *sub.HeadshotKey != png.Key {
		t.Fatalf("submission %+v %v", sub, err)
	}
}

// TestReview lists the submissions a reviewer may see, by subteam in the
// term the form is about, and exports them as CSV rows.
func TestReview(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	prev := w.term("2025-2026", "2025-09-01", nil, nil)
	cur := w.term("2026-2027", "2026-09-01", open(), open())
	ada := w.person("ada@example.com", &cur, "web", true)
	bob := w.person("bob@example.com", &cur, "design", true)
	cy := w.person("cy@example.com", &prev, "web", false)
	for _, s := range []struct {
		who        uuid.UUID
		kind, name string
	}{{ada, "onboarding", "Ada"}, {bob, "onboarding", "Bob"}, {cy, "returning", "Cy"}} {
		if _, err := w.store.ExecFormSubmissionUpsert(w.ctx, db.ExecFormSubmissionUpsertParams{TermID: cur.ID, ProfileID: s.who,
			Kind: s.kind, DisplayName: s.name, Email: "x@example.com", Role: "Exec", TermType: "fall", DsCompetency: "none",
			ChatHandle: "@" + s.name}); err != nil {
			t.Fatal(err)
		}
	}
	web := "web"
	cases := []struct {
		name    string
		kind    onboarding.Kind
		subteam *string
		want    []string // display names, then subteams
	}{
		{"all onboarding", onboarding.Onboarding, nil, []string{"Ada", "Bob", "web", "design"}},
		{"web onboarding", onboarding.Onboarding, &web, []string{"Ada", "web"}},
		{"returning by the term before's subteam", onboarding.Returning, &web, []string{"Cy", "web"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, err := onboarding.Review(w.ctx, w.store.Queries, cur, c.kind, c.subteam)
			if err != nil {
				t.Fatal(err)
			}
			items := onboarding.ReviewItems(rows)
			var got []string
			for _, it := range items {
				got = append(got, it.DisplayName)
			}
			for _, it := range items {
				if it.Subteam == nil {
					t.Fatalf("%s has no subteam", it.DisplayName)
				}
				got = append(got, *it.Subteam)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}

	// The first term's returning form has no term before: no subteams.
	rows, err := onboarding.Review(w.ctx, w.store.Queries, prev, onboarding.Returning, nil)
	if err != nil || len(rows) != 0 {
		t.Fatalf("first term: %v %v", rows, err)
	}

	rows, err = onboarding.Review(w.ctx, w.store.Queries, cur, onboarding.Onboarding, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := onboarding.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[1][0] != ada.String() || recs[1][1] != "Ada" || recs[1][4] != "web" || recs[1][6] != "'@Ada" ||
		recs[2][0] != bob.String() || recs[2][4] != "design" {
		t.Fatalf("CSV %q", recs)
	}
}

// TestWindowOfMissingTerm: the window functions answer db.ErrNotFound for
// a term that does not exist (the activities make it TermNotFound).
func TestWindowOfMissingTerm(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	id := uuid.New()
	if _, err := onboarding.WindowDates(w.ctx, w.store.Queries, id); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("WindowDates: %v", err)
	}
	n := onboarding.Notice{TermID: id, Kind: onboarding.Onboarding, ClosesAt: time.Now()}
	if refs, err := onboarding.RecordAnnouncements(w.ctx, w.store.Queries, n); !errors.Is(err, db.ErrNotFound) || refs != nil {
		t.Errorf("RecordAnnouncements: %v %v", refs, err)
	}
	cur := w.term("2026-2027", "2026-09-01", open(), nil)
	d, err := onboarding.WindowDates(w.ctx, w.store.Queries, cur.ID)
	if err != nil || d.OnboardingOpensAt == nil || !d.OnboardingOpensAt.Equal(*cur.OnboardingOpensAt) || d.ReturningOpensAt != nil {
		t.Errorf("WindowDates: %+v %v", d, err)
	}
}
