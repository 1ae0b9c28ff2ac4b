package e2e

import (
	"net/http"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/workflows"
)

// TestHiringFinalizeGuards: only the hiring term (the one that starts
// last) can be finalized, and only with an accepted offer; a refused call
// records nothing. The previous execs of a term are those of terms that
// start before it, never those of a later term.
func TestHiringFinalizeGuards(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	oldTerm := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	newTerm := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
	pres := as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "Board", &newTerm))
	execAccount(t, a, "vp@example.com", "admin", "VP", "Tech", &newTerm)
	execAccount(t, a, "old@example.com", "admin", "Exec", "Tech", &oldTerm)
	dev := hiringPosition(t, pres, newTerm, "Developer", "Tech", "exec")
	hiringPosition(t, pres, oldTerm, "Old", "Tech", "exec")
	body := func(term uuid.UUID) map[string]any {
		return map[string]any{"term_id": term, "all_hands_url": "https://cal.example.com/all-hands"}
	}
	nothingRecorded := func(term uuid.UUID) {
		t.Helper()
		if n := countRows(t, a, `SELECT count(*) FROM hiring_finalizations WHERE term_id = $1`, term); n != 0 {
			t.Errorf("%d finalizations recorded for %s", n, term)
		}
		if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1`, workflows.HiringFinalizationID(term)); n != 0 {
			t.Errorf("%d workflow starts queued for %s", n, term)
		}
	}

	// The old term's preview names only execs of terms before it: none.
	var team struct {
		Demoted []struct {
			Email string `json:"email"`
		} `json:"demoted"`
	}
	pres.expect(http.StatusOK, "GET", "/api/applications/hiring/team?term_id="+oldTerm.String(), nil).JSON(t, &team)
	if len(team.Demoted) != 0 {
		t.Errorf("the old term's preview demotes %+v, want nobody (no term starts before it)", team.Demoted)
	}
	pres.expect(http.StatusOK, "GET", "/api/applications/hiring/team", nil).JSON(t, &team)
	if len(team.Demoted) != 1 || team.Demoted[0].Email != "old@example.com" {
		t.Errorf("the hiring term's preview demotes %+v, want old@example.com", team.Demoted)
	}

	// Another term than the hiring term: 409, nothing claimed.
	if e, _ := errorOf(t, pres.expect(http.StatusConflict, "POST", "/api/applications/hiring/finalize", body(oldTerm))); e != "Not the hiring term" {
		t.Errorf("old term: %s", e)
	}
	nothingRecorded(oldTerm)
	// The hiring term without an accepted offer: 409, nothing claimed.
	if e, _ := errorOf(t, pres.expect(http.StatusConflict, "POST", "/api/applications/hiring/finalize", body(newTerm))); e != "Nothing to finalize" {
		t.Errorf("no accepted offer: %s", e)
	}
	nothingRecorded(newTerm)
	// An offer sent but not accepted is still nothing to finalize.
	sel := applyFor(t, a, anon, account(t, a, "ann@example.com", "Ann", "member"), dev)[dev]
	for _, s := range []string{"wanted", "offer_sent"} {
		pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+sel.String(), map[string]any{"status": s})
	}
	pres.expect(http.StatusConflict, "POST", "/api/applications/hiring/finalize", body(newTerm))
	nothingRecorded(newTerm)

	// With an accepted offer it is claimed once; a repeat answers the same
	// id, even once another term has become the hiring term.
	pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+sel.String(), map[string]any{"status": "accepted_offer"})
	var fin struct {
		WorkflowID string `json:"workflow_id"`
	}
	pres.expect(http.StatusAccepted, "POST", "/api/applications/hiring/finalize", body(newTerm)).JSON(t, &fin)
	if fin.WorkflowID != workflows.HiringFinalizationID(newTerm) {
		t.Fatalf("workflow id %q", fin.WorkflowID)
	}
	hiringTermVia(t, super, "2027-2028", "2027-09-01", "2028-08-31", false)
	pres.expect(http.StatusAccepted, "POST", "/api/applications/hiring/finalize", body(newTerm)).JSON(t, &fin)
	if fin.WorkflowID != workflows.HiringFinalizationID(newTerm) {
		t.Fatalf("repeat answered %q", fin.WorkflowID)
	}
}

// TestConflictSelections: a hiring status change on one's own selection,
// on one whose application lists the caller as a team member, or on one
// of someone the caller's own application lists, is 403
// naming the conflict, for a VP and a President alike, and records
// nothing; another President or a superadmin moves it. Scope comes first:
// another subteam's selection stays 404.
func TestConflictSelections(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	presID := execAccount(t, a, "pres@example.com", "admin", "President", "Board", &term)
	pres := as(t, a, anon, presID)
	pres2 := as(t, a, anon, execAccount(t, a, "pres2@example.com", "admin", "President", "Board", &term))
	vpID := execAccount(t, a, "VP.Design@Example.com", "admin", "VP", "Design", &term)
	vp := as(t, a, anon, vpID)
	vpTech := as(t, a, anon, execAccount(t, a, "vptech@example.com", "admin", "VP", "Tech", &term))
	lead := hiringPosition(t, pres, term, "Design Lead", "Design", "vp")
	designer := hiringPosition(t, pres, term, "Designer", "Design", "exec")

	presSel := applyFor(t, a, anon, presID, lead)[lead]
	vpSel := applyFor(t, a, anon, vpID, designer)[designer]
	friend := account(t, a, "friend@example.com", "Friend", "member")
	friendSel := applyFor(t, a, anon, friend, designer)[designer]
	setTeam(t, a, applicationOf(t, a, friendSel), "someone@example.com , vp.design@EXAMPLE.com")
	// The VP's own application lists Mate: the conflict the other way.
	mateSel := applyFor(t, a, anon, account(t, a, "mate@example.com", "Mate", "member"), designer)[designer]
	setTeam(t, a, applicationOf(t, a, vpSel), "Mate@Example.com")

	move := func(c *client, want int, path string, sel uuid.UUID, status string) response {
		t.Helper()
		return c.expect(want, "PATCH", path+sel.String(), map[string]any{"status": status})
	}
	const review, hiring = "/api/applications/review/", "/api/applications/hiring/selections/"
	for _, c := range []struct {
		name    string
		caller  *client
		path    string
		sel     uuid.UUID
		status  string
		message string
	}{
		{"VP own", vp, review, vpSel, "wanted", "You cannot change the status of your own application"},
		{"VP teammate", vp, review, friendSel, "not_wanted", "You cannot change the status of an application that lists you as a team member"},
		{"VP listing the applicant", vp, review, mateSel, "wanted",
			"You cannot change the status of the application of someone your application lists as a team member"},
		{"President own", pres, hiring, presSel, "wanted", "You cannot change the status of your own application"},
		{"President own via the review route", pres, review, presSel, "interviewing", "You cannot change the status of your own application"},
	} {
		r := move(c.caller, http.StatusForbidden, c.path, c.sel, c.status)
		if e, msg := errorOf(t, r); e != "Forbidden" || msg != c.message {
			t.Errorf("%s: %q %q, want Forbidden %q", c.name, e, msg, c.message)
		}
	}
	if n := countRows(t, a, `SELECT count(*) FROM selection_events`); n != 0 {
		t.Errorf("%d selection events after refused changes", n)
	}
	// Scope first: another subteam's VP gets 404, not the conflict.
	move(vpTech, http.StatusNotFound, review, vpSel, "wanted")
	// Others move them: the other President, a superadmin, the VP on an
	// application that does not list them.
	move(pres2, http.StatusOK, hiring, presSel, "wanted")
	move(pres2, http.StatusOK, hiring, presSel, "offer_sent")
	// The President cannot accept the offer made to them either.
	move(pres, http.StatusForbidden, hiring, presSel, "accepted_offer")
	move(super, http.StatusOK, hiring, presSel, "accepted_offer")
	move(pres, http.StatusOK, hiring, vpSel, "interviewing")
	move(pres, http.StatusOK, hiring, friendSel, "wanted")
	move(pres, http.StatusOK, hiring, mateSel, "wanted")
	if n := countRows(t, a, `SELECT count(*) FROM selections WHERE id = $1 AND status = 'accepted_offer'`, presSel); n != 1 {
		t.Errorf("the President's selection was not accepted by another")
	}
}

// applicationOf is the application a selection was made on.
func applicationOf(t *testing.T, a *app.App, sel uuid.UUID) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := a.Store.Pool().QueryRow(t.Context(), `SELECT application_id FROM selections WHERE id = $1`, sel).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}
