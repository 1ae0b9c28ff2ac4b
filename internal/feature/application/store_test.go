package application_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/apperr"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// world is a fresh database with helpers to make accounts and applications.
type world struct {
	t     *testing.T
	store *db.Store
}

func newWorld(t *testing.T) world { return world{t: t, store: testenv.Store(t)} }

// user creates a confirmed account.
func (w world) user(name, role string) db.Profile {
	w.t.Helper()
	p, err := account.Create(context.Background(), w.store.Queries, name+"@example.com", name, "password-"+name, role)
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// tx runs fn in a transaction of the world's store.
func tx[T any](w world, fn func(q *db.Queries) (T, error)) (T, error) {
	var out T
	err := w.store.InTx(context.Background(), func(q *db.Queries) (err error) {
		out, err = fn(q)
		return err
	})
	return out, err
}

// submitted creates an account with a submitted application, written
// directly, and returns the application's id.
func (w world) submitted(name string) uuid.UUID {
	w.t.Helper()
	p := w.user(name, "member")
	var id uuid.UUID
	if err := w.store.Pool().QueryRow(context.Background(), `
		INSERT INTO applications (profile_id, status, email, phone, discord, tshirt_size, age, country,
			university, program, year_of_study, experience_level, hackathons_attended,
			resume_key, resume_name, q1_answer, q2_answer, coc_agreed, info_share_authorized, submitted_at)
		SELECT p.id, 'submitted', p.email, '+1 613 555 0100', 'handle', 'M', 20, 'Canada',
			'uOttawa', 'CS', '2', 'beginner', 1, p.id::text || '/cv.pdf', 'cv.pdf', 'q1', 'q2', true, true, now()
		FROM profiles p WHERE p.id = $1::uuid
		RETURNING id`, p.ID).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	return id
}

// count answers a count(*) query.
func (w world) count(query string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.store.Pool().QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// code is the apperr code of err, or "" for another error or none.
func code(err error) apperr.Code {
	if e, ok := apperr.As(err); ok {
		return e.Code
	}
	return ""
}

// memBlob is an object store in memory.
type memBlob struct {
	mu      sync.Mutex
	objects map[string][]byte
}

func (b *memBlob) Put(_ context.Context, key, _ string, body io.Reader, _ int64) error {
	data, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.objects == nil {
		b.objects = map[string][]byte{}
	}
	b.objects[key] = data
	return nil
}

func (b *memBlob) Head(_ context.Context, key string, n int) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.objects[key]
	if !ok {
		return nil, errors.New("no such object")
	}
	return data[:min(n, len(data))], nil
}

func (b *memBlob) PresignGet(_ context.Context, key, _ string, _ time.Duration) (string, error) {
	return "https://blob.test/" + key, nil
}

func (b *memBlob) PresignInline(_ context.Context, key, _ string, _ time.Duration) (string, error) {
	return "https://blob.test/inline/" + key, nil
}

// TestSubmit fills a draft step by step and submits it: what is missing is
// named, the team is stored in its accounts' spelling, the opt-in reaches
// the profile, and a submitted application no longer changes.
func TestSubmit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	ada, bea := w.user("ada", "member"), w.user("Bea", "member")
	submit := func() (application.View, error) {
		return tx(w, func(q *db.Queries) (application.View, error) { return application.Submit(ctx, q, ada.ID) })
	}
	if _, err := submit(); !errors.Is(err, application.ErrNoApplication) {
		t.Fatalf("submit without an application: %v", err)
	}
	if _, err := tx(w, func(q *db.Queries) (application.View, error) {
		return application.Create(ctx, q, nil, ada.ID, ada.Email, application.CreateRequest{ProfileID: bea.ID.String()})
	}); code(err) != apperr.Forbidden {
		t.Fatalf("create for another profile: %v, want forbidden", err)
	}
	created, err := tx(w, func(q *db.Queries) (application.View, error) {
		return application.Create(ctx, q, nil, ada.ID, ada.Email, application.CreateRequest{ProfileID: ada.ID.String()})
	})
	if err != nil || created.Email == nil || *created.Email != ada.Email || created.Status != string(application.StatusDraft) {
		t.Fatalf("create: %+v, %v", created, err)
	}
	question, err := w.store.QuestionInsert(ctx, db.QuestionInsertParams{Prompt: "Why?", Type: "text", Required: true})
	if err != nil {
		t.Fatal(err)
	}

	_, err = submit()
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.Invalid || len(e.Details) != 16 || e.Details["resume"] != "upload a resume" ||
		e.Details["answers."+question.ID.String()] != "is required" {
		t.Fatalf("submit of a fresh draft: %v (details %v)", err, e)
	}

	var patch application.Patch
	body := `{"phone":"+1 613 555 0100","discord":"ada","tshirt_size":"M","age":20,"country":"Canada",
		"university":"uOttawa","program":"CS","year_of_study":"2","experience_level":"beginner",
		"hackathons_attended":1,"q1_answer":"q1","q2_answer":"q2","coc_agreed":true,"info_share_authorized":true,
		"marketing_opt_in":true,"team_members":"bea@EXAMPLE.com","answers":{"` + question.ID.String() + `":" because "}}`
	if err := json.Unmarshal([]byte(body), &patch); err != nil {
		t.Fatal(err)
	}
	if err := patch.Validate().Err(); err != nil {
		t.Fatal(err)
	}
	view, err := tx(w, func(q *db.Queries) (application.View, error) { return application.Update(ctx, q, ada.ID, &patch) })
	if err != nil {
		t.Fatal(err)
	}
	if view.TeamMembers != "Bea@example.com" || view.Answers[question.ID.String()] != "because" {
		t.Fatalf("after the patch: team %q, answers %v", view.TeamMembers, view.Answers)
	}
	_, err = submit()
	if e, _ := apperr.As(err); e == nil || !maps.Equal(e.Details, map[string]string{"resume": "upload a resume"}) {
		t.Fatalf("submit without a resume: %v", err)
	}

	blob := &memBlob{}
	file, err := application.CheckResume(ada.ID, "My CV.pdf", []byte("%PDF-1.7\n"))
	if err != nil {
		t.Fatal(err)
	}
	if old, err := tx(w, func(q *db.Queries) (string, error) { return application.SetResume(ctx, q, blob, ada.ID, file) }); err != nil || old != "" {
		t.Fatalf("first resume: replaced %q, %v", old, err)
	}
	if _, ok := blob.objects[file.Key]; !ok {
		t.Fatalf("object %s not stored (have %v)", file.Key, blob.objects)
	}

	view, err = submit()
	if err != nil {
		t.Fatal(err)
	}
	if view.Status != string(application.StatusSubmitted) || view.SubmittedAt == nil || view.ResumeKey == nil || *view.ResumeKey != file.Key {
		t.Fatalf("submitted view %+v", view)
	}
	if n := w.count(`SELECT count(*) FROM profiles WHERE id = $1 AND marketing_opt_in`, ada.ID); n != 1 {
		t.Fatal("the opt-in did not reach the profile")
	}
	if _, err := submit(); !errors.Is(err, application.ErrAlreadySubmitted) {
		t.Fatalf("second submit: %v", err)
	}
	if _, err := tx(w, func(q *db.Queries) (application.View, error) { return application.Update(ctx, q, ada.ID, &patch) }); !errors.Is(err, application.ErrAlreadySubmitted) {
		t.Fatalf("patch after submit: %v", err)
	}
	if _, err := tx(w, func(q *db.Queries) (string, error) { return application.SetResume(ctx, q, blob, ada.ID, file) }); !errors.Is(err, application.ErrAlreadySubmitted) {
		t.Fatalf("resume after submit: %v", err)
	}
}

