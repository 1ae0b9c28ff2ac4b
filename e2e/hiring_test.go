package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	acct "hackdesk/account"
	"hackdesk/activities"
	"hackdesk/app"
	"hackdesk/testenv"
	"hackdesk/workflows"
)

// hiringTermVia creates a term through the API and returns its id.
func hiringTermVia(t *testing.T, c *client, name, starts, ends string, active bool) uuid.UUID {
	t.Helper()
	var out struct {
		Term struct {
			ID uuid.UUID `json:"id"`
		} `json:"term"`
	}
	c.expect(201, "POST", "/api/admin/terms", map[string]any{"name": name, "starts_on": starts, "ends_on": ends, "active": active}).JSON(t, &out)
	return out.Term.ID
}

func hiringPosition(t *testing.T, c *client, term uuid.UUID, title, subteam, grants string) uuid.UUID {
	t.Helper()
	var out struct {
		Position struct {
			ID uuid.UUID `json:"id"`
		} `json:"position"`
	}
	c.expect(201, "POST", "/api/positions", map[string]any{"term_id": term, "title": title, "subteam": subteam, "grants": grants}).JSON(t, &out)
	return out.Position.ID
}

// execAccount makes an account holding an exec role of a term.
func execAccount(t *testing.T, a *app.App, email, role, exec, subteam string, term *uuid.UUID) uuid.UUID {
	t.Helper()
	id := account(t, a, email, strings.Split(email, "@")[0], role)
	if err := acct.GrantByEmail(context.Background(), a.Store, email, acct.Change{Exec: exec, Subteam: subteam, TermID: term}); err != nil {
		t.Fatal(err)
	}
	return id
}

