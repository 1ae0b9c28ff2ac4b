package application_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/apperr"
)

// Copy copies an object, as storage.Store.Copy does.
func (b *memBlob) Copy(_ context.Context, src, dst string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.objects[src]
	if !ok {
		return errors.New("no such object")
	}
	b.objects[dst] = bytes.Clone(data)
	return nil
}

// closedErr checks that err is the window's 403 with the message.
func closedErr(t *testing.T, what string, err error, message string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.Forbidden || e.Title != "Applications are closed" || e.Message != message {
		t.Fatalf("%s: %v; want 403 Applications are closed: %s", what, err, message)
	}
}

// TestWindowRefusesEveryWrite: one second after the close (and before the
// opening) every write of an application is the 403 with the window's
// message, before any other check, and the draft is unchanged; reading
// stays open.
func TestWindowRefusesEveryWrite(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	ada, bea, cy := w.user("ada", "member"), w.user("bea", "member"), w.user("cy", "member")
	blob := &memBlob{}
	if _, err := tx(w, func(q *db.Queries) (application.View, error) {
		return application.Create(ctx, q, blob, ada.ID, ada.Email, application.CreateRequest{ProfileID: ada.ID.String()})
	}); err != nil {
		t.Fatal(err)
	}
	submitted := testenv.Application(t, w.store, cy.ID, testenv.ApplicationOpts{Submitted: true})
	before, err := w.store.ApplicationGetByProfile(ctx, ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	file, err := application.CheckResume(ada.ID, "cv.pdf", []byte("%PDF-1.7\n"))
	if err != nil {
		t.Fatal(err)
	}
	phone := "+1 709 555 0100"
	writes := func() map[string]error {
		patch := decodePatch(t, `{"phone":"`+phone+`"}`)
		out := map[string]error{}
		_, out["create"] = tx(w, func(q *db.Queries) (application.View, error) {
			return application.Create(ctx, q, blob, bea.ID, bea.Email, application.CreateRequest{ProfileID: bea.ID.String()})
		})
		// A second application would be 409; the window answers first.
		_, out["create again"] = tx(w, func(q *db.Queries) (application.View, error) {
			return application.Create(ctx, q, blob, ada.ID, ada.Email, application.CreateRequest{ProfileID: ada.ID.String()})
		})
		// Someone else's profile would be 403 Forbidden; the window first.
		_, out["create for another"] = tx(w, func(q *db.Queries) (application.View, error) {
			return application.Create(ctx, q, blob, bea.ID, bea.Email, application.CreateRequest{ProfileID: ada.ID.String()})
		})
		_, out["patch"] = tx(w, func(q *db.Queries) (application.View, error) { return application.Update(ctx, q, ada.ID, patch) })
		_, out["resume"] = tx(w, func(q *db.Queries) (string, error) { return application.SetResume(ctx, q, blob, ada.ID, file) })
		out["check before upload"] = application.CheckDraft(ctx, w.store.Queries, ada.ID)
		_, out["submit"] = tx(w, func(q *db.Queries) (application.View, error) { return application.Submit(ctx, q, ada.ID) })
		// Submitted would be 409; the window first.
		_, out["submit again"] = tx(w, func(q *db.Queries) (application.View, error) { return application.Submit(ctx, q, cy.ID) })
		return out
	}

	h := testenv.CurrentHackathon(t, w.store)
	for _, c := range []struct {
		name    string
		sql     string
		message string
	}{
		{"OneSecondAfterTheClose",
			`UPDATE hackathons SET name = 'HackMUN 2027', applications_open_at = $1::timestamptz - interval '30 days', applications_close_at = $1 WHERE current`,
			"Applications for HackMUN 2027 closed on "},
		{"BeforeTheOpening",
			`UPDATE hackathons SET applications_open_at = $1::timestamptz + interval '2 days', applications_close_at = NULL WHERE current`,
			"Applications for HackMUN 2027 open "},
	} {
		t.Run(c.name, func(t *testing.T) {
			at := time.Now().Add(-time.Second).UTC().Truncate(time.Second)
			if _, err := w.store.Pool().Exec(ctx, c.sql, at); err != nil {
				t.Fatal(err)
			}
			row, err := w.store.HackathonGet(ctx, h.ID)
			if err != nil {
				t.Fatal(err)
			}
			message := c.message + row.ApplicationsOpenAt.UTC().Format("2 January 2006 15:04 UTC")
			if row.ApplicationsCloseAt != nil {
				message = c.message + row.ApplicationsCloseAt.UTC().Format("2 January 2006 15:04 UTC")
			}
			for what, err := range writes() {
				closedErr(t, what, err, message)
			}
			after, err := w.store.ApplicationGetByProfile(ctx, ada.ID)
			if err != nil || !after.UpdatedAt.Equal(before.UpdatedAt) || after.Phone != nil || after.ResumeKey != nil || after.Status != "draft" {
				t.Fatalf("the draft changed: %+v", after)
			}
			if n := w.count(`SELECT count(*) FROM applications WHERE profile_id = $1`, bea.ID); n != 0 {
				t.Fatalf("bea has %d applications", n)
			}
			if len(blob.objects) != 0 {
				t.Fatalf("objects stored: %v", blob.objects)
			}
			if v, err := application.Owner(ctx, w.store.Queries, cy.ID); err != nil || v == nil || v.ID != submitted.ID {
				t.Fatalf("a submitted application is no longer readable: %+v, %v", v, err)
			}
		})
	}
}

// TestSubmitRacingTheClose submits drafts around the close, concurrently:
// each is accepted before the close, whole (submitted before it, its
// selection and the marketing opt-in written), or refused after it with
// nothing written; never half.
func TestSubmitRacingTheClose(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	term := testenv.Term(t, w.store, testenv.TermOpts{})
	pos := testenv.Position(t, w.store, term.ID, testenv.PositionOpts{})
	const n = 24
	profiles := make([]uuid.UUID, n)
	for i := range profiles {
		p := testenv.Account(t, w.store, testenv.AccountOpts{NoPassword: true})
		testenv.Application(t, w.store, p.ID, testenv.ApplicationOpts{MarketingOptIn: true, PositionIDs: []uuid.UUID{pos.ID}})
		profiles[i] = p.ID
	}
	var closes time.Time
	if err := w.store.Pool().QueryRow(ctx, `
		UPDATE hackathons SET applications_close_at = now() + interval '1.2 seconds' WHERE current
		RETURNING applications_close_at`).Scan(&closes); err != nil {
		t.Fatal(err)
	}
	results := make([]error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i, p := range profiles {
		wg.Go(func() {
			// Spread over the 2.4 s around the close.
			time.Sleep(time.Until(start.Add(time.Duration(i) * 100 * time.Millisecond)))
			_, results[i] = tx(w, func(q *db.Queries) (application.View, error) { return application.Submit(ctx, q, p) })
		})
	}
	wg.Wait()
	var accepted, refused int
	for i, p := range profiles {
		a, err := w.store.ApplicationGetByProfile(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		selections := w.count(`SELECT count(*) FROM selections WHERE application_id = $1`, a.ID)
		optedIn := w.count(`SELECT count(*) FROM profiles WHERE id = $1 AND marketing_opt_in`, p)
		switch e, _ := apperr.As(results[i]); {
		case results[i] == nil:
			accepted++
			if a.Status != "submitted" || a.SubmittedAt == nil || !a.SubmittedAt.Before(closes) || selections != 1 || optedIn != 1 {
				t.Errorf("accepted %d: %s at %v (close %v), %d selections, opt-in %d", i, a.Status, a.SubmittedAt, closes, selections, optedIn)
			}
		case e != nil && e.Title == "Applications are closed":
			refused++
			if a.Status != "draft" || a.SubmittedAt != nil || selections != 0 || optedIn != 0 {
				t.Errorf("refused %d, yet half written: %s, %d selections, opt-in %d", i, a.Status, selections, optedIn)
			}
		default:
			t.Errorf("submit %d: %v", i, results[i])
		}
	}
	if accepted == 0 || refused == 0 {
		t.Fatalf("%d accepted, %d refused: the submissions did not straddle the close", accepted, refused)
	}
}

// TestCopyFrom starts the current edition's application from last year's:
// the profile-like fields and a copy of the résumé object under a key of
// its own; never the answers, team, positions or agreements. Someone
// else's application (or none) is 403, the current edition's 409.
func TestCopyFrom(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	ada, bea, mate := w.user("ada", "member"), w.user("bea", "member"), w.user("mate", "member")
	last := testenv.CurrentHackathon(t, w.store)
	term := testenv.Term(t, w.store, testenv.TermOpts{})
	pos := testenv.Position(t, w.store, term.ID, testenv.PositionOpts{})
	old := testenv.Application(t, w.store, ada.ID, testenv.ApplicationOpts{Submitted: true, TeamMembers: mate.Email,
		MarketingOptIn: true, PositionIDs: []uuid.UUID{pos.ID}})
	beas := testenv.Application(t, w.store, bea.ID, testenv.ApplicationOpts{Submitted: true})
	blob := &memBlob{objects: map[string][]byte{*old.ResumeKey: []byte("%PDF-1.7 ada's\n")}}
	this := testenv.Hackathon(t, w.store, testenv.HackathonOpts{Name: "This year", Current: true})

	create := func(me db.Profile, from *uuid.UUID) (application.View, error) {
		req := application.CreateRequest{ProfileID: me.ID.String()}
		if from != nil {
			s := from.String()
			req.CopyFrom = &s
		}
		if err := req.Validate().Err(); err != nil {
			t.Fatal(err)
		}
		return tx(w, func(q *db.Queries) (application.View, error) {
			return application.Create(ctx, q, blob, me.ID, me.Email, req)
		})
	}
	for name, from := range map[string]uuid.UUID{"SomeoneElses": beas.ID, "Unknown": uuid.New()} {
		if _, err := create(ada, &from); code(err) != apperr.Forbidden {
			t.Fatalf("%s: %v, want 403", name, err)
		}
	}
	v, err := create(ada, &old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.HackathonID != this.ID || v.Status != "draft" || v.Email == nil || *v.Email != *old.Email || *v.Phone != *old.Phone ||
		*v.Discord != *old.Discord || *v.University != *old.University || *v.Age != *old.Age || *v.HackathonsAttended != 1 {
		t.Fatalf("copied fields %+v", v)
	}
	if v.Q1Answer != nil || v.Q2Answer != nil || v.TeamMembers != "" || len(v.PositionIDs) != 0 || v.CocAgreed ||
		v.InfoShareAuthorized || v.MarketingOptIn || len(v.Answers) != 0 {
		t.Fatalf("copied what must not be: %+v", v)
	}
	wantKey := ada.ID.String() + "/cv-2.pdf"
	if v.ResumeKey == nil || *v.ResumeKey != wantKey || !bytes.Equal(blob.objects[wantKey], blob.objects[*old.ResumeKey]) {
		t.Fatalf("resume key %v, objects %v", v.ResumeKey, blob.objects)
	}
	if _, err := create(ada, &old.ID); code(err) != apperr.Conflict {
		t.Fatalf("a second application this year: %v", err)
	}
	// Bea's draft of this year named as her copy_from: 409.
	if _, err := create(bea, nil); err != nil {
		t.Fatal(err)
	}
	beaNow, err := w.store.ApplicationGetByProfile(ctx, bea.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := create(bea, &beaNow.ID); code(err) != apperr.Conflict {
		t.Fatalf("copy from the current edition: %v", err)
	}

	t.Run("UploadsKeepEachApplicationsObject", func(t *testing.T) {
		upload := func(name string) application.StoredResume {
			f, err := application.CheckResume(ada.ID, name, []byte("%PDF-1.7 "+name+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			out, err := tx(w, func(q *db.Queries) (application.StoredResume, error) {
				return application.StoreResume(ctx, q, blob, ada.ID, f)
			})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		// cv.pdf is last year's: this one stays at cv-2.pdf, in place.
		if got := upload("cv.pdf"); got.Key != wantKey || got.Replaced != "" {
			t.Fatalf("cv.pdf again: %+v", got)
		}
		if string(blob.objects[*old.ResumeKey]) != "%PDF-1.7 ada's\n" {
			t.Fatal("last year's object was overwritten")
		}
		got := upload("new.pdf")
		if got.Key != ada.ID.String()+"/new.pdf" || got.Replaced != wantKey {
			t.Fatalf("new.pdf: %+v", got)
		}
		kept := func(key string) string {
			why, err := tx(w, func(q *db.Queries) (string, error) { return application.KeptResume(ctx, q, ada.ID, key) })
			if err != nil {
				t.Fatal(err)
			}
			return why
		}
		if kept(*old.ResumeKey) == "" || kept(wantKey) != "" || kept(got.Key) == "" {
			t.Fatalf("kept: last year's %q, replaced %q, current %q", kept(*old.ResumeKey), kept(wantKey), kept(got.Key))
		}
	})

	t.Run("History", func(t *testing.T) {
		testenv.Decide(t, w.store, old.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
		got, err := application.History(ctx, w.store.Queries, ada.ID)
		if err != nil || len(got) != 1 || got[0].ID != old.ID || got[0].Hackathon.ID != last.ID || got[0].Hackathon.Name != last.Name ||
			got[0].Status != "submitted" || *got[0].Decision != "offer" || *got[0].Rsvp != "attending" || got[0].SubmittedAt == nil {
			t.Fatalf("history %+v, %v", got, err)
		}
		none, err := application.History(ctx, w.store.Queries, mate.ID)
		if err != nil || none == nil || len(none) != 0 {
			t.Fatalf("mate's history %+v, %v", none, err)
		}
	})
}

// TestRsvpInWhateverEdition: the RSVP answers the caller's open offer,
// last year's included, while this year's application is a draft.
func TestRsvpInWhateverEdition(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	ada := w.user("ada", "member")
	old := testenv.Application(t, w.store, ada.ID, testenv.ApplicationOpts{Submitted: true})
	testenv.Decide(t, w.store, old.ID, testenv.Decision{Decision: "offer"})
	testenv.Hackathon(t, w.store, testenv.HackathonOpts{Current: true})
	draft := testenv.Application(t, w.store, ada.ID, testenv.ApplicationOpts{})
	yes := true
	v, err := tx(w, func(q *db.Queries) (application.View, error) {
		return application.AnswerOffer(ctx, q, ada.ID, application.RsvpRequest{Attending: &yes})
	})
	if err != nil || v.ID != old.ID || v.Rsvp == nil || *v.Rsvp != "attending" {
		t.Fatalf("answered %+v, %v", v, err)
	}
	if _, err := w.store.Pool().Exec(ctx, `UPDATE applications SET rsvp_deadline = now() - interval '1 second' WHERE id = $1`, old.ID); err != nil {
		t.Fatal(err)
	}
	_, err = tx(w, func(q *db.Queries) (application.View, error) {
		return application.AnswerOffer(ctx, q, ada.ID, application.RsvpRequest{Attending: &yes})
	})
	if !errors.Is(err, application.ErrNoOffer) {
		t.Fatalf("no open offer left (this year's %s is a draft): %v", draft.ID, err)
	}
}

// TestDecisionsPerEdition: a batch is scoped to its edition, and a batch
// of offers is held to the edition's capacity unless allowed past it.
func TestDecisionsPerEdition(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	admin := w.user("admin", "admin")
	actor := coi.Actor{ProfileID: admin.ID, Email: admin.Email}
	last := testenv.CurrentHackathon(t, w.store)
	old := w.submitted("old")
	one := int32(1)
	this := testenv.Hackathon(t, w.store, testenv.HackathonOpts{Capacity: &one, Current: true})
	a, b := w.submitted("ana"), w.submitted("ben")
	deadline := time.Now().Add(48 * time.Hour).Format(time.RFC3339)
	decide := func(edition uuid.UUID, allow bool, ids ...uuid.UUID) error {
		req := application.DecisionRequest{Decision: application.DecisionOffer, RsvpDeadline: &deadline,
			AllowOverCapacity: allow, HackathonID: edition}
		for _, id := range ids {
			req.ApplicationIDs = append(req.ApplicationIDs, id.String())
		}
		if err := req.Validate().Err(); err != nil {
			t.Fatal(err)
		}
		_, err := tx(w, func(q *db.Queries) (application.Decided, error) { return application.Decide(ctx, q, actor, &req) })
		return err
	}
	if err := decide(uuid.Nil, false, old); code(err) != apperr.NotFound {
		t.Fatalf("last year's application in this year's batch: %v", err)
	}
	if err := decide(last.ID, false, old); err != nil {
		t.Fatalf("last year's application in last year's batch: %v", err)
	}
	err := decide(this.ID, false, a, b)
	if e, _ := apperr.As(err); e == nil || e.Code != apperr.Conflict || e.Message != "2 offers and attending would pass the capacity of 1" {
		t.Fatalf("over capacity: %v", err)
	}
	if n := w.count(`SELECT count(*) FROM applications WHERE hackathon_id = $1 AND decision IS NOT NULL`, this.ID); n != 0 {
		t.Fatalf("%d decided after the refusal", n)
	}
	if err := decide(uuid.Nil, true, a, b); err != nil {
		t.Fatalf("allowed over capacity: %v", err)
	}
}

// TestPromoteWaitlistPerEdition: places freed by last year's expired
// offers go to last year's waitlist, not this year's.
func TestPromoteWaitlistPerEdition(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	admin := w.user("admin", "admin")
	actor := coi.Actor{ProfileID: admin.ID, Email: admin.Email}
	offered, waiting := w.submitted("offered"), w.submitted("waiting")
	deadline := time.Now().Add(time.Hour).Format(time.RFC3339)
	req := application.DecisionRequest{Decision: application.DecisionOffer, RsvpDeadline: &deadline, ApplicationIDs: []string{offered.String()}}
	if err := req.Validate().Err(); err != nil {
		t.Fatal(err)
	}
	batch, err := tx(w, func(q *db.Queries) (application.Decided, error) { return application.Decide(ctx, q, actor, &req) })
	if err != nil {
		t.Fatal(err)
	}
	this := testenv.Hackathon(t, w.store, testenv.HackathonOpts{Current: true})
	early := w.submitted("early")
	testenv.Decide(t, w.store, early, testenv.Decision{Decision: "waitlist"})
	time.Sleep(10 * time.Millisecond)
	testenv.Decide(t, w.store, waiting, testenv.Decision{Decision: "waitlist"})
	promo := uuid.New()
	n, err := tx(w, func(q *db.Queries) (int, error) {
		return application.PromoteWaitlist(ctx, q, application.PromoteInput{BatchID: promo, Places: 1,
			Deadline: time.Now().Add(time.Hour), FromBatch: batch.BatchID})
	})
	if err != nil || n != 1 {
		t.Fatalf("promoted %d, %v", n, err)
	}
	if got := w.count(`SELECT count(*) FROM applications WHERE id = $1 AND decision = 'offer'`, waiting); got != 1 {
		t.Fatal("last year's waitlisted application was not offered the place")
	}
	if got := w.count(`SELECT count(*) FROM applications WHERE hackathon_id = $1 AND decision = 'offer'`, this.ID); got != 0 {
		t.Fatalf("this year's waitlist took last year's place (%s waited first)", early)
	}
}

func decodePatch(t *testing.T, body string) *application.Patch {
	t.Helper()
	var p application.Patch
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate().Err(); err != nil {
		t.Fatal(err)
	}
	return &p
}

func TestResumeKeyFor(t *testing.T) {
	t.Parallel()
	p := uuid.MustParse("6f1c0f9e-1111-4a4a-8b8b-000000000001")
	base := p.String() + "/"
	for _, c := range []struct {
		name string
		held []string
		want string
	}{
		{"cv.pdf", nil, "cv.pdf"},
		{"cv.pdf", []string{"cv.pdf"}, "cv-2.pdf"},
		{"cv.pdf", []string{"cv.pdf", "cv-2.pdf"}, "cv-3.pdf"},
		{"cv.pdf", []string{"cv-2.pdf"}, "cv.pdf"},
		{"My_CV.v2.docx", []string{"My_CV.v2.docx"}, "My_CV.v2-2.docx"},
	} {
		held := map[string]bool{}
		for _, h := range c.held {
			held[base+h] = true
		}
		if got := application.ResumeKeyFor(p, c.name, held); got != base+c.want {
			t.Errorf("%s with %v held: %s, want %s", c.name, c.held, got, base+c.want)
		}
	}
}
