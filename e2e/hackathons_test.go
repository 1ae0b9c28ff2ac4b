package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	sdkclient "go.temporal.io/sdk/client"

	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

// editionJSON is an edition as the API answers it.
type editionJSON struct {
	ID                  uuid.UUID  `json:"id"`
	Name                string     `json:"name"`
	ApplicationsOpenAt  time.Time  `json:"applications_open_at"`
	ApplicationsCloseAt *time.Time `json:"applications_close_at"`
	Capacity            *int       `json:"capacity"`
	Phase               string     `json:"phase"`
	Current             bool       `json:"current"`
	Announce            bool       `json:"announce"`
	PurgeAt             *time.Time `json:"purge_at"`
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// createEdition posts an edition and answers it.
func createEdition(t *testing.T, super *client, body map[string]any) editionJSON {
	t.Helper()
	var out struct {
		Hackathon editionJSON `json:"hackathon"`
	}
	super.expect(http.StatusCreated, "POST", "/api/admin/hackathons", body).JSON(t, &out)
	return out.Hackathon
}

func currentEdition(t *testing.T, c *client) editionJSON {
	t.Helper()
	var out struct {
		Hackathon editionJSON `json:"hackathon"`
	}
	c.expect(http.StatusOK, "GET", "/api/hackathons/current", nil).JSON(t, &out)
	return out.Hackathon
}

// TestHackathonRoutes covers the editions API: the public current edition,
// creation and its refusals (dates out of order, a close in the past, a
// name taken whatever its case), who may call what, moving the current
// flag, the window's workflow queued and signalled, and the staff scope's
// refusals (a malformed edition 400, an unknown one 404).
func TestHackathonRoutes(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	mem := as(t, a, anon, account(t, a, "m@example.com", "M", "member"))

	first := currentEdition(t, anon)
	if first.Name != "Hackathon" || first.Phase != "open" || first.ApplicationsCloseAt != nil || first.Capacity != nil {
		t.Fatalf("a fresh database's edition %+v", first)
	}

	now := time.Now()
	opens, closes := now.Add(24*time.Hour), now.Add(30*24*time.Hour)
	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"DatesOutOfOrder", map[string]any{"name": "Backwards", "applications_open_at": rfc3339(closes), "applications_close_at": rfc3339(opens)}, "applications_close_at"},
		{"EndsBeforeStarts", map[string]any{"name": "Event", "applications_open_at": rfc3339(opens), "starts_at": rfc3339(closes), "ends_at": rfc3339(closes.Add(-time.Hour))}, "ends_at"},
		{"CloseInThePast", map[string]any{"name": "Past", "applications_open_at": rfc3339(now.Add(-48 * time.Hour)), "applications_close_at": rfc3339(now.Add(-time.Minute))}, "applications_close_at"},
		{"NoName", map[string]any{"applications_open_at": rfc3339(opens)}, "name"},
	} {
		r := super.expect(http.StatusBadRequest, "POST", "/api/admin/hackathons", c.body)
		var e struct {
			Details map[string]string `json:"details"`
		}
		r.JSON(t, &e)
		if e.Details[c.field] == "" {
			t.Errorf("%s: details %v, want %s", c.name, e.Details, c.field)
		}
	}
	h := createEdition(t, super, map[string]any{"name": "HackMUN 2027", "applications_open_at": rfc3339(opens),
		"applications_close_at": rfc3339(closes), "capacity": 120})
	if h.Current || h.Phase != "upcoming" || *h.Capacity != 120 {
		t.Fatalf("created %+v", h)
	}
	r := super.expect(http.StatusConflict, "POST", "/api/admin/hackathons", map[string]any{"name": "hackmun 2027", "applications_open_at": rfc3339(opens)})
	if e, _ := errorOf(t, r); e != "Hackathon exists" {
		t.Fatalf("duplicate name: %s", r.Body)
	}
	if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND signal IS NULL`, workflows.ApplicationWindowID(h.ID)); n != 1 {
		t.Fatalf("%d ApplicationWindow starts queued, want 1", n)
	}
	t.Cleanup(func() {
		_ = a.Temporal.TerminateWorkflow(context.Background(), workflows.ApplicationWindowID(h.ID), "", "test over")
	})

	mem.expect(http.StatusForbidden, "POST", "/api/admin/hackathons", map[string]any{"name": "X", "applications_open_at": rfc3339(opens)})
	admin.expect(http.StatusForbidden, "GET", "/api/admin/hackathons", nil)
	mem.expect(http.StatusForbidden, "GET", "/api/hackathons", nil)
	var list struct {
		Hackathons []editionJSON `json:"hackathons"`
	}
	admin.expect(http.StatusOK, "GET", "/api/hackathons", nil).JSON(t, &list)
	if len(list.Hackathons) != 2 || list.Hackathons[0].ID != h.ID || !list.Hackathons[1].Current {
		t.Fatalf("editions %+v, want HackMUN first (latest opening), then the current one", list.Hackathons)
	}

	super.expect(http.StatusNotFound, "PATCH", "/api/admin/hackathons/"+uuid.NewString(), map[string]any{"name": "Y"})
	super.expect(http.StatusBadRequest, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{"current": false})
	super.expect(http.StatusBadRequest, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{"applications_close_at": rfc3339(opens.Add(-time.Hour))})
	// A capacity alone does not concern the window's workflow; new dates do.
	super.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{"capacity": nil})
	super.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{"applications_close_at": rfc3339(closes.Add(time.Hour))})
	if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND signal = 'dates'`, workflows.ApplicationWindowID(h.ID)); n != 1 {
		t.Fatalf("%d signals queued, want 1", n)
	}
	var patched struct {
		Hackathon editionJSON `json:"hackathon"`
	}
	super.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{"current": true}).JSON(t, &patched)
	if !patched.Hackathon.Current || currentEdition(t, anon).ID != h.ID {
		t.Fatalf("made current: %+v", patched.Hackathon)
	}
	super.expect(http.StatusOK, "GET", "/api/admin/hackathons", nil).JSON(t, &list)
	for _, e := range list.Hackathons {
		if e.Current != (e.ID == h.ID) {
			t.Fatalf("current flags %+v", list.Hackathons)
		}
	}

	// The staff scope.
	for _, path := range []string{"/api/admin/applications", "/api/admin/leaderboard", "/api/admin/dashboard?interval=24",
		"/api/admin/applications/" + uuid.NewString()} {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		super.expect(http.StatusBadRequest, "GET", path+sep+"hackathon=last-year", nil)
		r := super.expect(http.StatusNotFound, "GET", path+sep+"hackathon="+uuid.NewString(), nil)
		if e, _ := errorOf(t, r); e != "Hackathon not found" {
			t.Errorf("%s with an unknown edition: %s", path, r.Body)
		}
	}
	super.expect(http.StatusNotFound, "POST", "/api/admin/applications/decisions?hackathon="+uuid.NewString(),
		map[string]any{"application_ids": []string{uuid.NewString()}, "decision": "reject"})
}

