package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/activities"
	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

// TestHiringFlow runs exec hiring end to end, one step after another on the
// same data: positions chosen on the application, VP-scoped review, the
// President's decisions and emails, the dashboard and team preview, and
// finalization on the real worker.
func TestHiringFlow(t *testing.T) {
	t.Parallel()
	h := newHiringRound(t)
	h.publicPositionsAndValidation()
	h.apply()
	h.reviewScope()
	h.statusMoves()
	h.offerEmails()
	h.closingAndBoard()
	h.finalize()
	h.rolesAfterFinalization()
}

// hiringRound is the data of TestHiringFlow: the outgoing execs of the old
// term, positions of the new one, and applicants with their selections.
type hiringRound struct {
	t                      *testing.T
	a                      *app.App
	anon, pres             *client
	vpDesign, vpTech       *client
	presID, oldExec        uuid.UUID
	oldSuper               uuid.UUID
	oldTerm, newTerm       uuid.UUID
	designLead, designer   uuid.UUID
	techDev, extra, closed uuid.UUID
	oldPos                 uuid.UUID
	annSel, bobSel, catSel map[uuid.UUID]uuid.UUID
	allHands               string
}

// newHiringRound makes the terms (the old one active), the old term's execs
// and the positions, one of them closed and one of the old term.
func newHiringRound(t *testing.T) *hiringRound {
	a, anon := newApp(t)
	h := &hiringRound{t: t, a: a, anon: anon, allHands: "https://cal.example.com/all-hands"}
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	h.oldTerm = hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	h.newTerm = hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)

	h.presID = execAccount(t, a, "pres@example.com", "admin", "President", "Board", &h.oldTerm)
	h.pres = as(t, a, anon, h.presID)
	h.vpDesign = as(t, a, anon, execAccount(t, a, "vpdesign@example.com", "admin", "VP", "Design", &h.oldTerm))
	h.vpTech = as(t, a, anon, execAccount(t, a, "vptech@example.com", "admin", "VP", "Tech", &h.oldTerm))
	h.oldExec = execAccount(t, a, "oldexec@example.com", "admin", "Exec", "Tech", &h.oldTerm)
	h.oldSuper = execAccount(t, a, "oldsuper@example.com", "superadmin", "VP", "Ops", &h.oldTerm)

	h.designLead = hiringPosition(t, h.pres, h.newTerm, "Design Lead", "Design", "vp")
	h.designer = hiringPosition(t, h.pres, h.newTerm, "Designer", "Design", "exec")
	h.techDev = hiringPosition(t, h.pres, h.newTerm, "Developer", "Tech", "exec")
	h.extra = hiringPosition(t, h.pres, h.newTerm, "Writer", "Comms", "exec")
	h.closed = hiringPosition(t, h.pres, h.newTerm, "Closed", "Comms", "exec")
	h.pres.expect(200, "PATCH", "/api/positions/"+h.closed.String(), map[string]any{"open": false})
	h.oldPos = hiringPosition(t, h.pres, h.oldTerm, "Old", "Tech", "exec")
	return h
}

// publicPositionsAndValidation: the public list shows the hiring term's
// open positions, and position_ids is validated like every other field.
func (h *hiringRound) publicPositionsAndValidation() {
	t := h.t
	var pub struct {
		Positions []struct {
			ID uuid.UUID `json:"id"`
		} `json:"positions"`
	}
	h.anon.expect(200, "GET", "/api/positions", nil).JSON(t, &pub)
	if len(pub.Positions) != 4 {
		t.Errorf("public positions = %d, want 4 open ones", len(pub.Positions))
	}

	probe := account(t, h.a, "probe@example.com", "Probe", "member")
	seedApplication(t, h.a, probe, "draft")
	pc := as(t, h.a, h.anon, probe)
	for _, bad := range []any{
		[]uuid.UUID{h.designLead, h.designer, h.techDev, h.extra},
		[]string{"nope"},
		[]uuid.UUID{h.designLead, h.designLead},
		[]uuid.UUID{h.closed},
		[]uuid.UUID{h.designLead, h.oldPos},
		[]uuid.UUID{uuid.New()},
	} {
		r := pc.expect(400, "PATCH", "/api/applications", map[string]any{"position_ids": bad})
		if m := r.Map(t); m["details"].(map[string]any)["position_ids"] == nil {
			t.Errorf("%v: %s", bad, r.Body)
		}
	}
}

