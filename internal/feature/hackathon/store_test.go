package hackathon_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/signing"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func tx[T any](t *testing.T, s *db.Store, fn func(q *db.Queries) (T, error)) (T, error) {
	t.Helper()
	var out T
	err := s.InTx(context.Background(), func(q *db.Queries) (err error) {
		out, err = fn(q)
		return err
	})
	return out, err
}

func input(t *testing.T, create bool, body string) *hackathon.Input {
	t.Helper()
	in := &hackathon.Input{Create: create}
	if err := json.Unmarshal([]byte(body), in); err != nil {
		t.Fatal(err)
	}
	if err := in.Validate().Err(); err != nil {
		t.Fatal(err)
	}
	return in
}

func rfc(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func details(err error) map[string]string {
	if e, ok := apperr.As(err); ok && e.Code == apperr.Invalid {
		return e.Details
	}
	return nil
}

// TestFreshDatabaseEdition: a fresh database has one current edition,
// "Hackathon", open with no close, announcing nothing, so the applicant
// routes answer as before editions.
func TestFreshDatabaseEdition(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	h, now, err := hackathon.CurrentAt(ctx, s.Queries)
	if err != nil {
		t.Fatal(err)
	}
	if h.Name != "Hackathon" || !h.Current || h.ApplicationsCloseAt != nil || h.Announce || h.ApplicationsOpenAt.After(now) {
		t.Fatalf("fresh edition %+v at %v", h, now)
	}
	if !hackathon.WindowAt(h, now).Open || hackathon.PhaseAt(h, now) != hackathon.Open {
		t.Fatal("the fresh edition's window is not open")
	}
	all, err := hackathon.List(ctx, s.Queries)
	if err != nil || len(all) != 1 || all[0].ID != h.ID || all[0].Phase != hackathon.Open {
		t.Fatalf("list %+v, %v", all, err)
	}
}

func TestCreateAndUpdate(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	root := testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin", NoPassword: true})
	first := testenv.CurrentHackathon(t, s)
	now := time.Now()
	opens, closes := now.Add(24*time.Hour), now.Add(30*24*time.Hour)

	create := func(body string) (db.Hackathon, error) {
		return tx(t, s, func(q *db.Queries) (db.Hackathon, error) {
			return hackathon.Create(ctx, q, root.ID, input(t, true, body))
		})
	}
	h, err := create(`{"name":"HackMUN 2027","applications_open_at":"` + rfc(opens) + `","applications_close_at":"` + rfc(closes) + `","capacity":120,"announce":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if h.Current || h.SavedBy == nil || *h.SavedBy != root.ID || *h.Capacity != 120 || !h.Announce {
		t.Fatalf("created %+v", h)
	}

	t.Run("ErrDuplicateNameAnyCase", func(t *testing.T) {
		_, err := create(`{"name":"hackmun 2027","applications_open_at":"` + rfc(opens) + `"}`)
		if !errors.Is(err, hackathon.ErrExists) {
			t.Fatalf("a second HackMUN 2027: %v", err)
		}
	})
	t.Run("ErrCloseInThePastOnCreate", func(t *testing.T) {
		_, err := create(`{"name":"Past","applications_open_at":"` + rfc(now.Add(-48*time.Hour)) + `","applications_close_at":"` + rfc(now.Add(-time.Second)) + `"}`)
		if d := details(err); d["applications_close_at"] != "must be in the future" {
			t.Fatalf("close in the past: %v", err)
		}
	})
	t.Run("ErrDatesOutOfOrder", func(t *testing.T) {
		_, err := create(`{"name":"Backwards","applications_open_at":"` + rfc(closes) + `","applications_close_at":"` + rfc(opens) + `"}`)
		if d := details(err); d["applications_close_at"] != "must be after applications_open_at" {
			t.Fatalf("close before opening: %v", err)
		}
		_, err = create(`{"name":"Event first","applications_open_at":"` + rfc(opens) + `","applications_close_at":"` + rfc(closes) + `","starts_at":"` + rfc(opens.Add(time.Hour)) + `"}`)
		if d := details(err); d["starts_at"] != "must be after applications_close_at" {
			t.Fatalf("event before the close: %v", err)
		}
		var n int
		if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM hackathons`).Scan(&n); err != nil || n != 2 {
			t.Fatalf("%d editions after the refusals (%v), want 2", n, err)
		}
	})
	t.Run("PatchMovesTheWindowIntoThePast", func(t *testing.T) {
		past := now.Add(-time.Hour)
		got, changed, err := tx2(t, s, func(q *db.Queries) (db.Hackathon, bool, error) {
			return hackathon.Update(ctx, q, root.ID, h.ID, input(t, false, `{"applications_open_at":"`+rfc(now.Add(-48*time.Hour))+`","applications_close_at":"`+rfc(past)+`"}`))
		})
		if err != nil || !changed || !got.ApplicationsCloseAt.Equal(past.Truncate(time.Second)) {
			t.Fatalf("patched %+v changed %v, %v", got, changed, err)
		}
		got, changed, err = tx2(t, s, func(q *db.Queries) (db.Hackathon, bool, error) {
			return hackathon.Update(ctx, q, root.ID, h.ID, input(t, false, `{"capacity":null,"name":"HackMUN 27"}`))
		})
		if err != nil || changed || got.Capacity != nil || got.Name != "HackMUN 27" {
			t.Fatalf("a capacity and name change: %+v changed %v, %v", got, changed, err)
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		_, _, err := tx2(t, s, func(q *db.Queries) (db.Hackathon, bool, error) {
			return hackathon.Update(ctx, q, root.ID, uuid.New(), input(t, false, `{}`))
		})
		if !errors.Is(err, hackathon.ErrNotFound) {
			t.Fatalf("unknown edition: %v", err)
		}
	})
	t.Run("CurrentMovesInOneTransaction", func(t *testing.T) {
		got, _, err := tx2(t, s, func(q *db.Queries) (db.Hackathon, bool, error) {
			return hackathon.Update(ctx, q, root.ID, h.ID, input(t, false, `{"current":true}`))
		})
		if err != nil || !got.Current {
			t.Fatalf("made current: %+v, %v", got, err)
		}
		cur := testenv.CurrentHackathon(t, s)
		old, err := s.HackathonGet(ctx, first.ID)
		if err != nil || cur.ID != h.ID || old.Current {
			t.Fatalf("current %s (want %s), the old one current %v", cur.ID, h.ID, old.Current)
		}
		// And back, through a creation that asks for it.
		made, err := create(`{"name":"Next","applications_open_at":"` + rfc(opens) + `","current":true}`)
		if err != nil || !made.Current || testenv.CurrentHackathon(t, s).ID != made.ID {
			t.Fatalf("created current: %+v, %v", made, err)
		}
	})
}