// TestApplicationWindowOverHTTP: one second after the close every write
// is the 403 with the window's message, before any other check (an
// existing application's 409, a resume's body), and the draft is
// unchanged; the application stays readable. Before the opening the
// message says when it opens.
func TestApplicationWindowOverHTTP(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ada := account(t, a, "ada@example.com", "Ada", "member")
	me := as(t, a, anon, ada)
	created := createApplication(t, me, ada)
	me.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"phone": "+1 (613) 555-0100"})
	before := me.expect(http.StatusOK, "GET", "/api/applications", nil).Map(t)

	closed := time.Now().Add(-time.Second).UTC().Truncate(time.Second)
	testenv.CloseApplications(t, a.Store, closed)
	if _, err := a.Store.Pool().Exec(context.Background(), `UPDATE hackathons SET name = 'HackMUN 2027' WHERE current`); err != nil {
		t.Fatal(err)
	}
	want := "Applications for HackMUN 2027 closed on " + closed.Format("2 January 2006 15:04 UTC")
	check := func(r response) {
		t.Helper()
		if r.Status != http.StatusForbidden {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		if e, m := errorOf(t, r); e != "Applications are closed" || m != want {
			t.Fatalf("body %s, want the window's message %q", r.Body, want)
		}
	}
	check(me.do("POST", "/api/applications", map[string]string{"profile_id": ada.String()}))
	check(me.do("POST", "/api/applications", "not json"))
	check(me.do("PATCH", "/api/applications", map[string]any{"phone": "+1 (709) 555-0199"}))
	check(me.upload("cv.pdf", pdfFile("ada")))
	check(me.do("POST", "/api/applications/submit", nil))
	if phase := currentEdition(t, anon).Phase; phase != "closed" {
		t.Fatalf("phase %s, want closed", phase)
	}
	after := me.expect(http.StatusOK, "GET", "/api/applications", nil).Map(t)
	if after["updated_at"] != before["updated_at"] || after["phone"] != "+1 (613) 555-0100" || after["resume_key"] != nil ||
		after["id"] != created.ID.String() {
		t.Fatalf("the draft changed: %v", after)
	}

	opens := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	if _, err := a.Store.Pool().Exec(context.Background(),
		`UPDATE hackathons SET applications_open_at = $1, applications_close_at = NULL WHERE current`, opens); err != nil {
		t.Fatal(err)
	}
	r := me.do("PATCH", "/api/applications", map[string]any{"phone": "+1 (709) 555-0199"})
	if e, m := errorOf(t, r); r.Status != http.StatusForbidden || e != "Applications are closed" ||
		m != "Applications for HackMUN 2027 open "+opens.Format("2 January 2006 15:04 UTC") {
		t.Fatalf("before the opening: %d %s", r.Status, r.Body)
	}
	if phase := currentEdition(t, anon).Phase; phase != "upcoming" {
		t.Fatalf("phase %s, want upcoming", phase)
	}
}

