package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/workflows"
)

// bcApp starts an App whose broadcast worker sends rate emails a second,
// with a superadmin client.
func bcApp(t *testing.T, rate float64) (*app.App, *client, *client, uuid.UUID) {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.BroadcastRate = rate
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	root, rootID := decAccount(t, a, anon, "root@example.com", "superadmin")
	return a, anon, root, rootID
}

// bcPerson inserts an account named by its email, confirmed unless o says
// otherwise, that cannot log in (no password hashing).
func bcPerson(t *testing.T, a *app.App, o testenv.AccountOpts) uuid.UUID {
	t.Helper()
	o.Name, o.NoPassword = o.Email, true
	return testenv.Account(t, a.Store, o).ID
}

// bcPeople inserts confirmed accounts (see bcPerson) and returns their ids
// by email.
func bcPeople(t *testing.T, a *app.App, emails ...string) map[string]uuid.UUID {
	t.Helper()
	out := map[string]uuid.UUID{}
	for _, e := range emails {
		out[e] = bcPerson(t, a, testenv.AccountOpts{Email: e})
	}
	return out
}

// bcExecs inserts accounts (see bcPerson) holding an exec role each and
// returns their ids by email.
func bcExecs(t *testing.T, a *app.App, o testenv.AccountOpts, emails ...string) map[string]uuid.UUID {
	t.Helper()
	out := map[string]uuid.UUID{}
	for _, e := range emails {
		o.Email = e
		out[e] = bcPerson(t, a, o)
		testenv.ExecRole(t, a.Store, out[e], testenv.ExecRoleOpts{})
	}
	return out
}

func bcExec(t *testing.T, a *app.App, sql string, args ...any) {
	t.Helper()
	if _, err := a.Store.Pool().Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

// bcMember gives a person a membership of the term, paid to an exec or not.
func bcMember(t *testing.T, a *app.App, person, term, exec uuid.UUID, paid bool) {
	t.Helper()
	testenv.Membership(t, a.Store, person, term, testenv.MembershipOpts{Paid: paid, ConfirmedBy: &exec})
}

type bcCreated struct {
	BroadcastID uuid.UUID `json:"broadcast_id"`
	WorkflowID  string    `json:"workflow_id"`
	Recipients  int       `json:"recipients"`
}

type bcView struct {
	ID                uuid.UUID  `json:"id"`
	Subject           string     `json:"subject"`
	Status            string     `json:"status"`
	Total             int        `json:"total"`
	Sent              int        `json:"sent"`
	Failed            int        `json:"failed"`
	Skipped           int        `json:"skipped"`
	CreatedAt         time.Time  `json:"created_at"`
	FinishedAt        *time.Time `json:"finished_at"`
	CancelRequestedAt *time.Time `json:"cancel_requested_at"`
	WorkflowID        string     `json:"workflow_id"`
	Audience          struct {
		Kind   string     `json:"kind"`
		TermID *uuid.UUID `json:"term_id"`
		Status *string    `json:"status"`
	} `json:"audience"`
}

func bcCreate(t *testing.T, c *client, body map[string]any, headers ...string) bcCreated {
	t.Helper()
	var out bcCreated
	c.expect(http.StatusAccepted, "POST", "/api/admin/broadcasts", body, headers...).JSON(t, &out)
	if out.WorkflowID != workflows.BroadcastID(out.BroadcastID) {
		t.Fatalf("workflow id %q for broadcast %s", out.WorkflowID, out.BroadcastID)
	}
	return out
}

func bcGet(t *testing.T, c *client, id uuid.UUID) bcView {
	t.Helper()
	var v bcView
	c.expect(http.StatusOK, "GET", "/api/admin/broadcasts/"+id.String(), nil).JSON(t, &v)
	return v
}

// bcWait polls the broadcast until it has ended.
func bcWait(t *testing.T, c *client, id uuid.UUID) bcView {
	t.Helper()
	var v bcView
	testenv.Eventually(t, 60*time.Second, func() (bool, string) {
		v = bcGet(t, c, id)
		return v.Status != "sending", fmt.Sprintf("broadcast %s still sending: %+v", id, v)
	})
	return v
}

// bcWaitSent waits until the broadcast has sent something.
func bcWaitSent(t *testing.T, c *client, id uuid.UUID) {
	t.Helper()
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return bcGet(t, c, id).Sent > 0, "nothing sent"
	})
}