func tx2[A, B any](t *testing.T, s *db.Store, fn func(q *db.Queries) (A, B, error)) (A, B, error) {
	t.Helper()
	var a A
	var b B
	err := s.InTx(context.Background(), func(q *db.Queries) (err error) {
		a, b, err = fn(q)
		return err
	})
	return a, b, err
}

func TestScope(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	cur := testenv.CurrentHackathon(t, s)
	other := testenv.Hackathon(t, s, testenv.HackathonOpts{Name: "Other"})
	for _, c := range []struct {
		raw  string
		want uuid.UUID
		code apperr.Code
	}{
		{"", cur.ID, ""},
		{other.ID.String(), other.ID, ""},
		{"not-a-uuid", uuid.Nil, apperr.Invalid},
		{uuid.NewString(), uuid.Nil, apperr.NotFound},
	} {
		h, err := hackathon.Scope(ctx, s.Queries, c.raw)
		e, _ := apperr.As(err)
		switch {
		case c.code == "" && (err != nil || h.ID != c.want):
			t.Errorf("%q: %s, %v; want %s", c.raw, h.ID, err, c.want)
		case c.code != "" && (e == nil || e.Code != c.code):
			t.Errorf("%q: %v, want %s", c.raw, err, c.code)
		}
	}
	_, err := hackathon.Scope(ctx, s.Queries, "x")
	if d := details(err); d["hackathon"] != "must be a UUID" {
		t.Fatalf("malformed: %v", err)
	}
}

func TestCheckOffers(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	two := int32(2)
	h := testenv.Hackathon(t, s, testenv.HackathonOpts{Capacity: &two, Current: true})
	app := func(d testenv.Decision) uuid.UUID {
		p := testenv.Account(t, s, testenv.AccountOpts{NoPassword: true})
		a := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true})
		if d.Decision != "" {
			testenv.Decide(t, s, a.ID, d)
		}
		return a.ID
	}
	past := time.Now().Add(-time.Hour)
	attending := app(testenv.Decision{Decision: "offer", Rsvp: "attending"})
	app(testenv.Decision{Decision: "offer", RsvpDeadline: &past}) // expired unanswered: holds nothing
	app(testenv.Decision{Decision: "offer", Rsvp: "declined"})
	a, b := app(testenv.Decision{}), app(testenv.Decision{})
	check := func(batch []uuid.UUID, allow bool) error {
		_, err := tx(t, s, func(q *db.Queries) (struct{}, error) {
			return struct{}{}, hackathon.CheckOffers(ctx, q, h.ID, batch, allow)
		})
		return err
	}
	if err := check([]uuid.UUID{a}, false); err != nil {
		t.Fatalf("one attending and one offer fit 2: %v", err)
	}
	err := check([]uuid.UUID{a, b}, false)
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Conflict || e.Message != "3 offers and attending would pass the capacity of 2" {
		t.Fatalf("3 against 2: %v", err)
	}
	if err := check([]uuid.UUID{a, b}, true); err != nil {
		t.Fatalf("allowed over capacity: %v", err)
	}
	// Re-offering the attending one is not counted twice.
	if err := check([]uuid.UUID{attending}, false); err != nil {
		t.Fatalf("a batch holding the attending one: %v", err)
	}
	// Another edition's offers do not count.
	if err := check([]uuid.UUID{a}, false); err != nil {
		t.Fatal(err)
	}
	free := testenv.Hackathon(t, s, testenv.HackathonOpts{})
	if _, err := tx(t, s, func(q *db.Queries) (struct{}, error) {
		return struct{}{}, hackathon.CheckOffers(ctx, q, free.ID, []uuid.UUID{a, b}, false)
	}); err != nil {
		t.Fatalf("no capacity: %v", err)
	}
}