// TestSubmitRacingTheCloseOverHTTP: applicants submit around the close at
// once; each answer is 200 with the application submitted before the
// close, or 403 with it still a draft.
func TestSubmitRacingTheCloseOverHTTP(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	const n = 16
	clients := make([]*client, n)
	for i := range clients {
		id := account(t, a, fmt.Sprintf("racer%d@example.com", i), "", "member")
		testenv.Application(t, a.Store, id, testenv.ApplicationOpts{})
		clients[i] = as(t, a, anon, id)
	}
	var closes time.Time
	if err := a.Store.Pool().QueryRow(context.Background(),
		`UPDATE hackathons SET applications_close_at = now() + interval '1 second' WHERE current RETURNING applications_close_at`).Scan(&closes); err != nil {
		t.Fatal(err)
	}
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range clients {
		wg.Go(func() {
			time.Sleep(time.Until(start.Add(time.Duration(i) * 125 * time.Millisecond)))
			statuses[i] = c.do("POST", "/api/applications/submit", nil).Status
		})
	}
	wg.Wait()
	accepted := 0
	for i, c := range clients {
		var got appJSON
		c.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &got)
		switch statuses[i] {
		case http.StatusOK:
			accepted++
			at, err := time.Parse(time.RFC3339Nano, *got.SubmittedAt)
			if err != nil || got.Status != "submitted" || !at.Before(closes) {
				t.Errorf("racer %d accepted: %s at %v (close %v)", i, got.Status, at, closes)
			}
		case http.StatusForbidden:
			if got.Status != "draft" || got.SubmittedAt != nil {
				t.Errorf("racer %d refused, yet %s", i, got.Status)
			}
		default:
			t.Errorf("racer %d: status %d", i, statuses[i])
		}
	}
	if accepted == 0 || accepted == n {
		t.Fatalf("%d of %d accepted: the submissions did not straddle the close", accepted, n)
	}
}