// TestResumeReplaced: a new resume under another name replaces the old
// one, whose key is returned for clean-up; the old key is no longer kept,
// the new one is.
func TestResumeReplaced(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	ada := w.user("ada", "member")
	if _, err := tx(w, func(q *db.Queries) (application.View, error) {
		return application.Create(ctx, q, nil, ada.ID, ada.Email, application.CreateRequest{ProfileID: ada.ID.String()})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := application.CheckResume(ada.ID, "cv.docx", []byte("%PDF-1.7\n")); !errors.Is(err, application.ErrResumeType) {
		t.Fatalf("a PDF named .docx: %v", err)
	}
	blob := &memBlob{}
	set := func(name string) string {
		t.Helper()
		f, err := application.CheckResume(ada.ID, name, []byte("%PDF-1.7\n"))
		if err != nil {
			t.Fatal(err)
		}
		old, err := tx(w, func(q *db.Queries) (string, error) { return application.SetResume(ctx, q, blob, ada.ID, f) })
		if err != nil {
			t.Fatal(err)
		}
		return old
	}
	set("a.pdf")
	if old := set("a.pdf"); old != "" {
		t.Fatalf("the same key again replaced %q", old)
	}
	old := set("b.pdf")
	if old != ada.ID.String()+"/a.pdf" {
		t.Fatalf("replaced %q, want a.pdf's key", old)
	}
	kept := func(key string) string {
		t.Helper()
		why, err := tx(w, func(q *db.Queries) (string, error) { return application.KeptResume(ctx, q, ada.ID, key) })
		if err != nil {
			t.Fatal(err)
		}
		return why
	}
	if why := kept(old); why != "" {
		t.Fatalf("the replaced resume is kept: %q", why)
	}
	if why := kept(ada.ID.String() + "/b.pdf"); why != "kept: it is the current resume" {
		t.Fatalf("the current resume: %q", why)
	}
	view, err := application.Resume(ctx, w.store.Queries, blob, nil, ada.ID)
	if err != nil || view.Resume == nil || view.Resume.Name != "b.pdf" || view.PreviewURL == nil || view.URL == nil {
		t.Fatalf("resume view %+v, %v", view, err)
	}
}

// TestDecide decides on batches: all or nothing, refused for a conflict
// of interest, an unknown id or an answered offer, and an offer batch says
// what its deadline workflow needs.
func TestDecide(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	admin := w.user("admin", "admin")
	actor := coi.Actor{ProfileID: admin.ID, Email: admin.Email}
	ana, ben := w.submitted("ana"), w.submitted("ben")
	decide := func(decision application.Decision, deadline *time.Time, ids ...uuid.UUID) (application.Decided, error) {
		req := application.DecisionRequest{Decision: decision}
		for _, id := range ids {
			req.ApplicationIDs = append(req.ApplicationIDs, id.String())
		}
		if deadline != nil {
			s := deadline.Format(time.RFC3339)
			req.RsvpDeadline = &s
		}
		if err := req.Validate().Err(); err != nil {
			t.Fatal(err)
		}
		return tx(w, func(q *db.Queries) (application.Decided, error) { return application.Decide(ctx, q, actor, &req) })
	}
	decisions := func() int {
		return w.count(`SELECT count(*) FROM applications WHERE decision IS NOT NULL`)
	}

	missing := uuid.New()
	if _, err := decide(application.DecisionReject, nil, ana, missing); code(err) != apperr.NotFound || decisions() != 0 {
		t.Fatalf("unknown id: %v, %d decided", err, decisions())
	}
	own := w.submitted("own")
	if _, err := w.store.Pool().Exec(ctx, `UPDATE applications SET profile_id = $1 WHERE id = $2`, admin.ID, own); err != nil {
		t.Fatal(err)
	}
	if _, err := decide(application.DecisionReject, nil, ana, own); code(err) != apperr.Forbidden || decisions() != 0 {
		t.Fatalf("own application: %v, %d decided", err, decisions())
	}

	deadline := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	d, err := decide(application.DecisionOffer, &deadline, ana, ben)
	if err != nil {
		t.Fatal(err)
	}
	if d.Updated != 2 || d.BatchID == uuid.Nil || d.Offers == nil || !d.Offers.Deadline.Equal(deadline) ||
		d.Offers.Window <= 47*time.Hour || d.Offers.Window > 48*time.Hour {
		t.Fatalf("offer batch %+v (offers %+v)", d, d.Offers)
	}
	if n := w.count(`SELECT count(*) FROM application_events WHERE kind = 'decision' AND detail->>'batch_id' = $1`, d.BatchID.String()); n != 2 {
		t.Fatalf("%d decision events, want 2", n)
	}
	if _, err := w.store.Pool().Exec(ctx, `UPDATE applications SET rsvp = 'attending', rsvp_at = now() WHERE id = $1`, ben); err != nil {
		t.Fatal(err)
	}
	_, err = decide(application.DecisionWaitlist, nil, ana, ben)
	if e, _ := apperr.As(err); e == nil || e.Details["application_ids"] != "already answered: "+ben.String() {
		t.Fatalf("an answered offer: %v", err)
	}
	w2, err := decide(application.DecisionWaitlist, nil, ana)
	if err != nil || w2.Updated != 1 || w2.Offers != nil {
		t.Fatalf("waitlist: %+v, %v", w2, err)
	}
}

// TestAnswerOffer answers an offer, changes the answer, repeats it, and is
// refused without an offer and after the deadline.
func TestAnswerOffer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	yes, no := true, false
	answer := func(profile uuid.UUID, attending *bool) (application.View, error) {
		return tx(w, func(q *db.Queries) (application.View, error) {
			return application.AnswerOffer(ctx, q, profile, application.RsvpRequest{Attending: attending})
		})
	}
	stranger := w.user("stranger", "member")
	if _, err := answer(stranger.ID, &yes); !errors.Is(err, application.ErrNoApplication) {
		t.Fatalf("no application: %v", err)
	}
	ana := w.submitted("ana")
	var profile uuid.UUID
	if err := w.store.Pool().QueryRow(ctx, `SELECT profile_id FROM applications WHERE id = $1`, ana).Scan(&profile); err != nil {
		t.Fatal(err)
	}
	if _, err := answer(profile, &yes); !errors.Is(err, application.ErrNoOffer) {
		t.Fatalf("no offer: %v", err)
	}
	if _, err := w.store.Pool().Exec(ctx, `UPDATE applications SET decision = 'offer', decided_at = now(), rsvp_deadline = now() + interval '1 hour' WHERE id = $1`, ana); err != nil {
		t.Fatal(err)
	}
	events := func() int {
		return w.count(`SELECT count(*) FROM application_events WHERE application_id = $1 AND kind = 'rsvp'`, ana)
	}
	for i, c := range []struct {
		attending *bool
		want      string
		events    int
	}{{&yes, "attending", 1}, {&yes, "attending", 1}, {&no, "declined", 2}} {
		v, err := answer(profile, c.attending)
		if err != nil || v.Rsvp == nil || *v.Rsvp != c.want || events() != c.events {
			t.Fatalf("answer %d: rsvp %v, %d events, %v; want %s and %d", i, v.Rsvp, events(), err, c.want, c.events)
		}
	}
	if _, err := w.store.Pool().Exec(ctx, `UPDATE applications SET rsvp_deadline = now() - interval '1 second' WHERE id = $1`, ana); err != nil {
		t.Fatal(err)
	}
	if _, err := answer(profile, &yes); code(err) != apperr.Conflict || errors.Is(err, application.ErrNoOffer) {
		t.Fatalf("after the deadline: %v", err)
	}
	if n := w.count(`SELECT count(*) FROM applications WHERE id = $1 AND rsvp = 'declined'`, ana); n != 1 {
		t.Fatal("a closed offer's answer changed")
	}
}