// bcSentTo lists, sorted, the addresses the broadcast's emails went to,
// checking each is recorded under its key with the broadcast's subject.
func bcSentTo(t *testing.T, a *app.App, id uuid.UUID, subject string) []string {
	t.Helper()
	rows, err := a.Store.Pool().Query(context.Background(), `SELECT e.to_address, e.idempotency_key, p.id, e.subject, e.kind, e.status
		FROM emails e JOIN profiles p ON lower(p.email) = lower(e.to_address)
		WHERE e.idempotency_key LIKE 'broadcast:' || $1::text || ':%' ORDER BY e.to_address`, id.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var to []string
	for rows.Next() {
		var addr, key, subj, kind, status string
		var person uuid.UUID
		if err := rows.Scan(&addr, &key, &person, &subj, &kind, &status); err != nil {
			t.Fatal(err)
		}
		if key != "broadcast:"+id.String()+":"+person.String() || subj != subject || kind != "broadcast" || status != "sent" {
			t.Errorf("email to %s: key %s, subject %q, kind %s, status %s", addr, key, subj, kind, status)
		}
		to = append(to, addr)
	}
	return to
}

func bcRecipientRows(t *testing.T, a *app.App, id uuid.UUID) int {
	t.Helper()
	return countRows(t, a, `SELECT count(*) FROM broadcast_recipients WHERE broadcast_id = $1`, id)
}

// TestBroadcastAudiences: who each kind of audience reaches. m2 is a paid
// member, an exec and an applicant at once, and gets one email from each
// broadcast; unconfirmed accounts and, for marketing, those who have not
// opted in are left out.
func TestBroadcastAudiences(t *testing.T) {
	t.Parallel()
	a, anon, root, rootID := bcApp(t, 200)
	active := hiringTermVia(t, root, "2026-2027", "2026-09-01", "2027-08-31", true)
	old := hiringTermVia(t, root, "2025-2026", "2025-09-01", "2026-08-31", false)
	p := bcPeople(t, a, "m1@example.com", "m5@example.com", "e1@example.com", "a1@example.com", "a2@example.com", "a3@example.com")
	// m2, m3 and m4 have opted in to marketing; m3 is unconfirmed.
	for _, e := range []string{"m2@example.com", "m3@example.com", "m4@example.com"} {
		p[e] = bcPerson(t, a, testenv.AccountOpts{Email: e, MarketingOptIn: true, Unconfirmed: e == "m3@example.com"})
	}
	bcMember(t, a, p["m1@example.com"], active, rootID, false)
	bcMember(t, a, p["m2@example.com"], active, rootID, true)
	bcMember(t, a, p["m3@example.com"], active, rootID, true)
	bcMember(t, a, p["m4@example.com"], old, rootID, true)
	bcMember(t, a, p["m5@example.com"], active, rootID, true)
	for _, e := range []string{"m2@example.com", "e1@example.com"} {
		testenv.ExecRole(t, a.Store, p[e], testenv.ExecRoleOpts{Term: &active, Subteam: "-"})
	}
	// Applications: m2 offered, a2 waitlisted, a3 a draft; a1 submits its
	// own through the API, opting in to marketing.
	testenv.Decide(t, a.Store, seedApplication(t, a, p["m2@example.com"], "submitted"), testenv.Decision{Decision: "offer"})
	testenv.Decide(t, a.Store, seedApplication(t, a, p["a2@example.com"], "submitted"), testenv.Decision{Decision: "waitlist"})
	seedApplication(t, a, p["a3@example.com"], "draft")
	testenv.Application(t, a.Store, p["a1@example.com"], testenv.ApplicationOpts{MarketingOptIn: true})
	as(t, a, anon, p["a1@example.com"]).expect(http.StatusOK, "POST", "/api/applications/submit", nil)
	if countRows(t, a, `SELECT count(*) FROM profiles WHERE id = $1 AND marketing_opt_in`, p["a1@example.com"]) != 1 {
		t.Fatal("submitting an application that opts in did not set the profile's opt-in")
	}

	for _, tc := range []struct {
		name     string
		audience map[string]any
		market   bool
		want     []string
	}{
		{"MembersOfTheActiveTerm", map[string]any{"kind": "members"}, false,
			[]string{"m1@example.com", "m2@example.com", "m5@example.com"}},
		{"PaidMembers", map[string]any{"kind": "paid_members"}, false, []string{"m2@example.com", "m5@example.com"}},
		{"PaidMembersMarketing", map[string]any{"kind": "paid_members"}, true, []string{"m2@example.com"}},
		{"MembersOfAnOldTerm", map[string]any{"kind": "members", "term_id": old}, false, []string{"m4@example.com"}},
		{"Execs", map[string]any{"kind": "execs"}, false, []string{"e1@example.com", "m2@example.com"}},
		{"Applicants", map[string]any{"kind": "applicants"}, false,
			[]string{"a1@example.com", "a2@example.com", "m2@example.com"}},
		{"ApplicantsOffered", map[string]any{"kind": "applicants", "status": "offer"}, false, []string{"m2@example.com"}},
		{"ApplicantsUndecided", map[string]any{"kind": "applicants", "status": "none"}, false, []string{"a1@example.com"}},
		{"ApplicantsMarketing", map[string]any{"kind": "applicants"}, true, []string{"a1@example.com", "m2@example.com"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			subject := "News for " + tc.name
			out := bcCreate(t, root, map[string]any{"subject": subject, "body": "Hello.", "audience": tc.audience, "marketing": tc.market})
			if out.Recipients != len(tc.want) {
				t.Errorf("recipients %d, want %d", out.Recipients, len(tc.want))
			}
			v := bcWait(t, root, out.BroadcastID)
			if v.Status != "done" || v.Total != len(tc.want) || v.Sent != len(tc.want) || v.Failed != 0 {
				t.Fatalf("ended %+v", v)
			}
			if got := bcSentTo(t, a, out.BroadcastID, subject); !slices.Equal(got, tc.want) {
				t.Fatalf("sent to %v, want %v (each once)", got, tc.want)
			}
		})
	}

	t.Run("ErrNoSuchTerm", func(t *testing.T) {
		root.expect(http.StatusNotFound, "POST", "/api/admin/broadcasts", map[string]any{"subject": "S", "body": "B",
			"audience": map[string]any{"kind": "members", "term_id": uuid.New()}})
	})
	t.Run("ErrValidation", func(t *testing.T) {
		r := root.expect(http.StatusBadRequest, "POST", "/api/admin/broadcasts", map[string]any{"subject": "", "body": "B",
			"audience": map[string]any{"kind": "execs", "status": "offer"}})
		d, _ := r.Map(t)["details"].(map[string]any)
		if d["subject"] == nil || d["audience.status"] == nil {
			t.Fatalf("details %s", r.Body)
		}
	})
}

var unsubscribeHeader = regexp.MustCompile(`(?m)^List-Unsubscribe: <(http://hackdesk\.test/api/unsubscribe\?token=[^>]+)>$`)

// TestBroadcastLifecycle: roles, the idempotency key, progress to done with
// exact counts, the recipient list gone afterwards, the unsubscribe link in
// every email and what following it does.
func TestBroadcastLifecycle(t *testing.T) {
	t.Parallel()
	a, anon, root, _ := bcApp(t, 100)
	emails := make([]string, 25)
	for i := range emails {
		emails[i] = fmt.Sprintf("exec%02d@example.com", i)
	}
	p := bcExecs(t, a, testenv.AccountOpts{MarketingOptIn: true}, emails...)
	body := map[string]any{"subject": "Exec social", "body": "Friday at 6.\nBring a friend.", "audience": map[string]any{"kind": "execs"}, "marketing": true}

	t.Run("Roles", func(t *testing.T) {
		admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
		member, _ := decAccount(t, a, anon, "member@example.com", "member")
		id := uuid.NewString()
		for _, c := range []struct {
			cl   *client
			want int
		}{{anon, 401}, {member, 403}, {admin, 403}} {
			c.cl.expect(c.want, "POST", "/api/admin/broadcasts", body)
			c.cl.expect(c.want, "GET", "/api/admin/broadcasts", nil)
			c.cl.expect(c.want, "GET", "/api/admin/broadcasts/"+id, nil)
			c.cl.expect(c.want, "POST", "/api/admin/broadcasts/"+id+"/cancel", nil)
		}
		if n := countRows(t, a, `SELECT count(*) FROM broadcasts`); n != 0 {
			t.Fatalf("%d broadcasts made by callers without the role", n)
		}
	})

	first := bcCreate(t, root, body, "Idempotency-Key", "social-1")
	if first.Recipients != 25 {
		t.Fatalf("recipients %d", first.Recipients)
	}
	t.Run("IdempotencyKey", func(t *testing.T) {
		again := bcCreate(t, root, body, "Idempotency-Key", "social-1")
		if again != first {
			t.Fatalf("retry answered %+v, first %+v", again, first)
		}
		other := withField(body, "subject", "Another subject")
		root.expect(422, "POST", "/api/admin/broadcasts", other, "Idempotency-Key", "social-1")
		if n := countRows(t, a, `SELECT count(*) FROM broadcasts`); n != 1 {
			t.Fatalf("%d broadcasts after a retried request", n)
		}
	})

	v := bcWait(t, root, first.BroadcastID)
	if v.Status != "done" || v.Total != 25 || v.Sent != 25 || v.Failed != 0 || v.FinishedAt == nil || v.Subject != "Exec social" ||
		v.Audience.Kind != "execs" || v.CancelRequestedAt != nil {
		t.Fatalf("ended %+v", v)
	}
	if n := bcRecipientRows(t, a, first.BroadcastID); n != 0 {
		t.Fatalf("%d recipient rows left after the broadcast ended", n)
	}
	if got := bcSentTo(t, a, first.BroadcastID, "Exec social"); len(got) != 25 {
		t.Fatalf("%d emails", len(got))
	}
	testenv.RecordHistory(t, a.Temporal, first.WorkflowID, "broadcast")
	var prog workflows.BroadcastProgress
	q, err := a.Temporal.QueryWorkflow(context.Background(), first.WorkflowID, "", workflows.ProgressQuery)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Get(&prog); err != nil || prog.Status != "done" || prog.Sent != 25 || prog.Total != 25 {
		t.Fatalf("progress %+v %v", prog, err)
	}

	t.Run("List", func(t *testing.T) {
		var page struct {
			Items    []bcView `json:"items"`
			Total    int      `json:"total"`
			Page     int      `json:"page"`
			PageSize int      `json:"page_size"`
		}
		root.expect(http.StatusOK, "GET", "/api/admin/broadcasts?page=1&page_size=10", nil).JSON(t, &page)
		if page.Total != 1 || len(page.Items) != 1 || page.Items[0].ID != first.BroadcastID || page.Items[0].Sent != 25 || page.PageSize != 10 {
			t.Fatalf("page %+v", page)
		}
		root.expect(http.StatusBadRequest, "GET", "/api/admin/broadcasts?page_size=500", nil)
		root.expect(http.StatusNotFound, "GET", "/api/admin/broadcasts/"+uuid.NewString(), nil)
		root.expect(http.StatusNotFound, "GET", "/api/admin/broadcasts/not-an-id", nil)
	})

	t.Run("Unsubscribe", func(t *testing.T) {
		key := "broadcast:" + first.BroadcastID.String() + ":" + p["exec07@example.com"].String()
		printed, ok := testenv.Mail.Text(key)
		if !ok {
			t.Fatalf("no email printed under %s", key)
		}
		m := unsubscribeHeader.FindStringSubmatch(printed)
		if m == nil || !strings.Contains(printed, "\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\n") {
			t.Fatalf("email lacks the one-click headers:\n%s", printed)
		}
		link, err := url.Parse(m[1])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(printed, "\nTo stop the club's marketing email: "+m[1]+"\n") {
			t.Fatalf("the body's foot lacks the header's unsubscribe link:\n%s", printed)
		}
		path := link.Path + "?" + link.RawQuery
		// Opened in a browser, the link shows a button and changes nothing.
		page := anon.expect(http.StatusOK, "GET", path, nil, "Accept", "text/html")
		if ct := page.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" ||
			!strings.Contains(string(page.Body), `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">`) ||
			!strings.Contains(page.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Fatalf("unsubscribe page %s %q:\n%s", ct, page.Header.Get("Content-Security-Policy"), page.Body)
		}
		if n := countRows(t, a, `SELECT count(*) FROM profiles WHERE id = $1 AND marketing_opt_in`, p["exec07@example.com"]); n != 1 {
			t.Fatal("opening the unsubscribe page unsubscribed")
		}
		if bad := anon.expect(http.StatusBadRequest, "GET", path+"x", nil); !strings.Contains(string(bad.Body), "Invalid unsubscribe link") {
			t.Fatalf("page for a forged link:\n%s", bad.Body)
		}
		// The page's button: the form from a browser, answered with a page.
		oneClick := []byte("List-Unsubscribe=One-Click")
		done := anon.expect(http.StatusOK, "POST", path, oneClick, "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html,*/*;q=0.8")
		if !strings.HasPrefix(done.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(done.Body), "<h1>Unsubscribed</h1>") {
			t.Fatalf("answer to the page's button:\n%s", done.Body)
		}
		// As a mail client does it: the form, no credentials; a second
		// click answers the same.
		for i := 0; i < 2; i++ {
			r := anon.expect(http.StatusOK, "POST", path, oneClick, "Content-Type", "application/x-www-form-urlencoded")
			var ok struct {
				Success bool `json:"success"`
			}
			r.JSON(t, &ok)
			if !ok.Success {
				t.Fatalf("one-click answer %s", r.Body)
			}
		}
		if n := countRows(t, a, `SELECT count(*) FROM profiles WHERE id = $1 AND marketing_opt_in`, p["exec07@example.com"]); n != 0 {
			t.Fatal("still opted in after unsubscribing")
		}
		anon.expect(http.StatusOK, "POST", path, nil) // no body at all
		anon.expect(http.StatusBadRequest, "POST", path+"x", nil)
		anon.expect(http.StatusBadRequest, "POST", "/api/unsubscribe", nil)
		anon.expect(http.StatusUnsupportedMediaType, "POST", path, `{}`, "Content-Type", "application/json")
		if n := countRows(t, a, `SELECT count(*) FROM profiles WHERE email LIKE 'exec%' AND marketing_opt_in`); n != 24 {
			t.Fatalf("%d still opted in, want 24: one link unsubscribes one person", n)
		}
		// The next marketing broadcast leaves them out; one that is not
		// marketing does not.
		next := bcCreate(t, root, withField(body, "subject", "Exec social 2"))
		if next.Recipients != 24 {
			t.Fatalf("marketing broadcast after an unsubscribe: %d recipients", next.Recipients)
		}
		news := bcCreate(t, root, withField(body, "marketing", false))
		if news.Recipients != 25 {
			t.Fatalf("announcement after an unsubscribe: %d recipients", news.Recipients)
		}
		bcWait(t, root, next.BroadcastID)
		bcWait(t, root, news.BroadcastID)
	})
}

// withField returns a copy of m with k set to v.
func withField(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for kk, vv := range m {
		out[kk] = vv
	}
	out[k] = v
	return out
}

// TestBroadcastCancel: a cancelled broadcast stops between batches, ends
// cancelled with its counts and without its recipient list.
func TestBroadcastCancel(t *testing.T) {
	t.Parallel()
	// 8 emails a second: a batch of 10 every 1.25 s, so most of the 80
	// recipients are still waiting when the cancel comes.
	a, _, root, _ := bcApp(t, 8)
	emails := make([]string, 80)
	for i := range emails {
		emails[i] = fmt.Sprintf("m%02d@example.com", i)
	}
	bcExecs(t, a, testenv.AccountOpts{}, emails...)
	out := bcCreate(t, root, map[string]any{"subject": "Long one", "body": "B", "audience": map[string]any{"kind": "execs"}})
	// Progress shows batch by batch; cancel once the first is through.
	bcWaitSent(t, root, out.BroadcastID)
	var asked bcView
	root.expect(http.StatusAccepted, "POST", "/api/admin/broadcasts/"+out.BroadcastID.String()+"/cancel", nil).JSON(t, &asked)
	if asked.Status != "sending" || asked.CancelRequestedAt == nil {
		t.Fatalf("cancel answered %+v", asked)
	}
	root.expect(http.StatusAccepted, "POST", "/api/admin/broadcasts/"+out.BroadcastID.String()+"/cancel", nil)
	v := bcWait(t, root, out.BroadcastID)
	if v.Status != "cancelled" || v.Total != 80 || v.Sent < 10 || v.Sent+v.Failed >= 80 || v.FinishedAt == nil {
		t.Fatalf("ended %+v", v)
	}
	sent := bcSentTo(t, a, out.BroadcastID, "Long one")
	if len(sent) != v.Sent {
		t.Fatalf("%d emails sent, the count says %d", len(sent), v.Sent)
	}
	if n := bcRecipientRows(t, a, out.BroadcastID); n != 0 {
		t.Fatalf("%d recipient rows left", n)
	}
	t.Logf("cancelled after %d of 80", v.Sent)
	root.expect(http.StatusConflict, "POST", "/api/admin/broadcasts/"+out.BroadcastID.String()+"/cancel", nil)
	root.expect(http.StatusNotFound, "POST", "/api/admin/broadcasts/"+uuid.NewString()+"/cancel", nil)
}

// TestBroadcastUnsubscribeWhileSending: someone who unsubscribes while a
// marketing broadcast is sending is skipped, if their batch has not begun.
func TestBroadcastUnsubscribeWhileSending(t *testing.T) {
	t.Parallel()
	// 400 recipients at 40 a second: the workflow keeps 16 batches of 10 in
	// flight, so the last batch cannot begin before the first 160 emails
	// (4 s) are through.
	a, anon, root, _ := bcApp(t, 40)
	// 400 rows: set-based SQL, not 800 fixture calls.
	bcExec(t, a, `INSERT INTO profiles (email, password_hash, email_confirmed_at, marketing_opt_in)
		SELECT 'fan' || lpad(i::text, 3, '0') || '@example.com', '$argon2id$unused', now(), true FROM generate_series(1, 400) i`)
	bcExec(t, a, `INSERT INTO exec_roles (profile_id, position, subteam) SELECT id, 'Exec', 'web' FROM profiles WHERE email LIKE 'fan%'`)
	out := bcCreate(t, root, map[string]any{"subject": "Swag sale", "body": "Hoodies.", "audience": map[string]any{"kind": "execs"}, "marketing": true})
	if out.Recipients != 400 {
		t.Fatalf("%d recipients, want 400", out.Recipients)
	}
	var last uuid.UUID
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT profile_id FROM broadcast_recipients
		WHERE broadcast_id = $1 AND seq = 400`, out.BroadcastID).Scan(&last); err != nil {
		t.Fatal(err)
	}
	bcWaitSent(t, root, out.BroadcastID)
	key, err := a.Config.SigningKeyBytes()
	if err != nil {
		t.Fatal(err)
	}
	token := broadcast.UnsubscribeToken(broadcast.UnsubscribeSigner(key), last)
	anon.expect(http.StatusOK, "POST", "/api/unsubscribe?token="+url.QueryEscape(token), nil)
	v := bcWait(t, root, out.BroadcastID)
	if v.Status != "done" || v.Total != 400 || v.Sent != 399 || v.Failed != 0 || v.Skipped != 1 {
		t.Fatalf("ended %+v, want done with 399 sent and 1 skipped", v)
	}
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE idempotency_key = $1`, broadcast.EmailKey(out.BroadcastID, last)); n != 0 {
		t.Fatalf("%d emails recorded for the person who unsubscribed", n)
	}
	if sent := bcSentTo(t, a, out.BroadcastID, "Swag sale"); len(sent) != 399 {
		t.Fatalf("%d emails sent, want 399", len(sent))
	}
}