// applyFor drafts an application for the account choosing the positions
// and submits it; it returns the selection ids by position.
func applyFor(t *testing.T, a *app.App, base *client, owner uuid.UUID, positions ...uuid.UUID) map[uuid.UUID]uuid.UUID {
	t.Helper()
	appID := uuid.New()
	seedApplication(t, a, appID, owner, "draft")
	c := as(t, a, base, owner)
	c.expect(200, "PATCH", "/api/applications", map[string]any{"position_ids": positions})
	c.expect(200, "POST", "/api/applications/submit", nil)
	rows, err := a.Store.Pool().Query(context.Background(),
		`SELECT position_id, id, status FROM selections WHERE application_id = $1`, appID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[uuid.UUID]uuid.UUID{}
	for rows.Next() {
		var pos, id uuid.UUID
		var status string
		if err := rows.Scan(&pos, &id, &status); err != nil {
			t.Fatal(err)
		}
		if status != "in_review" {
			t.Errorf("new selection is %s", status)
		}
		out[pos] = id
	}
	if len(out) != len(positions) {
		t.Fatalf("%d selections for %d positions", len(out), len(positions))
	}
	return out
}

func errorOf(t *testing.T, r response) (string, string) {
	t.Helper()
	m := r.Map(t)
	msg, _ := m["message"].(string)
	return m["error"].(string), msg
}

func countRows(t *testing.T, a *app.App, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestHiringFlow runs exec hiring end to end: positions chosen on the
// application, VP-scoped review, the President's decisions and emails, the
// dashboard and team preview, and finalization on the real worker.
func TestHiringFlow(t *testing.T) {
	a, anon := newApp(t)
	ctx := context.Background()
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	oldTerm := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	newTerm := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)

	presID := execAccount(t, a, "pres@example.com", "admin", "President", "Board", &oldTerm)
	pres := as(t, a, anon, presID)
	vpDesign := as(t, a, anon, execAccount(t, a, "vpdesign@example.com", "admin", "VP", "Design", &oldTerm))
	vpTech := as(t, a, anon, execAccount(t, a, "vptech@example.com", "admin", "VP", "Tech", &oldTerm))
	oldExec := execAccount(t, a, "oldexec@example.com", "admin", "Exec", "Tech", &oldTerm)
	oldSuper := execAccount(t, a, "oldsuper@example.com", "superadmin", "VP", "Ops", &oldTerm)

	designLead := hiringPosition(t, pres, newTerm, "Design Lead", "Design", "vp")
	designer := hiringPosition(t, pres, newTerm, "Designer", "Design", "exec")
	techDev := hiringPosition(t, pres, newTerm, "Developer", "Tech", "exec")
	extra := hiringPosition(t, pres, newTerm, "Writer", "Comms", "exec")
	closed := hiringPosition(t, pres, newTerm, "Closed", "Comms", "exec")
	pres.expect(200, "PATCH", "/api/positions/"+closed.String(), map[string]any{"open": false})
	oldPos := hiringPosition(t, pres, oldTerm, "Old", "Tech", "exec")

	// The public list shows the hiring term's open positions.
	var pub struct {
		Positions []struct {
			ID uuid.UUID `json:"id"`
		} `json:"positions"`
	}
	anon.expect(200, "GET", "/api/positions", nil).JSON(t, &pub)
	if len(pub.Positions) != 4 {
		t.Errorf("public positions = %d, want 4 open ones", len(pub.Positions))
	}

	// position_ids is validated like every other field.
	ann := account(t, a, "ann@example.com", "Ann", "member")
	bob := account(t, a, "bob@example.com", "Bob", "member")
	cat := account(t, a, "cat@example.com", "Cat", "member")
	probe := account(t, a, "probe@example.com", "Probe", "member")
	seedApplication(t, a, uuid.New(), probe, "draft")
	pc := as(t, a, anon, probe)
	for _, bad := range []any{
		[]uuid.UUID{designLead, designer, techDev, extra},
		[]string{"nope"},
		[]uuid.UUID{designLead, designLead},
		[]uuid.UUID{closed},
		[]uuid.UUID{designLead, oldPos},
		[]uuid.UUID{uuid.New()},
	} {
		r := pc.expect(400, "PATCH", "/api/applications", map[string]any{"position_ids": bad})
		if m := r.Map(t); m["details"].(map[string]any)["position_ids"] == nil {
			t.Errorf("%v: %s", bad, r.Body)
		}
	}

	annSel := applyFor(t, a, anon, ann, designLead, techDev)
	bobSel := applyFor(t, a, anon, bob, designer)
	catSel := applyFor(t, a, anon, cat, techDev)

	// Scope: a VP lists only their subteam's selections.
	var list struct {
		Items []struct {
			SelectionID uuid.UUID `json:"selection_id"`
			Position    struct {
				Subteam string `json:"subteam"`
			} `json:"position"`
			Answers []map[string]string `json:"answers"`
		} `json:"items"`
		Total int `json:"total"`
	}
	vpDesign.expect(200, "GET", "/api/applications/review", nil).JSON(t, &list)
	if list.Total != 2 || len(list.Items) != 2 {
		t.Fatalf("Design VP sees %d selections, want 2", list.Total)
	}
	for _, it := range list.Items {
		if it.Position.Subteam != "Design" || len(it.Answers) != 2 {
			t.Errorf("Design VP sees %+v", it)
		}
	}
	vpTech.expect(200, "GET", "/api/applications/review?q=cat", nil).JSON(t, &list)
	if list.Total != 1 || list.Items[0].SelectionID != catSel[techDev] {
		t.Errorf("Tech VP search = %+v", list)
	}
	pres.expect(200, "GET", "/api/applications/review?status=in_review", nil).JSON(t, &list)
	if list.Total != 4 {
		t.Errorf("President sees %d, want 4", list.Total)
	}
	vpDesign.expect(400, "GET", "/api/applications/review?status=hired", nil)
	// A page past the end is empty but still counts.
	list.Total = -1
	vpDesign.expect(200, "GET", "/api/applications/review?page=3&page_size=10", nil).JSON(t, &list)
	if list.Total != 2 || len(list.Items) != 0 {
		t.Errorf("Design VP's page 3: %d items of %d, want 0 of 2", len(list.Items), list.Total)
	}

	review := func(c *client, want int, sel uuid.UUID, status string) response {
		t.Helper()
		return c.expect(want, "PATCH", "/api/applications/review/"+sel.String(), map[string]any{"status": status})
	}
	decide := func(want int, sel uuid.UUID, status string) response {
		t.Helper()
		return pres.expect(want, "PATCH", "/api/applications/hiring/selections/"+sel.String(), map[string]any{"status": status})
	}
	// Another subteam's selection is 404 to a VP, even for a refused move.
	review(vpDesign, 404, annSel[techDev], "interviewing")
	review(vpDesign, 404, annSel[techDev], "offer_sent")
	// VP moves among the review statuses; President-only statuses are 403.
	review(vpDesign, 200, annSel[designLead], "interviewing")
	review(vpDesign, 200, annSel[designLead], "not_wanted")
	review(vpDesign, 200, annSel[designLead], "wanted")
	review(vpDesign, 200, annSel[designLead], "wanted") // the same again: nothing recorded
	for _, s := range []string{"offer_sent", "rejection_sent", "accepted_offer", "declined_offer"} {
		if e, _ := errorOf(t, review(vpDesign, 403, annSel[designLead], s)); e != "Forbidden" {
			t.Errorf("VP %s: %s", s, e)
		}
	}
	if n := countRows(t, a, `SELECT count(*) FROM selection_events WHERE selection_id = $1`, annSel[designLead]); n != 3 {
		t.Errorf("%d events, want 3", n)
	}
	// A refused move is 409 with the from/to message.
	e, msg := errorOf(t, decide(409, annSel[techDev], "offer_sent"))
	if e != "Invalid status change" || msg != "cannot move from in_review to offer_sent" {
		t.Errorf("got %q %q", e, msg)
	}
	decide(409, annSel[techDev], "accepted_offer")
	decide(200, annSel[designLead], "offer_sent")
	decide(409, annSel[designLead], "wanted")
	decide(200, annSel[designLead], "accepted_offer")
	decide(409, annSel[designLead], "declined_offer")
	// A second accepted offer for the same person and term is 409.
	decide(200, annSel[techDev], "wanted")
	decide(200, annSel[techDev], "offer_sent")
	if e, _ := errorOf(t, decide(409, annSel[techDev], "accepted_offer")); e != "Offer already accepted" {
		t.Errorf("second acceptance: %s", e)
	}
	decide(200, annSel[techDev], "declined_offer")
	decide(200, bobSel[designer], "rejection_sent")
	_, msg = errorOf(t, decide(409, bobSel[designer], "in_review"))
	if msg != "cannot move from rejection_sent to in_review" {
		t.Errorf("final status moved: %q", msg)
	}
	review(vpTech, 200, catSel[techDev], "wanted")
	decide(200, catSel[techDev], "offer_sent")
	decide(200, catSel[techDev], "accepted_offer")
	decide(404, uuid.New(), "wanted")

	// Offers and rejections email the applicant once each.
	for _, c := range []struct{ to, kind string }{
		{"ann@example.com", "hiring_offer"}, {"cat@example.com", "hiring_offer"}, {"bob@example.com", "hiring_rejection"},
	} {
		sentEmail(t, a, c.to, c.kind)
	}
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE to_address = 'ann@example.com' AND kind = 'hiring_offer'`); n != 2 {
		t.Errorf("ann has %d offer emails, want 2 (one per offered selection)", n)
	}

	// A position with selections is closed, not deleted.
	pres.expect(409, "DELETE", "/api/positions/"+designer.String(), nil)
	pres.expect(200, "DELETE", "/api/positions/"+extra.String(), nil)
	pres.expect(404, "DELETE", "/api/positions/"+extra.String(), nil)

	// The dashboard and the team preview.
	var board struct {
		Applicants []struct {
			Email      string `json:"email"`
			Selections []struct {
				Status string `json:"status"`
			} `json:"selections"`
		} `json:"applicants"`
	}
	pres.expect(200, "GET", "/api/applications/hiring?term_id="+newTerm.String(), nil).JSON(t, &board)
	if len(board.Applicants) != 3 {
		t.Fatalf("board has %d applicants", len(board.Applicants))
	}
	for _, ap := range board.Applicants {
		if ap.Email == "ann@example.com" && len(ap.Selections) != 2 {
			t.Errorf("ann has %d selections", len(ap.Selections))
		}
	}
	type teamJSON struct {
		NewExecs []struct {
			Email string `json:"email"`
		} `json:"new_execs"`
		Demoted []struct {
			Email string `json:"email"`
		} `json:"demoted"`
		FinalizedAt *time.Time `json:"finalized_at"`
	}
	var team teamJSON
	pres.expect(200, "GET", "/api/applications/hiring/team", nil).JSON(t, &team)
	if len(team.NewExecs) != 2 || len(team.Demoted) != 5 || team.FinalizedAt != nil {
		t.Fatalf("team preview %+v", team)
	}
	vpDesign.expect(403, "GET", "/api/applications/hiring/team", nil)

	// Finalize.
	pres.expect(400, "POST", "/api/applications/hiring/finalize", map[string]any{"term_id": newTerm, "all_hands_url": "http://cal.example.com/x"})
	pres.expect(404, "POST", "/api/applications/hiring/finalize", map[string]any{"term_id": uuid.New(), "all_hands_url": "https://cal.example.com/x"})
	allHands := "https://cal.example.com/all-hands"
	var fin struct {
		WorkflowID string `json:"workflow_id"`
	}
	pres.expect(202, "POST", "/api/applications/hiring/finalize", map[string]any{"term_id": newTerm, "all_hands_url": allHands}).JSON(t, &fin)
	if fin.WorkflowID != workflows.HiringFinalizationID(newTerm) {
		t.Fatalf("workflow id %q", fin.WorkflowID)
	}
	var again struct {
		WorkflowID string `json:"workflow_id"`
	}
	pres.expect(202, "POST", "/api/applications/hiring/finalize", map[string]any{"term_id": newTerm, "all_hands_url": allHands}).JSON(t, &again)
	if again.WorkflowID != fin.WorkflowID {
		t.Errorf("second finalize answered %q", again.WorkflowID)
	}
	if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1`, fin.WorkflowID); n != 1 {
		t.Errorf("%d outbox rows for the finalization", n)
	}
	var res activities.FinalizationResult
	waitFor(t, "the finalization workflow", func() bool {
		_, err := a.Temporal.DescribeWorkflowExecution(ctx, fin.WorkflowID, "")
		return err == nil
	})
	run := a.Temporal.GetWorkflow(ctx, fin.WorkflowID, "")
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := run.Get(cctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Promoted != 2 || res.Demoted != 5 || res.Welcomed != 2 {
		t.Errorf("result %+v", res)
	}
	testenv.RecordHistory(t, a.Temporal, fin.WorkflowID, "hiring_finalization")

	// Roles after the run.
	roleOf := func(email string) (role, exec, subteam string, term *uuid.UUID) {
		t.Helper()
		var e, s *string
		if err := a.Store.Pool().QueryRow(ctx, `SELECT p.role, e.position, e.subteam, e.term_id FROM profiles p
			LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active WHERE p.email = $1`, email).Scan(&role, &e, &s, &term); err != nil {
			t.Fatal(err)
		}
		if e != nil {
			exec = *e
		}
		if s != nil {
			subteam = *s
		}
		return
	}
	for _, c := range []struct{ email, role, exec, subteam string }{
		{"ann@example.com", "admin", "VP", "Design"},
		{"cat@example.com", "admin", "Exec", "Tech"},
		{"bob@example.com", "member", "", ""},
		{"oldexec@example.com", "member", "", ""},
		{"pres@example.com", "member", "", ""},
		{"vpdesign@example.com", "member", "", ""},
		{"oldsuper@example.com", "superadmin", "", ""},
		{"root@example.com", "superadmin", "", ""},
	} {
		role, exec, subteam, term := roleOf(c.email)
		if role != c.role || exec != c.exec || subteam != c.subteam {
			t.Errorf("%s: %s %s %s, want %s %s %s", c.email, role, exec, subteam, c.role, c.exec, c.subteam)
		}
		if exec != "" && (term == nil || *term != newTerm) {
			t.Errorf("%s: exec role of term %v", c.email, term)
		}
	}
	// Ended roles stay as history.
	if n := countRows(t, a, `SELECT count(*) FROM exec_roles WHERE profile_id = ANY($1) AND NOT active AND ended_at IS NOT NULL`,
		[]uuid.UUID{oldExec, oldSuper, presID}); n != 3 {
		t.Errorf("%d ended roles kept, want 3", n)
	}
	// One welcome email each, with the all-hands link.
	for _, to := range []string{"ann@example.com", "cat@example.com"} {
		e := sentEmail(t, a, to, "exec_welcome")
		if !strings.Contains(e.TextBody, allHands) || !strings.Contains(e.TextBody, "/onboarding") {
			t.Errorf("welcome to %s: %q", to, e.TextBody)
		}
	}
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE kind = 'exec_welcome'`); n != 2 {
		t.Errorf("%d welcome emails, want 2", n)
	}
	pres2 := as(t, a, anon, account(t, a, "pres2@example.com", "Pres2", "superadmin"))
	pres2.expect(200, "GET", "/api/applications/hiring/team?term_id="+newTerm.String(), nil).JSON(t, &team)
	if team.FinalizedAt == nil || len(team.NewExecs) != 2 {
		t.Errorf("team after finalization %+v", team)
	}
	// The former President no longer passes the President check.
	pres.expect(403, "GET", "/api/applications/hiring", nil)
}

// TestTermRoutes covers the term routes: create, list, the one active
// term, window rules and moving the active flag.
func TestTermRoutes(t *testing.T) {
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	member := as(t, a, anon, account(t, a, "m@example.com", "M", "member"))
	// The migration keeps no terms here; none is active yet.
	member.expect(404, "GET", "/api/terms/active", nil)
	first := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	second := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
	active := func() uuid.UUID {
		var out struct {
			Term struct {
				ID uuid.UUID `json:"id"`
			} `json:"term"`
		}
		member.expect(200, "GET", "/api/terms/active", nil).JSON(t, &out)
		return out.Term.ID
	}
	if active() != first {
		t.Fatal("first term not active")
	}
	super.expect(200, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{"active": true})
	if active() != second {
		t.Fatal("active flag did not move")
	}
	if n := countRows(t, a, `SELECT count(*) FROM terms WHERE active`); n != 1 {
		t.Errorf("%d active terms", n)
	}
	super.expect(409, "POST", "/api/admin/terms", map[string]any{"name": "2025-2026", "starts_on": "2030-01-01", "ends_on": "2030-12-31"})
	super.expect(400, "POST", "/api/admin/terms", map[string]any{"name": "x", "starts_on": "2030-01-01", "ends_on": "2029-12-31"})
	super.expect(400, "POST", "/api/admin/terms", map[string]any{"name": "x", "starts_on": "2030-01-01"})
	super.expect(400, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{
		"onboarding_opens_at": "2026-09-10T00:00:00Z", "onboarding_closes_at": "2026-09-01T00:00:00Z"})
	super.expect(400, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{"onboarding_opens_at": "2026-09-10T00:00:00Z"})
	super.expect(400, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{"active": false})
	var out struct {
		Term map[string]any `json:"term"`
	}
	super.expect(200, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{
		"onboarding_opens_at": "2026-09-01T00:00:00Z", "onboarding_closes_at": "2026-09-10T00:00:00Z"}).JSON(t, &out)
	if out.Term["onboarding_closes_at"] == nil || out.Term["active"] != true {
		t.Errorf("patched term %v", out.Term)
	}
	super.expect(404, "PATCH", "/api/admin/terms/"+uuid.NewString(), map[string]any{"name": "y"})
	var terms struct {
		Terms    []map[string]any `json:"terms"`
		Total    int              `json:"total"`
		Page     int              `json:"page"`
		PageSize int              `json:"page_size"`
	}
	super.expect(200, "GET", "/api/admin/terms", nil).JSON(t, &terms)
	if len(terms.Terms) != 2 || terms.Terms[0]["name"] != "2026-2027" || terms.Total != 2 || terms.Page != 1 || terms.PageSize != 25 {
		t.Errorf("terms %+v", terms)
	}
	super.expect(200, "GET", "/api/admin/terms?page=2&page_size=10", nil).JSON(t, &terms)
	if len(terms.Terms) != 0 || terms.Total != 2 || terms.Page != 2 || terms.PageSize != 10 {
		t.Errorf("terms page 2 %+v", terms)
	}
	super.expect(400, "GET", "/api/admin/terms?page_size=5", nil)
	member.expect(403, "GET", "/api/admin/terms", nil)
}

// TestPositionRoutes covers positions without a hiring round.
func TestPositionRoutes(t *testing.T) {
	a, anon := newApp(t)
	anon.expect(200, "GET", "/api/positions", nil) // no term yet: an empty list
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	pres := as(t, a, anon, execAccount(t, a, "p@example.com", "member", "President", "Board", &term))
	vp := as(t, a, anon, execAccount(t, a, "v@example.com", "member", "VP", "Tech", &term))
	pres.expect(400, "POST", "/api/positions", map[string]any{"title": "Dev", "subteam": "Tech", "grants": "admin"})
	pres.expect(400, "POST", "/api/positions", map[string]any{"title": "Dev"})
	vp.expect(403, "POST", "/api/positions", map[string]any{"title": "Dev", "subteam": "Tech", "grants": "exec"})
	var out struct {
		Position map[string]any `json:"position"`
	}
	pres.expect(201, "POST", "/api/positions", map[string]any{"title": "Dev", "subteam": "Tech", "grants": "exec"}).JSON(t, &out)
	if out.Position["term_id"] != term.String() || out.Position["open"] != true {
		t.Errorf("position %v", out.Position)
	}
	id := out.Position["id"].(string)
	pres.expect(200, "PATCH", "/api/positions/"+id, map[string]any{"open": false, "description": "Builds things"})
	var list struct {
		Positions []map[string]any `json:"positions"`
	}
	anon.expect(200, "GET", "/api/positions", nil).JSON(t, &list)
	if len(list.Positions) != 0 {
		t.Errorf("a closed position is public: %v", list.Positions)
	}
	pres.expect(200, "GET", "/api/positions?term_id="+term.String(), nil).JSON(t, &list)
	if len(list.Positions) != 1 || list.Positions[0]["description"] != "Builds things" {
		t.Errorf("President's list %v", list.Positions)
	}
	anon.expect(400, "GET", "/api/positions?term_id=nope", nil)
	pres.expect(200, "DELETE", "/api/positions/"+id, nil)
	pres.expect(404, "PATCH", "/api/positions/"+id, map[string]any{"open": true})
}