// apply: three applicants choose positions and submit.
func (h *hiringRound) apply() {
	t, a := h.t, h.a
	ann := account(t, a, "ann@example.com", "Ann", "member")
	bob := account(t, a, "bob@example.com", "Bob", "member")
	cat := account(t, a, "cat@example.com", "Cat", "member")
	h.annSel = applyFor(t, a, h.anon, ann, h.designLead, h.techDev)
	h.bobSel = applyFor(t, a, h.anon, bob, h.designer)
	h.catSel = applyFor(t, a, h.anon, cat, h.techDev)
}

// reviewScope: a VP lists only their subteam's selections; the President
// lists all.
func (h *hiringRound) reviewScope() {
	t := h.t
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
	h.vpDesign.expect(200, "GET", "/api/applications/review", nil).JSON(t, &list)
	if list.Total != 2 || len(list.Items) != 2 {
		t.Fatalf("Design VP sees %d selections, want 2", list.Total)
	}
	for _, it := range list.Items {
		if it.Position.Subteam != "Design" || len(it.Answers) != 2 {
			t.Errorf("Design VP sees %+v", it)
		}
	}
	h.vpTech.expect(200, "GET", "/api/applications/review?q=cat", nil).JSON(t, &list)
	if list.Total != 1 || list.Items[0].SelectionID != h.catSel[h.techDev] {
		t.Errorf("Tech VP search = %+v", list)
	}
	h.pres.expect(200, "GET", "/api/applications/review?status=in_review", nil).JSON(t, &list)
	if list.Total != 4 {
		t.Errorf("President sees %d, want 4", list.Total)
	}
	h.vpDesign.expect(400, "GET", "/api/applications/review?status=hired", nil)
	// A page past the end is empty but still counts.
	list.Total = -1
	h.vpDesign.expect(200, "GET", "/api/applications/review?page=3&page_size=10", nil).JSON(t, &list)
	if list.Total != 2 || len(list.Items) != 0 {
		t.Errorf("Design VP's page 3: %d items of %d, want 0 of 2", len(list.Items), list.Total)
	}
}

func (h *hiringRound) review(c *client, want int, sel uuid.UUID, status string) response {
	h.t.Helper()
	return c.expect(want, "PATCH", "/api/applications/review/"+sel.String(), map[string]any{"status": status})
}

func (h *hiringRound) decide(want int, sel uuid.UUID, status string) response {
	h.t.Helper()
	return h.pres.expect(want, "PATCH", "/api/applications/hiring/selections/"+sel.String(), map[string]any{"status": status})
}

// statusMoves: VPs move selections among the review statuses of their
// subteam; the President makes offers and rejections; refused moves are
// 409 with the from/to message.
func (h *hiringRound) statusMoves() {
	t := h.t
	ann, bob, cat := h.annSel, h.bobSel, h.catSel
	// Another subteam's selection is 404 to a VP, even for a refused move.
	h.review(h.vpDesign, 404, ann[h.techDev], "interviewing")
	h.review(h.vpDesign, 404, ann[h.techDev], "offer_sent")
	// VP moves among the review statuses; President-only statuses are 403.
	h.review(h.vpDesign, 200, ann[h.designLead], "interviewing")
	h.review(h.vpDesign, 200, ann[h.designLead], "not_wanted")
	h.review(h.vpDesign, 200, ann[h.designLead], "wanted")
	h.review(h.vpDesign, 200, ann[h.designLead], "wanted") // the same again: nothing recorded
	for _, s := range []string{"offer_sent", "rejection_sent", "accepted_offer", "declined_offer"} {
		if e, _ := errorOf(t, h.review(h.vpDesign, 403, ann[h.designLead], s)); e != "Forbidden" {
			t.Errorf("VP %s: %s", s, e)
		}
	}
	if n := countRows(t, h.a, `SELECT count(*) FROM selection_events WHERE selection_id = $1`, ann[h.designLead]); n != 3 {
		t.Errorf("%d events, want 3", n)
	}
	// A refused move is 409 with the from/to message.
	e, msg := errorOf(t, h.decide(409, ann[h.techDev], "offer_sent"))
	if e != "Invalid status change" || msg != "cannot move from in_review to offer_sent" {
		t.Errorf("got %q %q", e, msg)
	}
	h.decide(409, ann[h.techDev], "accepted_offer")
	h.decide(200, ann[h.designLead], "offer_sent")
	h.decide(409, ann[h.designLead], "wanted")
	h.decide(200, ann[h.designLead], "accepted_offer")
	h.decide(409, ann[h.designLead], "declined_offer")
	// A second accepted offer for the same person and term is 409.
	h.decide(200, ann[h.techDev], "wanted")
	h.decide(200, ann[h.techDev], "offer_sent")
	if e, _ := errorOf(t, h.decide(409, ann[h.techDev], "accepted_offer")); e != "Offer already accepted" {
		t.Errorf("second acceptance: %s", e)
	}
	h.decide(200, ann[h.techDev], "declined_offer")
	h.decide(200, bob[h.designer], "rejection_sent")
	_, msg = errorOf(t, h.decide(409, bob[h.designer], "in_review"))
	if msg != "cannot move from rejection_sent to in_review" {
		t.Errorf("final status moved: %q", msg)
	}
	h.review(h.vpTech, 200, cat[h.techDev], "wanted")
	h.decide(200, cat[h.techDev], "offer_sent")
	h.decide(200, cat[h.techDev], "accepted_offer")
	h.decide(404, uuid.New(), "wanted")
}