// bcSentAt returns the broadcast's sent_at stamps in order.
func bcSentAt(t *testing.T, a *app.App, id uuid.UUID) []time.Time {
	t.Helper()
	rows, err := a.Store.Pool().Query(context.Background(), `SELECT sent_at FROM emails
		WHERE idempotency_key LIKE 'broadcast:' || $1::text || ':%' AND status = 'sent' ORDER BY sent_at`, id.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var stamps []time.Time
	for rows.Next() {
		var s time.Time
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		stamps = append(stamps, s)
	}
	return stamps
}

// mostWithin is the most stamps that fall within any window of length d.
func mostWithin(stamps []time.Time, d time.Duration) int {
	most := 0
	for i := range stamps {
		j := i
		for j < len(stamps) && stamps[j].Sub(stamps[i]) < d {
			j++
		}
		most = max(most, j-i)
	}
	return most
}

// bcRateRun broadcasts to n new execs named prefix* and returns the span
// of the emails' sent_at stamps and the most sent within one second.
func bcRateRun(t *testing.T, a *app.App, root *client, prefix string, n int) (time.Duration, int) {
	t.Helper()
	emails := make([]string, n)
	for i := range emails {
		emails[i] = fmt.Sprintf("%s%03d@example.com", prefix, i)
	}
	bcExecs(t, a, testenv.AccountOpts{}, emails...)
	// Only the new people: end the others' exec roles.
	bcExec(t, a, `UPDATE exec_roles SET active = false, ended_at = now() WHERE active AND profile_id IN
		(SELECT id FROM profiles WHERE email NOT LIKE $1 || '%')`, prefix)
	out := bcCreate(t, root, map[string]any{"subject": "Rate " + prefix, "body": "B", "audience": map[string]any{"kind": "execs"}})
	if v := bcWait(t, root, out.BroadcastID); v.Status != "done" || v.Sent != n || out.Recipients != n {
		t.Fatalf("ended %+v", v)
	}
	stamps := bcSentAt(t, a, out.BroadcastID)
	if len(stamps) != n {
		t.Fatalf("%d sent", len(stamps))
	}
	return stamps[n-1].Sub(stamps[0]), mostWithin(stamps, time.Second)
}

// TestBroadcastRate: the send rate stays within BROADCAST_RATE, judged by
// the emails' sent_at stamps. With one worker, it spaces every email
// 1/rate apart (one batch of slack allowed). With two, only the Temporal
// server's limit on the broadcast queue holds them to the rate, as the two
// workers' own spacing would allow twice the rate: rate/BatchSize batches
// a second after a burst (allowed: four batches, 40 emails).
func TestBroadcastRate(t *testing.T) {
	t.Parallel()
	const rate = 20
	a, _, root, _ := bcApp(t, rate)

	t.Run("OneWorker", func(t *testing.T) {
		const n, burst = 60, workflows.BroadcastBatchSize
		span, most := bcRateRun(t, a, root, "one", n)
		t.Logf("%d emails in %v (ideal %v); at most %d within one second", n, span, perSecond(n, rate), most)
		if want := perSecond(n-burst, rate); span < want {
			t.Fatalf("%d emails in %v, want at least %v at %d a second", n, span, want, rate)
		}
		if most > rate+burst {
			t.Fatalf("%d emails within one second at %d a second", most, rate)
		}
	})

	t.Run("TwoWorkers", func(t *testing.T) {
		testenv.App(t, a.Config) // a second worker on the same queues
		const n, burst = 120, 4 * workflows.BroadcastBatchSize
		span, most := bcRateRun(t, a, root, "two", n)
		t.Logf("%d emails in %v (ideal %v, %v without the server's limit); at most %d within one second",
			n, span, perSecond(n, rate), perSecond(n, 2*rate), most)
		if want := perSecond(n-burst, rate); span < want {
			t.Fatalf("%d emails in %v, want at least %v at %d a second", n, span, want, rate)
		}
	})
}

// perSecond is how long n emails take at rate a second.
func perSecond(n, rate int) time.Duration {
	return time.Duration(float64(n) / float64(rate) * float64(time.Second))
}