// TestWindowEmails: the announcement (armed only when the opening was
// ahead of the last save, for the current edition, once), the reminders
// (each unsubmitted draft's owner once, opted in to marketing or not, with
// an unsubscribe link) and the close's summary to the superadmins.
func TestWindowEmails(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	root := testenv.Account(t, s, testenv.AccountOpts{Role: "superadmin", Name: "Root"})
	testenv.Account(t, s, testenv.AccountOpts{Email: "fan@example.com", MarketingOptIn: true})
	testenv.Account(t, s, testenv.AccountOpts{Email: "quiet@example.com"})
	fresh := testenv.CurrentHackathon(t, s)
	opens, closes := time.Now().Add(time.Hour), time.Now().Add(72*time.Hour)
	h := testenv.Hackathon(t, s, testenv.HackathonOpts{Name: "HackMUN 2027", OpensAt: opens, ClosesAt: &closes,
		Announce: true, Current: true, SavedBy: &root.ID})
	drafter := testenv.Account(t, s, testenv.AccountOpts{Email: "drafter@example.com"})
	draft := testenv.Application(t, s, drafter.ID, testenv.ApplicationOpts{Hackathon: h.ID})
	done := testenv.Account(t, s, testenv.AccountOpts{Email: "done@example.com"})
	testenv.Application(t, s, done.ID, testenv.ApplicationOpts{Hackathon: h.ID, Submitted: true})
	// A draft of another edition is not this one's to remind.
	testenv.Application(t, s, testenv.Account(t, s, testenv.AccountOpts{}).ID, testenv.ApplicationOpts{Hackathon: fresh.ID})

	announce := func() hackathon.Announcement {
		t.Helper()
		a, err := tx(t, s, func(q *db.Queries) (hackathon.Announcement, error) {
			return hackathon.Announce(ctx, q, hackathon.AnnounceInput{HackathonID: h.ID, PublicURL: "https://h.test/", WorkflowID: "broadcast:x"})
		})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := announce()
	if a.BroadcastID != hackathon.AnnouncementID(h.ID) || a.Total != 1 || a.Subject != "Applications for HackMUN 2027 are open" {
		t.Fatalf("announcement %+v (want fan, the one opted in)", a)
	}
	var kind, body string
	var by uuid.UUID
	var marketing bool
	if err := s.Pool().QueryRow(ctx, `SELECT audience_kind, body, created_by, marketing FROM broadcasts WHERE id = $1`, a.BroadcastID).
		Scan(&kind, &body, &by, &marketing); err != nil {
		t.Fatal(err)
	}
	if kind != "marketing" || !marketing || by != root.ID || !strings.Contains(body, "https://h.test/apply") {
		t.Fatalf("broadcast %s %v by %s: %q", kind, marketing, by, body)
	}
	if again := announce(); again != a {
		t.Fatalf("announced again: %+v", again)
	}

	t.Run("NotArmed", func(t *testing.T) {
		for name, o := range map[string]testenv.HackathonOpts{
			"OpenedBeforeTheSave": {OpensAt: time.Now().Add(-time.Hour), Announce: true, SavedBy: &root.ID},
			"NotAsked":            {OpensAt: time.Now().Add(time.Hour), SavedBy: &root.ID},
			"NotCurrent":          {OpensAt: time.Now().Add(time.Hour), Announce: true, SavedBy: &root.ID},
		} {
			e := testenv.Hackathon(t, s, o)
			if name == "OpenedBeforeTheSave" {
				makeCurrent(t, s, e.ID)
			}
			got, err := tx(t, s, func(q *db.Queries) (hackathon.Announcement, error) {
				return hackathon.Announce(ctx, q, hackathon.AnnounceInput{HackathonID: e.ID, WorkflowID: "broadcast:y"})
			})
			if err != nil || got != (hackathon.Announcement{}) {
				t.Errorf("%s: %+v, %v; want nothing", name, got, err)
			}
		}
		makeCurrent(t, s, h.ID)
	})

	signer := signing.New([]byte("0123456789abcdef0123456789abcdef"), signing.PurposeUnsubscribe)
	n := hackathon.Notice{HackathonID: h.ID, ClosesAt: closes, PublicURL: "https://h.test"}
	reminders, err := txRefs(t, s, func(q *db.Queries) (int, []string, error) {
		r, err := hackathon.RecordReminders(ctx, q, signer, n)
		keys := []string{}
		for _, ref := range r {
			e, err := q.EmailGetByKey(ctx, ref.Key)
			if err != nil {
				return 0, nil, err
			}
			keys = append(keys, ref.Key+" "+e.ToAddress)
		}
		return len(r), keys, err
	})
	if err != nil || len(reminders) != 1 || reminders[0] != hackathon.ReminderKey(draft.ID)+" drafter@example.com" {
		t.Fatalf("reminders %v, %v", reminders, err)
	}
	var text string
	if err := s.Pool().QueryRow(ctx, `SELECT text_body FROM emails WHERE idempotency_key = $1`, hackathon.ReminderKey(draft.ID)).Scan(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "https://h.test/apply") || !strings.Contains(text, "https://h.test/api/unsubscribe?token=") {
		t.Fatalf("reminder text %q", text)
	}
	// Again, with the close moved: the same one email.
	n2 := n
	n2.ClosesAt = closes.Add(24 * time.Hour)
	if _, err := txRefs(t, s, func(q *db.Queries) (int, []string, error) {
		_, err := hackathon.RecordReminders(ctx, q, signer, n2)
		return 0, nil, err
	}); err != nil {
		t.Fatal(err)
	}
	var sent int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM emails WHERE kind = 'apply_reminder'`).Scan(&sent); err != nil || sent != 1 {
		t.Fatalf("%d reminders recorded (%v), want 1", sent, err)
	}

	summaries, err := txRefs(t, s, func(q *db.Queries) (int, []string, error) {
		r, err := hackathon.RecordSummary(ctx, q, n)
		keys := []string{}
		for _, ref := range r {
			keys = append(keys, ref.Key)
		}
		return len(r), keys, err
	})
	if err != nil || len(summaries) != 1 || summaries[0] != hackathon.SummaryKey(n, root.ID) {
		t.Fatalf("summaries %v, %v", summaries, err)
	}
	if err := s.Pool().QueryRow(ctx, `SELECT text_body FROM emails WHERE idempotency_key = $1`, summaries[0]).Scan(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "1 submitted, 1 drafts left unsubmitted") || !strings.Contains(text, "/admin/dashboard?hackathon="+h.ID.String()) {
		t.Fatalf("summary %q", text)
	}

	t.Run("NotCurrentNotReminded", func(t *testing.T) {
		other := testenv.Hackathon(t, s, testenv.HackathonOpts{})
		got, err := txRefs(t, s, func(q *db.Queries) (int, []string, error) {
			r, err := hackathon.RecordReminders(ctx, q, signer, hackathon.Notice{HackathonID: other.ID, ClosesAt: closes})
			return len(r), nil, err
		})
		if err != nil || len(got) != 0 {
			t.Fatalf("%v, %v", got, err)
		}
	})
	t.Run("FutureWindows", func(t *testing.T) {
		got, err := hackathon.FutureWindows(ctx, s.Queries, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, w := range got {
			if w.HackathonID == h.ID {
				found = w.Dates.ClosesAt != nil && w.Dates.ClosesAt.Equal(closes.Truncate(time.Microsecond))
			}
			if w.HackathonID == fresh.ID {
				t.Errorf("an edition with nothing ahead listed: %+v", w)
			}
		}
		if !found {
			t.Fatalf("future windows %+v lack %s", got, h.ID)
		}
	})
}

// txRefs runs fn in a transaction and answers its strings.
func txRefs(t *testing.T, s *db.Store, fn func(q *db.Queries) (int, []string, error)) ([]string, error) {
	t.Helper()
	_, keys, err := tx2(t, s, fn)
	return keys, err
}

// makeCurrent moves the current flag to id, as the API does.
func makeCurrent(t *testing.T, s *db.Store, id uuid.UUID) {
	t.Helper()
	if _, err := s.Pool().Exec(context.Background(), `UPDATE hackathons SET current = false WHERE current AND id <> $1`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool().Exec(context.Background(), `UPDATE hackathons SET current = true WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
}