// offerEmails: offers and rejections email the applicant once each.
func (h *hiringRound) offerEmails() {
	t := h.t
	for _, c := range []struct{ to, kind string }{
		{"ann@example.com", "hiring_offer"}, {"cat@example.com", "hiring_offer"}, {"bob@example.com", "hiring_rejection"},
	} {
		sentEmail(t, h.a, c.to, c.kind)
	}
	if n := countRows(t, h.a, `SELECT count(*) FROM emails WHERE to_address = 'ann@example.com' AND kind = 'hiring_offer'`); n != 2 {
		t.Errorf("ann has %d offer emails, want 2 (one per offered selection)", n)
	}
}

// hiringTeam is the team preview.
type hiringTeam struct {
	NewExecs []struct {
		Email string `json:"email"`
	} `json:"new_execs"`
	Demoted []struct {
		Email string `json:"email"`
	} `json:"demoted"`
	FinalizedAt *time.Time `json:"finalized_at"`
}

// closingAndBoard: a position with selections is closed, not deleted; the
// dashboard and the team preview before finalization.
func (h *hiringRound) closingAndBoard() {
	t := h.t
	h.pres.expect(409, "DELETE", "/api/positions/"+h.designer.String(), nil)
	h.pres.expect(200, "DELETE", "/api/positions/"+h.extra.String(), nil)
	h.pres.expect(404, "DELETE", "/api/positions/"+h.extra.String(), nil)

	var board struct {
		Applicants []struct {
			Email      string `json:"email"`
			Selections []struct {
				Status string `json:"status"`
			} `json:"selections"`
		} `json:"applicants"`
	}
	h.pres.expect(200, "GET", "/api/applications/hiring?term_id="+h.newTerm.String(), nil).JSON(t, &board)
	if len(board.Applicants) != 3 {
		t.Fatalf("board has %d applicants", len(board.Applicants))
	}
	for _, ap := range board.Applicants {
		if ap.Email == "ann@example.com" && len(ap.Selections) != 2 {
			t.Errorf("ann has %d selections", len(ap.Selections))
		}
	}
	var team hiringTeam
	h.pres.expect(200, "GET", "/api/applications/hiring/team", nil).JSON(t, &team)
	if len(team.NewExecs) != 2 || len(team.Demoted) != 5 || team.FinalizedAt != nil {
		t.Fatalf("team preview %+v", team)
	}
	h.vpDesign.expect(403, "GET", "/api/applications/hiring/team", nil)
}

