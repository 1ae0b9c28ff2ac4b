package privacy_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/storage"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is a database and the shared bucket.
func stack(t *testing.T) (*db.Store, *storage.Store) {
	t.Helper()
	cfg := testenv.Config(t)
	s, err := db.Open(context.Background(), cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, storage.New(cfg)
}

func inTx[T any](t *testing.T, s *db.Store, fn func(q *db.Queries) (T, error)) (T, error) {
	t.Helper()
	var out T
	err := s.InTx(context.Background(), func(q *db.Queries) (err error) {
		out, err = fn(q)
		return err
	})
	return out, err
}

// dueNow moves an account's end of grace into the past.
func dueNow(t *testing.T, s *db.Store, id uuid.UUID) {
	t.Helper()
	if _, err := s.Pool().Exec(context.Background(),
		`UPDATE profiles SET erase_at = now() - interval '1 second', erase_requested_at = now() - interval '1 hour' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
}

func TestRequestErasure(t *testing.T) {
	t.Parallel()
	s, _ := stack(t)
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		p := testenv.Account(t, s, testenv.AccountOpts{})
		tok, _ := testenv.Session(t, s, p.ID, testenv.SessionOpts{})
		sch, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
			return privacy.RequestErasure(ctx, q, p.ID, 7*24*time.Hour)
		})
		if err != nil || !sch.New {
			t.Fatalf("RequestErasure: %+v, %v", sch, err)
		}
		if d := time.Until(sch.EraseAt); d < 7*24*time.Hour-time.Minute || d > 7*24*time.Hour+time.Minute {
			t.Errorf("erase_at %v is not a week ahead", sch.EraseAt)
		}
		// The session ends at once.
		if _, err := s.SessionPrincipal(ctx, hashToken(tok)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("the session still holds: %v", err)
		}
		// Asking again keeps the date and starts nothing.
		again, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
			return privacy.RequestErasure(ctx, q, p.ID, time.Hour)
		})
		if err != nil || again.New || !again.EraseAt.Equal(sch.EraseAt) {
			t.Errorf("again: %+v, %v; want the same date, not new", again, err)
		}
		// Keep cancels it; a second Keep finds nothing scheduled.
		kept, err := inTx(t, s, func(q *db.Queries) (bool, error) { return privacy.Keep(ctx, q, p.ID) })
		if err != nil || !kept {
			t.Fatalf("Keep: %v, %v", kept, err)
		}
		kept, err = inTx(t, s, func(q *db.Queries) (bool, error) { return privacy.Keep(ctx, q, p.ID) })
		if err != nil || kept {
			t.Errorf("Keep again: %v, %v; want false", kept, err)
		}
	})

	t.Run("ErrLastSuperadmin", func(t *testing.T) {
		su := testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin"})
		_, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
			return privacy.RequestErasure(ctx, q, su.ID, time.Hour)
		})
		if !errors.Is(err, privacy.ErrLastSuperadmin) {
			t.Fatalf("err %v, want ErrLastSuperadmin", err)
		}
		st, _ := privacy.StateOf(ctx, s.Queries, su.ID)
		if st.State != privacy.StateNone {
			t.Errorf("state %s after a refusal", st.State)
		}
		// With another superadmin it may go.
		testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin"})
		if _, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
			return privacy.RequestErasure(ctx, q, su.ID, time.Hour)
		}); err != nil {
			t.Errorf("with another superadmin: %v", err)
		}
	})

	t.Run("ErrHiringExec", func(t *testing.T) {
		term := testenv.Term(t, s, testenv.TermOpts{StartsOn: time.Date(2090, 9, 1, 0, 0, 0, 0, time.UTC)})
		p := testenv.Account(t, s, testenv.AccountOpts{})
		testenv.ExecRole(t, s, p.ID, testenv.ExecRoleOpts{Term: &term.ID})
		_, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
			return privacy.RequestErasure(ctx, q, p.ID, time.Hour)
		})
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Code != apperr.Conflict || ae.Title != "Account cannot be deleted" {
			t.Fatalf("err %v, want 409 Account cannot be deleted", err)
		}
	})

	t.Run("ErrKeepWhileErasing", func(t *testing.T) {
		p := testenv.Account(t, s, testenv.AccountOpts{})
		if _, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
			return privacy.RequestErasure(ctx, q, p.ID, time.Hour)
		}); err != nil {
			t.Fatal(err)
		}
		// Not due yet: Begin waits.
		b, err := inTx(t, s, func(q *db.Queries) (privacy.Begun, error) { return privacy.Begin(ctx, q, p.ID) })
		if err != nil || b.State != privacy.StateScheduled {
			t.Fatalf("Begin before the date: %+v, %v", b, err)
		}
		dueNow(t, s, p.ID)
		b, err = inTx(t, s, func(q *db.Queries) (privacy.Begun, error) { return privacy.Begin(ctx, q, p.ID) })
		if err != nil || b.State != privacy.StateErasing || b.Email != p.Email {
			t.Fatalf("Begin when due: %+v, %v", b, err)
		}
		if _, err := inTx(t, s, func(q *db.Queries) (bool, error) { return privacy.Keep(ctx, q, p.ID) }); !errors.Is(err, privacy.ErrErasing) {
			t.Errorf("Keep while erasing: %v, want ErrErasing", err)
		}
	})

	t.Run("RefusedAtBegin", func(t *testing.T) {
		// The only other superadmin is gone by the time the grace ends.
		a := testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin"})
		b := testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin"})
		for _, id := range []uuid.UUID{a.ID} {
			if _, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
				return privacy.RequestErasure(ctx, q, id, time.Hour)
			}); err != nil {
				t.Fatal(err)
			}
		}
		// Every other superadmin (those of the other subtests too) steps down.
		if _, err := s.Pool().Exec(ctx, `UPDATE profiles SET role = 'admin' WHERE role = 'superadmin' AND id <> $1`, a.ID); err != nil {
			t.Fatal(err)
		}
		_ = b
		dueNow(t, s, a.ID)
		got, err := inTx(t, s, func(q *db.Queries) (privacy.Begun, error) { return privacy.Begin(ctx, q, a.ID) })
		if err != nil || got.Refused == "" || got.State != privacy.StateNone {
			t.Fatalf("Begin: %+v, %v; want refused and cancelled", got, err)
		}
	})
}

func hashToken(tok string) []byte { return auth.HashToken(tok) }

func testenvLogger(t *testing.T) *slog.Logger { return testenv.Logger(t) }

// readZip reads every entry of a ZIP.
func readZip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a ZIP: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = data
	}
	return out
}

// TestErasure runs every step on a person with something of everything,
// then scans every text column of every table for them: nothing is left
// but the tombstone's id.
func TestErasure(t *testing.T) {
	t.Parallel()
	s, blob := stack(t)
	ctx := context.Background()
	const (
		email = "ada.erase@example.org"
		name  = "Ada Erasable"
		phone = "+1 613 555 0142"
	)
	p := testenv.Account(t, s, testenv.AccountOpts{Email: email, Name: name})
	other := testenv.Account(t, s, testenv.AccountOpts{})
	staff := testenv.Account(t, s, testenv.AccountOpts{Role: "admin"})

	// Two editions' applications, one with an open offer and an answer to a
	// question; a teammate lists the person.
	old := testenv.Hackathon(t, s, testenv.HackathonOpts{})
	oldApp := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: old.ID,
		ResumeName: "Ada_Erasable_CV.pdf"})
	app := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, ResumeName: "Ada_Erasable_CV-2.pdf"})
	if _, err := s.Pool().Exec(ctx, `UPDATE applications SET phone = $2 WHERE profile_id = $1`, p.ID, phone); err != nil {
		t.Fatal(err)
	}
	q1 := testenv.Question(t, s, testenv.QuestionOpts{})
	if err := s.AnswerUpsert(ctx, db.AnswerUpsertParams{ApplicationID: app.ID, QuestionID: q1.ID, Answer: "I am " + name}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(48 * time.Hour)
	testenv.Decide(t, s, app.ID, testenv.Decision{Decision: "offer", RsvpDeadline: &deadline})
	mate := testenv.Application(t, s, other.ID, testenv.ApplicationOpts{Submitted: true, TeamMembers: "x@example.com," + strings.ToUpper(email)})
	testenv.Review(t, s, app.ID, staff.ID)
	for _, a := range []db.Application{oldApp, app} {
		if err := blob.Put(ctx, *a.ResumeKey, "application/pdf", bytes.NewReader([]byte("%PDF-1.4")), 8); err != nil {
			t.Fatal(err)
		}
	}
	// A replaced résumé not yet cleaned up sits under the same prefix.
	stale := p.ID.String() + "/Ada_Erasable_old.pdf"
	if err := blob.Put(ctx, stale, "application/pdf", bytes.NewReader([]byte("%PDF-1.4")), 8); err != nil {
		t.Fatal(err)
	}
	// Onboarding with a headshot, sessions, a token, emails, a receipt,
	// an outbox row naming the résumé key, a broadcast place, an access
	// log row about them.
	term := testenv.Term(t, s, testenv.TermOpts{})
	headshot := "headshots/" + term.ID.String() + "/onboarding/" + p.ID.String() + ".png"
	if err := blob.Put(ctx, headshot, "image/png", bytes.NewReader([]byte("png")), 3); err != nil {
		t.Fatal(err)
	}
	testenv.ExecForm(t, s, term.ID, p.ID, testenv.ExecFormOpts{DisplayName: name, Email: email, HeadshotKey: headshot})
	testenv.Session(t, s, p.ID, testenv.SessionOpts{})
	rc := testenv.Receipt(t, s, testenv.ReceiptOpts{Status: "processed", Sample: receipttest.Sample{Email: email}})
	testenv.Membership(t, s, p.ID, term.ID, testenv.MembershipOpts{Paid: true, Method: "shop", Receipt: &rc.ID})
	if _, err := mail.Record(ctx, s.Queries, "test:"+p.ID.String(), "notice", email,
		map[string]string{"subject": "Hello " + name, "body": "Dear " + name}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool().Exec(ctx, `INSERT INTO workflow_starts (workflow_id, type, input, kind, subject, summary, started_at, run_id)
		VALUES ('resume-cleanup:x', 'ResumeCleanup', jsonb_build_object('OldKey', $1::text), 'resume', 'x', 'x', now(), 'r')`,
		*oldApp.ResumeKey); err != nil {
		t.Fatal(err)
	}
	bc := uuid.New()
	if _, err := s.Pool().Exec(ctx, `INSERT INTO broadcasts (id, subject, body, audience_kind, marketing, total, workflow_id, created_by)
		VALUES ($1, 'News', 'Body', 'execs', false, 1, 'broadcast:x', $2)`, bc, staff.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool().Exec(ctx, `INSERT INTO broadcast_recipients (broadcast_id, seq, profile_id, email) VALUES ($1, 1, $2, $3)`,
		bc, p.ID, email); err != nil {
		t.Fatal(err)
	}
	if err := privacy.LogAccess(ctx, s.Queries, privacy.Actor{ProfileID: staff.ID, Role: "admin"}, privacy.ActionApplicationView,
		privacy.Read{Subject: p.ID, Object: app.ID}); err != nil {
		t.Fatal(err)
	}
	needles := []string{email, name, phone, "Ada_Erasable", "Erasable"}
	if hits := testenv.ScanDatabase(t, s, needles...); len(hits) < 8 {
		t.Fatalf("the scan finds too little before the erasure (it would prove nothing): %v", hits)
	}

	// The erasure, step by step, each run twice (each is safe to repeat).
	if _, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
		return privacy.RequestErasure(ctx, q, p.ID, time.Hour)
	}); err != nil {
		t.Fatal(err)
	}
	dueNow(t, s, p.ID)
	b, err := inTx(t, s, func(q *db.Queries) (privacy.Begun, error) { return privacy.Begin(ctx, q, p.ID) })
	if err != nil || b.State != privacy.StateErasing {
		t.Fatalf("Begin: %+v %v", b, err)
	}
	// From now on an email to them is recorded suppressed.
	if _, err := mail.Record(ctx, s.Queries, "late:"+p.ID.String(), "notice", email,
		map[string]string{"subject": "Late " + name, "body": "late"}); err != nil {
		t.Fatal(err)
	}
	if e, err := s.EmailGetByKey(ctx, "late:"+p.ID.String()); err != nil || e.Status != "failed" || e.ToAddress != "" {
		t.Errorf("an email recorded after the erasure began: %+v, %v", e, err)
	}
	sub := privacy.Subject{ProfileID: p.ID, Email: b.Email}
	for range 2 {
		keys, err := privacy.ErasureObjects(ctx, s.Queries, blob, sub)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := privacy.DeleteAll(ctx, blob, keys); err != nil {
			t.Fatal(err)
		}
		if _, err := inTx(t, s, func(q *db.Queries) (int, error) { return privacy.EraseApplications(ctx, q, sub) }); err != nil {
			t.Fatal(err)
		}
		if _, err := inTx(t, s, func(q *db.Queries) (privacy.Erased, error) { return privacy.EraseRecords(ctx, q, sub) }); err != nil {
			t.Fatal(err)
		}
		if _, err := privacy.EraseEmails(ctx, s.Queries, sub); err != nil {
			t.Fatal(err)
		}
		if _, err := inTx(t, s, func(q *db.Queries) (int, error) { return privacy.Tombstone(ctx, q, sub) }); err != nil {
			t.Fatal(err)
		}
	}

	if hits := testenv.ScanDatabase(t, s, needles...); len(hits) > 0 {
		t.Errorf("left after the erasure:\n%s", strings.Join(hits, "\n"))
	}
	for _, k := range []string{*oldApp.ResumeKey, *app.ResumeKey, stale, headshot} {
		if ok, err := blob.Exists(ctx, k); err != nil || ok {
			t.Errorf("object %s still there (%v)", k, err)
		}
	}
	var tomb db.Profile
	if err := s.Pool().QueryRow(ctx, `SELECT email, display_name, erased_at IS NOT NULL FROM profiles WHERE id = $1`, p.ID).
		Scan(&tomb.Email, &tomb.DisplayName, new(bool)); err != nil {
		t.Fatal(err)
	}
	if tomb.Email != privacy.ErasedEmail(p.ID) || tomb.DisplayName != nil {
		t.Errorf("tombstone %q %v", tomb.Email, tomb.DisplayName)
	}
	// The open offer counts as declined; the review and the counters stay.
	got, err := s.ApplicationGet(ctx, app.ID)
	if err != nil || got.Rsvp == nil || *got.Rsvp != "declined" || got.ErasedAt == nil || got.ReviewCount != 1 || got.Status != "submitted" {
		t.Errorf("erased application: %+v, %v", got, err)
	}
	if got, _ := s.ApplicationGet(ctx, mate.ID); got.TeamMembers != "x@example.com" {
		t.Errorf("the teammate's list is %q", got.TeamMembers)
	}
	// It leaves the queue and the admin table.
	if _, err := review.LoadView(ctx, s.Queries, blob, nil, app.ID); !errors.Is(err, review.ErrApplicationNotFound) {
		t.Errorf("the erased application's details: %v", err)
	}
	// The email may sign up again as a new person.
	testenv.Account(t, s, testenv.AccountOpts{Email: email})
}

// An erasure racing a broadcast batch: the batch that reads the person
// before the erasure begins records nothing after it; the person's place
// is skipped.
func TestErasureSkipsBroadcastPlace(t *testing.T) {
	t.Parallel()
	s, _ := stack(t)
	ctx := context.Background()
	staff := testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin"})
	p := testenv.Account(t, s, testenv.AccountOpts{})
	bc := uuid.New()
	if _, err := s.Pool().Exec(ctx, `INSERT INTO broadcasts (id, subject, body, audience_kind, marketing, total, workflow_id, created_by)
		VALUES ($1, 'News', 'Body', 'execs', false, 1, 'broadcast:y', $2)`, bc, staff.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool().Exec(ctx, `INSERT INTO broadcast_recipients (broadcast_id, seq, profile_id, email) VALUES ($1, 1, $2, $3)`,
		bc, p.ID, p.Email); err != nil {
		t.Fatal(err)
	}
	if _, err := inTx(t, s, func(q *db.Queries) (privacy.Scheduled, error) {
		return privacy.RequestErasure(ctx, q, p.ID, time.Hour)
	}); err != nil {
		t.Fatal(err)
	}
	dueNow(t, s, p.ID)
	b, err := inTx(t, s, func(q *db.Queries) (privacy.Begun, error) { return privacy.Begin(ctx, q, p.ID) })
	if err != nil {
		t.Fatal(err)
	}
	// The batch loaded its recipients before: it records a suppressed
	// email under the person's key.
	rows, err := s.BroadcastBatchLoad(ctx, db.BroadcastBatchLoadParams{BroadcastID: bc, First: 1, Last: 1})
	if err != nil || len(rows) != 1 {
		t.Fatalf("batch: %v %v", rows, err)
	}
	if _, err := inTx(t, s, func(q *db.Queries) (privacy.Erased, error) {
		return privacy.EraseRecords(ctx, q, privacy.Subject{ProfileID: p.ID, Email: b.Email})
	}); err != nil {
		t.Fatal(err)
	}
	var status, addr string
	var skipped int
	if err := s.Pool().QueryRow(ctx, `SELECT r.status, r.email, b.skipped FROM broadcast_recipients r JOIN broadcasts b ON b.id = r.broadcast_id WHERE r.broadcast_id = $1`, bc).
		Scan(&status, &addr, &skipped); err != nil {
		t.Fatal(err)
	}
	if status != "skipped" || addr != "" || skipped != 1 {
		t.Errorf("recipient %s %q, broadcast skipped %d; want skipped, blank, 1", status, addr, skipped)
	}
}

func TestRetention(t *testing.T) {
	t.Parallel()
	s, blob := stack(t)
	ctx := context.Background()
	const days = 30
	// An edition that ended 31 days ago, one that ended 29 days ago.
	ended := time.Now().Add(-31 * 24 * time.Hour)
	opens := ended.Add(-60 * 24 * time.Hour)
	closes, starts := opens.Add(20*24*time.Hour), opens.Add(30*24*time.Hour)
	past := testenv.Hackathon(t, s, testenv.HackathonOpts{OpensAt: opens, ClosesAt: &closes, StartsAt: &starts, EndsAt: &ended})
	recentEnd := time.Now().Add(-29 * 24 * time.Hour)
	recent := testenv.Hackathon(t, s, testenv.HackathonOpts{OpensAt: opens, ClosesAt: &closes, StartsAt: &starts, EndsAt: &recentEnd})
	reviewer := testenv.Account(t, s, testenv.AccountOpts{Role: "admin"})
	var keys []string
	for i := range 3 {
		p := testenv.Account(t, s, testenv.AccountOpts{})
		a := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: past.ID})
		testenv.Review(t, s, a.ID, reviewer.ID, int32(i%3), 1, 5, 2)
		if i == 0 {
			testenv.Decide(t, s, a.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
		}
		keys = append(keys, *a.ResumeKey)
		if err := blob.Put(ctx, *a.ResumeKey, "application/pdf", bytes.NewReader([]byte("%PDF-1.4")), 8); err != nil {
			t.Fatal(err)
		}
		testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: recent.ID, ResumeName: "cv-2.pdf"})
	}
	dashboard := func() (review.Dashboard, review.BoardResult) {
		d, err := review.LoadDashboard(ctx, s.Queries, past, 24)
		if err != nil {
			t.Fatal(err)
		}
		return d, review.Board(ctx, s.Queries, nil, past.ID)
	}
	countsBefore, lbBefore := dashboard()

	var purged int
	for {
		items, err := privacy.ApplicationsDue(ctx, s.Queries, time.Now(), days)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) == 0 {
			break
		}
		if _, err := privacy.DeleteAll(ctx, blob, privacy.Keys(items)); err != nil {
			t.Fatal(err)
		}
		n, err := inTx(t, s, func(q *db.Queries) (int, error) { return privacy.PurgeApplications(ctx, q, items) })
		if err != nil {
			t.Fatal(err)
		}
		purged += n
	}
	if purged != 3 {
		t.Errorf("purged %d applications, want the past edition's 3", purged)
	}
	countsAfter, lbAfter := dashboard()
	// The caterer's counts are the one part that moves: diet and shirt
	// size are purged with the rest, so they read "not given" (the totals
	// stay).
	if got := countsAfter.Catering.TshirtSizes; len(got) != 1 || got["not given"] != 1 {
		t.Errorf("the purged edition's shirt sizes: %v", got)
	}
	countsBefore.Catering = countsAfter.Catering
	if b, a := mustJSON(t, countsBefore), mustJSON(t, countsAfter); b != a {
		t.Errorf("dashboard changed:\n%s\n%s", b, a)
	}
	if b, a := mustJSON(t, lbBefore), mustJSON(t, lbAfter); b != a {
		t.Errorf("leaderboard changed:\n%s\n%s", b, a)
	}
	for _, k := range keys {
		if ok, _ := blob.Exists(ctx, k); ok {
			t.Errorf("résumé %s kept", k)
		}
	}
	var left int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM applications WHERE hackathon_id = $1 AND purged_at IS NULL`, recent.ID).Scan(&left); err != nil || left != 3 {
		t.Errorf("the recent edition's applications: %d unpurged (%v), want 3", left, err)
	}

	// Emails after 90 days, settled receipts after 90 days, outbox inputs
	// after 7 days, the access log after a year, spent sessions at once.
	p := testenv.Account(t, s, testenv.AccountOpts{})
	if _, err := mail.Record(ctx, s.Queries, "old-email", "notice", p.Email, map[string]string{"subject": "s", "body": "b"}); err != nil {
		t.Fatal(err)
	}
	rc := testenv.Receipt(t, s, testenv.ReceiptOpts{Status: "processed"})
	parked := testenv.Receipt(t, s, testenv.ReceiptOpts{Status: "parked"})
	testenv.Session(t, s, p.ID, testenv.SessionOpts{CreatedAgo: 40 * 24 * time.Hour, SeenAgo: 40 * 24 * time.Hour, Lifetime: 30 * 24 * time.Hour})
	live, _ := testenv.Session(t, s, p.ID, testenv.SessionOpts{})
	if err := privacy.LogAccess(ctx, s.Queries, privacy.Actor{ProfileID: reviewer.ID, Role: "admin"}, privacy.ActionMembershipQR,
		privacy.Read{Subject: p.ID, Object: uuid.New()}); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`UPDATE emails SET status = 'sent', sent_at = now(), created_at = now() - interval '91 days' WHERE idempotency_key = 'old-email'`,
		`UPDATE receipts SET updated_at = now() - interval '91 days'`,
		`INSERT INTO workflow_starts (workflow_id, type, input, kind, subject, summary, created_at, started_at, run_id)
		 VALUES ('old', 'SendEmail', '{"Key":"k"}', 'email', 'k', 'k', now() - interval '8 days', now(), 'r'),
		        ('new', 'SendEmail', '{"Key":"k2"}', 'email', 'k2', 'k2', now(), now(), 'r')`,
		`UPDATE access_log SET at = now() - interval '366 days'`,
	} {
		if _, err := s.Pool().Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	for name, fn := range map[string]func(context.Context, *db.Queries, time.Time) (int, error){
		"emails": privacy.PurgeEmails, "receipts": privacy.PurgeReceipts, "outbox": privacy.ClearOutboxInputs, "access log": privacy.PurgeAccessLog,
	} {
		if n, err := fn(ctx, s.Queries, now); err != nil || n != 1 {
			t.Errorf("%s: purged %d (%v), want 1", name, n, err)
		}
		if n, err := fn(ctx, s.Queries, now); err != nil || n != 0 {
			t.Errorf("%s again: purged %d (%v), want 0", name, n, err)
		}
	}
	sessions, _, err := privacy.DeleteSpent(ctx, s.Queries)
	if err != nil || sessions < 1 {
		t.Errorf("spent sessions: %d (%v)", sessions, err)
	}
	if _, err := s.SessionPrincipal(ctx, hashToken(live)); err != nil {
		t.Errorf("a live session went: %v", err)
	}
	e, _ := s.EmailGetByKey(ctx, "old-email")
	if e.ToAddress != "" || e.TextBody != "" || e.Status != "sent" || e.PurgedAt == nil {
		t.Errorf("old email: %+v", e)
	}
	if r, _ := s.ReceiptGet(ctx, rc.ID); len(r.Raw) != 0 || r.TransactionID == "" {
		t.Errorf("settled receipt: raw %d bytes, transaction %q", len(r.Raw), r.TransactionID)
	}
	if r, _ := s.ReceiptGet(ctx, parked.ID); len(r.Raw) == 0 {
		t.Errorf("a parked receipt lost its raw email")
	}
	var input string
	if err := s.Pool().QueryRow(ctx, `SELECT input::text FROM workflow_starts WHERE workflow_id = 'new'`).Scan(&input); err != nil || !strings.Contains(input, "k2") {
		t.Errorf("a recent input was cleared: %s %v", input, err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAccessLog(t *testing.T) {
	t.Parallel()
	s, _ := stack(t)
	ctx := context.Background()
	vp := "VP"
	staff := testenv.Account(t, s, testenv.AccountOpts{Role: "admin"})
	a, b := testenv.Account(t, s, testenv.AccountOpts{}), testenv.Account(t, s, testenv.AccountOpts{})
	actor := privacy.Actor{ProfileID: staff.ID, Role: "admin", ExecPosition: &vp}
	if err := privacy.LogAccess(ctx, s.Queries, actor, privacy.ActionOnboardingCSV,
		privacy.Read{Subject: a.ID, Object: uuid.New()}, privacy.Read{Subject: b.ID, Object: uuid.New()}); err != nil {
		t.Fatal(err)
	}
	if err := privacy.LogAccess(ctx, s.Queries, actor, privacy.ActionApplicationView); err != nil {
		t.Fatal(err) // nothing read, nothing written
	}
	all, total, err := privacy.AccessLog(ctx, s.Queries, privacy.AccessQuery{}, 25, 0)
	if err != nil || total != 2 || len(all) != 2 || all[0].ActorRole != "admin, VP" {
		t.Fatalf("log: %+v %d %v", all, total, err)
	}
	f, err := privacy.ParseAccessQuery("", a.ID.String())
	if err != nil {
		t.Fatal(err)
	}
	one, total, err := privacy.AccessLog(ctx, s.Queries, f, 25, 0)
	if err != nil || total != 1 || one[0].Subject.ID != a.ID || one[0].Actor.ID != staff.ID {
		t.Errorf("by subject: %+v %d %v", one, total, err)
	}
	if _, err := privacy.ParseAccessQuery("nope", ""); err == nil {
		t.Error("a malformed actor was accepted")
	}
}

func TestExport(t *testing.T) {
	t.Parallel()
	s, blob := stack(t)
	ctx := context.Background()
	p := testenv.Account(t, s, testenv.AccountOpts{Name: "Grace Export"})
	reviewer := testenv.Account(t, s, testenv.AccountOpts{Role: "admin", Name: "Secret Reviewer"})
	term := testenv.Term(t, s, testenv.TermOpts{})
	for i := range 2 {
		h := testenv.Hackathon(t, s, testenv.HackathonOpts{})
		a := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: h.ID,
			ResumeName: "cv-" + string(rune('a'+i)) + ".pdf"})
		testenv.Review(t, s, a.ID, reviewer.ID, 3, 2, 7, 3)
		if err := blob.Put(ctx, *a.ResumeKey, "application/pdf", bytes.NewReader([]byte("%PDF-1.4 export")), 15); err != nil {
			t.Fatal(err)
		}
	}
	// The current edition's application has no object: it is left out of
	// the ZIP, and data.json says so.
	cur := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{})
	testenv.Membership(t, s, p.ID, term.ID, testenv.MembershipOpts{Paid: true})
	testenv.ExecForm(t, s, term.ID, p.ID, testenv.ExecFormOpts{DisplayName: "Grace Export"})
	if err := privacy.LogAccess(ctx, s.Queries, privacy.Actor{ProfileID: reviewer.ID, Role: "admin"}, privacy.ActionApplicationView,
		privacy.Read{Subject: p.ID, Object: cur.ID}); err != nil {
		t.Fatal(err)
	}
	e, err := privacy.Collect(ctx, s.Queries, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Applications) != 3 || len(e.Memberships) != 1 || len(e.Submissions) != 1 || len(e.StaffReads) != 1 {
		t.Fatalf("export: %d applications, %d memberships, %d submissions, %d reads",
			len(e.Applications), len(e.Memberships), len(e.Submissions), len(e.StaffReads))
	}
	if e.Applications[0].ReviewCount != 1 || e.StaffReads[0].Role != "admin" {
		t.Errorf("review count %d, read %+v", e.Applications[0].ReviewCount, e.StaffReads[0])
	}
	arc, err := privacy.Open(ctx, blob, testenvLogger(t), e)
	if err != nil {
		t.Fatal(err)
	}
	defer arc.Close()
	size, err := arc.Size()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := arc.WriteTo(&buf)
	if err != nil || n != size || int64(buf.Len()) != size {
		t.Fatalf("wrote %d bytes (%v), Size said %d", n, err, size)
	}
	files := readZip(t, buf.Bytes())
	var data privacy.Export
	if err := json.Unmarshal(files[privacy.DataFile], &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Files) != 2 || len(files) != 3 {
		t.Errorf("files %v, entries %d; want two résumés", data.Files, len(files))
	}
	if data.Applications[2].ResumeFile != nil {
		t.Errorf("a missing résumé is named: %v", *data.Applications[2].ResumeFile)
	}
	for _, secret := range []string{"Secret Reviewer", reviewer.Email, reviewer.ID.String(), "resume_score"} {
		if bytes.Contains(files[privacy.DataFile], []byte(secret)) {
			t.Errorf("data.json names %q", secret)
		}
	}
	_ = application.StatusSubmitted
}