// TestReturningApplicant: last year's applicant starts this year's
// application from last year's (the résumé object copied under a key of
// its own, readable through its signed link), sees last year's in the
// history, answers last year's open offer, and cannot copy someone
// else's application (403) or this year's (409).
func TestReturningApplicant(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	adaID := account(t, a, "ada@example.com", "Ada", "member")
	me := as(t, a, anon, adaID)
	bea := as(t, a, anon, account(t, a, "bea@example.com", "Bea", "member"))
	last := createApplication(t, me, adaID)
	for _, step := range completeSteps {
		me.expect(http.StatusOK, "PATCH", "/api/applications", step)
	}
	cv := pdfFile("ada's résumé")
	if r := me.upload("cv.pdf", cv); r.Status != http.StatusOK || r.Map(t)["key"] != adaID.String()+"/cv.pdf" {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	me.expect(http.StatusOK, "POST", "/api/applications/submit", nil)
	testenv.Decide(t, a.Store, last.ID, testenv.Decision{Decision: "offer"})
	lastEdition := currentEdition(t, anon)

	this := createEdition(t, super, map[string]any{"name": "This year", "applications_open_at": rfc3339(time.Now().Add(-time.Hour)),
		"current": true})
	t.Cleanup(func() {
		_ = a.Temporal.TerminateWorkflow(context.Background(), workflows.ApplicationWindowID(this.ID), "", "test over")
	})
	if r := me.expect(http.StatusOK, "GET", "/api/applications", nil); string(bytes.TrimSpace(r.Body)) != "null" {
		t.Fatalf("this year's application before starting it: %s", r.Body)
	}
	var history struct {
		Applications []struct {
			ID        uuid.UUID `json:"id"`
			Hackathon struct {
				ID   uuid.UUID `json:"id"`
				Name string    `json:"name"`
			} `json:"hackathon"`
			Status   string  `json:"status"`
			Decision *string `json:"decision"`
		} `json:"applications"`
	}
	me.expect(http.StatusOK, "GET", "/api/applications/history", nil).JSON(t, &history)
	if len(history.Applications) != 1 || history.Applications[0].ID != last.ID || history.Applications[0].Hackathon.ID != lastEdition.ID ||
		history.Applications[0].Hackathon.Name != "Hackathon" || history.Applications[0].Status != "submitted" || *history.Applications[0].Decision != "offer" {
		t.Fatalf("history %+v", history)
	}

	// Last year's open offer is answered while this year's is started.
	rsvp := me.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": true}).Map(t)
	if app := rsvp["application"].(map[string]any); app["id"] != last.ID.String() || app["rsvp"] != "attending" {
		t.Fatalf("rsvp %v", rsvp)
	}

	var beaID uuid.UUID
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT id FROM profiles WHERE email = 'bea@example.com'`).Scan(&beaID); err != nil {
		t.Fatal(err)
	}
	me.expect(http.StatusForbidden, "POST", "/api/applications", map[string]any{"profile_id": adaID.String(), "copy_from": uuid.NewString()})
	var copied struct {
		appJSON
		HackathonID uuid.UUID `json:"hackathon_id"`
		Phone       *string   `json:"phone"`
		Q1Answer    *string   `json:"q1_answer"`
		CocAgreed   bool      `json:"coc_agreed"`
	}
	me.expect(http.StatusCreated, "POST", "/api/applications", map[string]any{"profile_id": adaID.String(), "copy_from": last.ID.String()}).JSON(t, &copied)
	if copied.HackathonID != this.ID || copied.Status != "draft" || copied.Phone == nil || *copied.Phone != "+1 (613) 555-0100" ||
		copied.Q1Answer != nil || copied.CocAgreed || copied.ResumeKey == nil || *copied.ResumeKey != adaID.String()+"/cv-2.pdf" {
		t.Fatalf("copied %+v", copied)
	}
	var resumeView struct {
		URL *string `json:"url"`
		Key *string `json:"key"`
	}
	me.expect(http.StatusOK, "GET", "/api/applications/resumes", nil).JSON(t, &resumeView)
	if resumeView.Key == nil || *resumeView.Key != *copied.ResumeKey || resumeView.URL == nil {
		t.Fatalf("resume view %+v", resumeView)
	}
	resp, err := http.Get(*resumeView.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, cv) {
		t.Fatalf("the copied object holds %d bytes, want last year's %d", len(got), len(cv))
	}
	// Bea: someone else's application is 403, her own of this year 409.
	bea.expect(http.StatusForbidden, "POST", "/api/applications", map[string]any{"profile_id": beaID.String(), "copy_from": last.ID.String()})
	beasNew := createApplication(t, bea, beaID)
	r := bea.expect(http.StatusConflict, "POST", "/api/applications", map[string]any{"profile_id": beaID.String(), "copy_from": beasNew.ID.String()})
	if e, _ := errorOf(t, r); e != "Cannot copy from the current hackathon" {
		t.Fatalf("copy from this year: %s", r.Body)
	}
}

// TestStaffScope: the staff routes follow ?hackathon=, default to the
// current edition, count capacity, and keep reviews to the current
// edition.
func TestStaffScope(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	reviewerID := account(t, a, "rev@example.com", "Rev", "admin")
	rev := as(t, a, anon, reviewerID)
	last := currentEdition(t, anon)
	oldApp := seedApplication(t, a, account(t, a, "old@example.com", "", "member"), "submitted")
	testenv.Review(t, a.Store, oldApp, reviewerID, 3, 2, 7, 3)
	var held struct {
		Application appJSON `json:"application"`
	}
	// One more of last year's, served to the reviewer before the move.
	heldApp := seedApplication(t, a, account(t, a, "held@example.com", "", "member"), "submitted")
	rev.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &held)
	if held.Application.ID != heldApp {
		t.Fatalf("queue served %s, want %s", held.Application.ID, heldApp)
	}

	this := createEdition(t, super, map[string]any{"name": "This year", "applications_open_at": rfc3339(time.Now().Add(-time.Hour)),
		"capacity": 1, "current": true})
	t.Cleanup(func() {
		_ = a.Temporal.TerminateWorkflow(context.Background(), workflows.ApplicationWindowID(this.ID), "", "test over")
	})
	r := rev.expect(http.StatusConflict, "POST", "/api/review/submit", map[string]any{"application_id": heldApp,
		"resume_score": 1, "links_score": 1, "q1_score": 1, "q2_score": 1})
	if e, _ := errorOf(t, r); e != "That hackathon is not the current one" {
		t.Fatalf("a review of last year's: %s", r.Body)
	}
	rev.expect(http.StatusNotFound, "GET", "/api/applications/random", nil)
	x, y := seedApplication(t, a, account(t, a, "x@example.com", "", "member"), "submitted"),
		seedApplication(t, a, account(t, a, "y@example.com", "", "member"), "submitted")
	rev.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &held)
	if held.Application.ID != x && held.Application.ID != y {
		t.Fatalf("queue served %s, not this year's", held.Application.ID)
	}
	sub := rev.expect(http.StatusOK, "POST", "/api/review/submit", map[string]any{"application_id": held.Application.ID,
		"resume_score": 1, "links_score": 1, "q1_score": 1, "q2_score": 1}).Map(t)
	if sub["total_reviews"] != float64(2) {
		t.Fatalf("total_reviews %v, want 2 over both editions", sub["total_reviews"])
	}

	var table struct {
		Applications []struct {
			ID uuid.UUID `json:"id"`
		} `json:"applications"`
		Total     int `json:"total"`
		Hackathon struct {
			ID uuid.UUID `json:"id"`
		} `json:"hackathon"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/applications", nil).JSON(t, &table)
	if table.Total != 2 || table.Hackathon.ID != this.ID {
		t.Fatalf("this year's table %+v", table)
	}
	super.expect(http.StatusOK, "GET", "/api/admin/applications?hackathon="+last.ID.String(), nil).JSON(t, &table)
	if table.Total != 2 || table.Hackathon.ID != last.ID {
		t.Fatalf("last year's table %+v", table)
	}
	super.expect(http.StatusNotFound, "GET", "/api/admin/applications/"+oldApp.String(), nil)
	super.expect(http.StatusOK, "GET", "/api/admin/applications/"+oldApp.String()+"?hackathon="+last.ID.String(), nil)

	var board struct {
		Leaderboard []struct {
			ReviewCount int `json:"review_count"`
		} `json:"leaderboard"`
		Statistics struct {
			TotalReviews      int `json:"total_reviews"`
			TotalApplications int `json:"total_applications"`
		} `json:"statistics"`
		Hackathon struct {
			Name string `json:"name"`
		} `json:"hackathon"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?hackathon="+last.ID.String(), nil).JSON(t, &board)
	if board.Statistics.TotalReviews != 1 || board.Statistics.TotalApplications != 2 || len(board.Leaderboard) != 1 || board.Hackathon.Name != "Hackathon" {
		t.Fatalf("last year's board %+v", board)
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard", nil).JSON(t, &board)
	if board.Statistics.TotalReviews != 1 || board.Statistics.TotalApplications != 2 || board.Hackathon.Name != "This year" {
		t.Fatalf("this year's board %+v", board)
	}
	var scores struct {
		ReviewerScores struct {
			TotalReviews int     `json:"total_reviews"`
			MeanTotal    float64 `json:"mean_total"`
		} `json:"reviewerScores"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?reviewerId="+reviewerID.String()+"&hackathon="+last.ID.String(), nil).JSON(t, &scores)
	if scores.ReviewerScores.TotalReviews != 1 || scores.ReviewerScores.MeanTotal != 15 {
		t.Fatalf("last year's scores %+v", scores)
	}

	// The applicants audience is the current edition's; the marketing
	// audience everyone opted in.
	var preview struct {
		Recipients int `json:"recipients"`
	}
	super.expect(http.StatusOK, "POST", "/api/admin/broadcasts/preview", map[string]any{"audience": map[string]any{"kind": "applicants"}}).JSON(t, &preview)
	if preview.Recipients != 2 {
		t.Fatalf("applicants audience %d, want this year's 2", preview.Recipients)
	}
	testenv.Account(t, a.Store, testenv.AccountOpts{Email: "fan@example.com", MarketingOptIn: true})
	super.expect(http.StatusOK, "POST", "/api/admin/broadcasts/preview", map[string]any{"audience": map[string]any{"kind": "marketing"}}).JSON(t, &preview)
	if preview.Recipients != 1 {
		t.Fatalf("marketing audience %d, want the one opted in", preview.Recipients)
	}

	// Capacity: 1 place; two offers are 409 unless allowed.
	deadline := rfc3339(time.Now().Add(72 * time.Hour))
	r = super.expect(http.StatusConflict, "POST", "/api/admin/applications/decisions",
		map[string]any{"application_ids": []uuid.UUID{x, y}, "decision": "offer", "rsvp_deadline": deadline})
	if e, m := errorOf(t, r); e != "Over capacity" || m != "2 offers and attending would pass the capacity of 1" {
		t.Fatalf("over capacity: %s", r.Body)
	}
	super.expect(http.StatusNotFound, "POST", "/api/admin/applications/decisions",
		map[string]any{"application_ids": []uuid.UUID{oldApp}, "decision": "reject"})
	super.expect(http.StatusOK, "POST", "/api/admin/applications/decisions",
		map[string]any{"application_ids": []uuid.UUID{x, y}, "decision": "offer", "rsvp_deadline": deadline, "allow_over_capacity": true})
	super.expect(http.StatusOK, "POST", "/api/admin/applications/decisions?hackathon="+last.ID.String(),
		map[string]any{"application_ids": []uuid.UUID{oldApp}, "decision": "reject"})
	var dash struct {
		Hackathon struct {
			ID uuid.UUID `json:"id"`
		} `json:"hackathon"`
		Capacity struct {
			Limit      *int `json:"limit"`
			Attending  int  `json:"attending"`
			OpenOffers int  `json:"open_offers"`
		} `json:"capacity"`
		Counts struct {
			Applications int `json:"applications"`
			Offers       int `json:"offers"`
		} `json:"counts"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/dashboard?interval=24", nil).JSON(t, &dash)
	if dash.Hackathon.ID != this.ID || dash.Capacity.Limit == nil || *dash.Capacity.Limit != 1 || dash.Capacity.OpenOffers != 2 ||
		dash.Counts.Offers != 2 || dash.Counts.Applications != 2 {
		t.Fatalf("this year's dashboard %+v", dash)
	}
	super.expect(http.StatusOK, "GET", "/api/admin/dashboard?interval=24&hackathon="+last.ID.String(), nil).JSON(t, &dash)
	if dash.Hackathon.ID != last.ID || dash.Capacity.Limit != nil || dash.Counts.Offers != 0 || dash.Counts.Applications != 2 {
		t.Fatalf("last year's dashboard %+v", dash)
	}
}

// TestApplicationWindowWorkflow runs ApplicationWindow on the real
// Temporal server: an edition made current with its opening two seconds
// ahead announces it to the marketing audience; 48 hours before its close
// the owner of a draft is reminded (once); a PATCH moving the close a few
// seconds ahead reaches the run, which sends the superadmins the close's
// summary and ends.
func TestApplicationWindowWorkflow(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	rootID := account(t, a, "root@example.com", "Root", "superadmin")
	super := as(t, a, anon, rootID)
	testenv.Account(t, a.Store, testenv.AccountOpts{Email: "fan@example.com", MarketingOptIn: true})
	account(t, a, "quiet@example.com", "Quiet", "member")
	now := time.Now().UTC().Truncate(time.Second)
	opens, closes := now.Add(3*time.Second), now.Add(workflows.ApplicationWindowReminderLead+6*time.Second)
	h := createEdition(t, super, map[string]any{"name": "HackMUN 2027", "applications_open_at": rfc3339(opens),
		"applications_close_at": rfc3339(closes), "announce": true, "current": true})
	id := workflows.ApplicationWindowID(h.ID)
	t.Cleanup(func() { _ = a.Temporal.TerminateWorkflow(context.Background(), id, "", "test over") })
	drafter := account(t, a, "drafter@example.com", "Drafter", "member")
	draft := testenv.Application(t, a.Store, drafter, testenv.ApplicationOpts{Hackathon: h.ID})
	done := account(t, a, "done@example.com", "Done", "member")
	testenv.Application(t, a.Store, done, testenv.ApplicationOpts{Hackathon: h.ID, Submitted: true})

	testenv.Eventually(t, 45*time.Second, func() (bool, string) {
		return sentTo(t, a, "broadcast", "fan@example.com"), "the opening's announcement"
	})
	if time.Now().Before(opens) {
		t.Fatal("announced before the opening")
	}
	if sentTo(t, a, "broadcast", "quiet@example.com") || countRows(t, a, `SELECT count(*) FROM broadcasts WHERE audience_kind = 'marketing' AND created_by = $1`, rootID) != 1 {
		t.Fatal("the announcement went beyond the marketing audience, or not from the superadmin who saved the edition")
	}
	testenv.Eventually(t, 45*time.Second, func() (bool, string) {
		return sentTo(t, a, "apply_reminder", "drafter@example.com"), "the draft's reminder"
	})
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE kind = 'apply_reminder'`); n != 1 {
		t.Fatalf("%d reminders, want the one draft's (not the submitted one's)", n)
	}
	text, ok := testenv.Mail.Text("apply-reminder:" + draft.ID.String())
	if !ok || !strings.Contains(text, "/api/unsubscribe?token=") || !strings.Contains(text, "/apply") {
		t.Fatalf("the reminder as sent: %q", text)
	}

	soon := time.Now().Add(4 * time.Second).UTC().Truncate(time.Second)
	super.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{"applications_close_at": rfc3339(soon)})
	testenv.Eventually(t, 45*time.Second, func() (bool, string) {
		return sentTo(t, a, "apply_summary", "root@example.com"), "the close's summary"
	})
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	var res workflows.ApplicationWindowResult
	if err := a.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Announced != 1 || res.Reminded != 1 || res.Summaries != 1 || !res.Closed {
		t.Fatalf("result %+v", res)
	}
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE kind = 'apply_reminder'`); n != 1 {
		t.Fatalf("%d reminders after the close moved, want still 1", n)
	}
	if kind := searchAttribute(t, a, id, "HackdeskKind"); kind != "application-window" {
		t.Errorf("HackdeskKind %q", kind)
	}
	if subject := searchAttribute(t, a, id, "HackdeskSubject"); subject != h.ID.String() {
		t.Errorf("HackdeskSubject %q", subject)
	}
	testenv.RecordHistory(t, a.Temporal, id, "application_window_e2e")
}

// TestApplicationWindowReconcile: an edition with its window ahead whose
// run is missing is restarted by the reconciler (TermReconcile), once.
func TestApplicationWindowReconcile(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	closes := time.Now().Add(40 * 24 * time.Hour)
	h := testenv.Hackathon(t, a.Store, testenv.HackathonOpts{Name: "Missing run", OpensAt: time.Now().Add(30 * 24 * time.Hour), ClosesAt: &closes})
	id := workflows.ApplicationWindowID(h.ID)
	t.Cleanup(func() { _ = a.Temporal.TerminateWorkflow(context.Background(), id, "", "test over") })
	reconcile := func(name string) workflows.TermReconcileResult {
		t.Helper()
		run, err := a.Temporal.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: "reconcile-" + name + "-" + a.Config.TaskQueue,
			TaskQueue: a.Config.TaskQueue}, workflows.TermReconcile, workflows.TermReconcileInput{PublicURL: a.Config.PublicURL})
		if err != nil {
			t.Fatal(err)
		}
		var res workflows.TermReconcileResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := reconcile("first")
	if first.Hackathons != 1 || len(first.StartedHackathons) != 1 || first.StartedHackathons[0] != h.ID.String() {
		t.Fatalf("first reconcile %+v", first)
	}
	if kind := searchAttribute(t, a, id, "HackdeskKind"); kind != "application-window" {
		t.Fatalf("restarted run's HackdeskKind %q", kind)
	}
	if again := reconcile("again"); again.Hackathons != 1 || len(again.StartedHackathons) != 0 {
		t.Fatalf("second reconcile %+v, want the running run left alone", again)
	}
}