// finalize: the request is checked, started once however often it is
// made, and the workflow promotes, demotes and welcomes.
func (h *hiringRound) finalize() {
	t, a := h.t, h.a
	ctx := context.Background()
	h.pres.expect(400, "POST", "/api/applications/hiring/finalize", map[string]any{"term_id": h.newTerm, "all_hands_url": "http://cal.example.com/x"})
	h.pres.expect(404, "POST", "/api/applications/hiring/finalize", map[string]any{"term_id": uuid.New(), "all_hands_url": "https://cal.example.com/x"})
	var fin, again struct {
		WorkflowID string `json:"workflow_id"`
	}
	body := map[string]any{"term_id": h.newTerm, "all_hands_url": h.allHands}
	h.pres.expect(202, "POST", "/api/applications/hiring/finalize", body).JSON(t, &fin)
	if fin.WorkflowID != workflows.HiringFinalizationID(h.newTerm) {
		t.Fatalf("workflow id %q", fin.WorkflowID)
	}
	h.pres.expect(202, "POST", "/api/applications/hiring/finalize", body).JSON(t, &again)
	if again.WorkflowID != fin.WorkflowID {
		t.Errorf("second finalize answered %q", again.WorkflowID)
	}
	if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1`, fin.WorkflowID); n != 1 {
		t.Errorf("%d outbox rows for the finalization", n)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		_, err := a.Temporal.DescribeWorkflowExecution(ctx, fin.WorkflowID, "")
		return err == nil, "the finalization workflow: " + errText(err)
	})
	var res activities.FinalizationResult
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := a.Temporal.GetWorkflow(ctx, fin.WorkflowID, "").Get(cctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Promoted != 2 || res.Demoted != 5 || res.Welcomed != 2 {
		t.Errorf("result %+v", res)
	}
	testenv.RecordHistory(t, a.Temporal, fin.WorkflowID, "hiring_finalization")
}

// rolesAfterFinalization: the hired hold their roles of the new term, the
// others are members (superadmins stay), ended roles are kept, each new
// exec is welcomed once, and the former President loses the President's
// routes.
func (h *hiringRound) rolesAfterFinalization() {
	t, a := h.t, h.a
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
		role, exec, subteam, term := roleOf(t, a, c.email)
		if role != c.role || exec != c.exec || subteam != c.subteam {
			t.Errorf("%s: %s %s %s, want %s %s %s", c.email, role, exec, subteam, c.role, c.exec, c.subteam)
		}
		if exec != "" && (term == nil || *term != h.newTerm) {
			t.Errorf("%s: exec role of term %v", c.email, term)
		}
	}
	// Ended roles stay as history.
	if n := countRows(t, a, `SELECT count(*) FROM exec_roles WHERE profile_id = ANY($1) AND NOT active AND ended_at IS NOT NULL`,
		[]uuid.UUID{h.oldExec, h.oldSuper, h.presID}); n != 3 {
		t.Errorf("%d ended roles kept, want 3", n)
	}
	// One welcome email each, with the all-hands link.
	for _, to := range []string{"ann@example.com", "cat@example.com"} {
		e := sentEmail(t, a, to, "exec_welcome")
		if !strings.Contains(e.TextBody, h.allHands) || !strings.Contains(e.TextBody, "/onboarding") {
			t.Errorf("welcome to %s: %q", to, e.TextBody)
		}
	}
	if n := countRows(t, a, `SELECT count(*) FROM emails WHERE kind = 'exec_welcome'`); n != 2 {
		t.Errorf("%d welcome emails, want 2", n)
	}
	var team hiringTeam
	pres2 := as(t, a, h.anon, account(t, a, "pres2@example.com", "Pres2", "superadmin"))
	pres2.expect(200, "GET", "/api/applications/hiring/team?term_id="+h.newTerm.String(), nil).JSON(t, &team)
	if team.FinalizedAt == nil || len(team.NewExecs) != 2 {
		t.Errorf("team after finalization %+v", team)
	}
	// The former President no longer passes the President check, once
	// the session cache's bound has passed (the demotion was the
	// workflow's, not a request this process served).
	sessionBound()
	h.pres.expect(403, "GET", "/api/applications/hiring", nil)
}

// roleOf is an account's role and its active exec role, if any.
func roleOf(t *testing.T, a *app.App, email string) (role, exec, subteam string, term *uuid.UUID) {
	t.Helper()
	var e, s *string
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT p.role, e.position, e.subteam, e.term_id FROM profiles p
		LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active WHERE p.email = $1`, email).Scan(&role, &e, &s, &term); err != nil {
		t.Fatal(err)
	}
	if e != nil {
		exec = *e
	}
	if s != nil {
		subteam = *s
	}
	return role, exec, subteam, term
}

// errText is err's message, or "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
