package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// selRound is the hiring data of the selections and question-bank pages:
// an active term whose execs review, and the hiring term's positions.
type selRound struct {
	a                             *app.App
	anon, super                   *client
	oldTerm, newTerm              uuid.UUID
	designLead, designer, techDev uuid.UUID
}

func newSelRound(t *testing.T, a *app.App, anon *client) *selRound {
	t.Helper()
	r := &selRound{a: a, anon: anon}
	r.super = as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	r.oldTerm = hiringTermVia(t, r.super, "2025-2026", "2025-09-01", "2026-08-31", true)
	r.newTerm = hiringTermVia(t, r.super, "2026-2027", "2026-09-01", "2027-08-31", false)
	r.designLead = hiringPosition(t, r.super, r.newTerm, "Design Lead", "Design", "vp")
	r.designer = hiringPosition(t, r.super, r.newTerm, "Designer", "Design", "exec")
	r.techDev = hiringPosition(t, r.super, r.newTerm, "Developer", "Tech", "exec")
	return r
}

// exec makes an account with an exec role of the active term; its password
// is "password-" + email.
func (r *selRound) exec(t *testing.T, email, position, subteam string) (*client, uuid.UUID) {
	t.Helper()
	id := execAccount(t, r.a, email, "admin", position, subteam, &r.oldTerm)
	return as(t, r.a, r.anon, id), id
}

// reviewItem is one item of GET /api/applications/review.
type reviewItem struct {
	SelectionID     uuid.UUID `json:"selection_id"`
	Status          string    `json:"status"`
	AllowedStatuses []string  `json:"allowed_statuses"`
}

func reviewItems(t *testing.T, c *client, query string) map[uuid.UUID]reviewItem {
	t.Helper()
	var out struct {
		Items []reviewItem `json:"items"`
	}
	c.expect(http.StatusOK, "GET", "/api/applications/review?page_size=50"+query, nil).JSON(t, &out)
	m := map[uuid.UUID]reviewItem{}
	for _, it := range out.Items {
		m[it.SelectionID] = it
	}
	return m
}

func selectionStatus(t *testing.T, a *app.App, id uuid.UUID) string {
	t.Helper()
	var s string
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT status FROM selections WHERE id = $1`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// shooter writes a screenshot per state when WEB_SHOTS names a directory.
func shooter(p *browser.Page, page string, vp browser.Viewport) func(string) {
	return func(name string) {
		if dir := os.Getenv("WEB_SHOTS"); dir != "" {
			p.Screenshot(filepath.Join(dir, page+"-"+name+"-"+vp.Name+".png"))
		}
	}
}

// A Design VP moves a selection of their subteam from In Review to
// Interviewing, is offered only the review statuses, meets the 409 of a
// move made stale by the President's change meanwhile, and never sees the
// Tech selection (404 to them in the API); the status filter lives in the
// URL. A President sees both subteams and their own moves. axe-core finds
// nothing on each state.
func TestWebSelections(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	r := newSelRound(t, a, anon)
	presidentOnly := []string{"Offer Sent", "Accepted Offer", "Declined Offer", "Rejection Sent"}

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		vpEmail, presEmail := "vpdesign-"+vp.Name+"@example.com", "pres-"+vp.Name+"@example.com"
		vpDesign, _ := r.exec(t, vpEmail, "VP", "Design")
		pres, _ := r.exec(t, presEmail, "President", "Board")
		ann, bob := "Ann "+vp.Name, "Bob "+vp.Name
		annSel := applyFor(t, a, anon, account(t, a, "ann-"+vp.Name+"@example.com", ann, "member"), r.designLead, r.techDev)
		bobSel := applyFor(t, a, anon, account(t, a, "bob-"+vp.Name+"@example.com", bob, "member"), r.designer)

		// The API gives each item the moves its caller may make.
		mine := reviewItems(t, vpDesign, "")
		if _, ok := mine[annSel[r.techDev]]; ok {
			t.Error("the Design VP's list holds a Tech selection")
		}
		if got := mine[annSel[r.designLead]].AllowedStatuses; !slices.Equal(got, []string{"interviewing", "wanted", "not_wanted"}) {
			t.Errorf("VP's allowed statuses %v", got)
		}
		if got := reviewItems(t, pres, "")[annSel[r.techDev]].AllowedStatuses; !slices.Equal(got, []string{"interviewing", "wanted", "not_wanted", "rejection_sent"}) {
			t.Errorf("President's allowed statuses %v", got)
		}
		vpDesign.expect(http.StatusNotFound, "PATCH", "/api/applications/review/"+annSel[r.techDev].String(), map[string]any{"status": "interviewing"})

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 409 (Conflict) (http://hackdesk.test/api/applications/review/")
		shot := shooter(p, "selections", vp)
		webSignIn(t, p, vpEmail, "password-"+vpEmail, "/")
		p.Visit("/admin/applications/review")
		annDesign, annTech, bobDesign := ann+" — Design Lead", ann+" — Developer", bob+" — Designer"
		p.WaitFor("article", annDesign)
		p.WaitFor("article", bobDesign)
		if got := p.Heading(1); got != "Selections" {
			t.Errorf("the h1 is %q", got)
		}
		if p.Exists("article", annTech) {
			t.Error("the Design VP sees the Tech selection")
		}
		card := p.Within("article", annDesign)
		card.WaitText("Current status In Review")
		card.WaitText("Question 1")
		offered := card.Text("combobox", "New status")
		for _, s := range []string{"Interviewing", "Wanted", "Not Wanted"} {
			if !strings.Contains(offered, s) {
				t.Errorf("the VP is not offered %s: %q", s, offered)
			}
		}
		for _, s := range presidentOnly {
			if strings.Contains(offered, s) {
				t.Errorf("the VP is offered %s: %q", s, offered)
			}
		}
		p.Axe()
		shot("list")

		// Submitting without a choice says what is missing.
		card.Click("button", "Change status")
		card.WaitText("Choose the new status")
		p.Axe()

		// In Review → Interviewing.
		card.Select("New status", "Interviewing")
		card.Click("button", "Change status")
		card.WaitText("Current status Interviewing")
		if got := selectionStatus(t, a, annSel[r.designLead]); got != "interviewing" {
			t.Errorf("the selection is %s in the database", got)
		}
		if got := reviewItems(t, vpDesign, "")[annSel[r.designLead]].Status; got != "interviewing" {
			t.Errorf("the API says %s", got)
		}

		// The President rejects Bob meanwhile: the page's offer is stale,
		// and the refused move is said in words beside the control.
		pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+bobSel[r.designer].String(), map[string]any{"status": "rejection_sent"})
		bobCard := p.Within("article", bobDesign)
		bobCard.Select("New status", "Wanted")
		bobCard.Click("button", "Change status")
		bobCard.WaitText("This selection cannot move from Rejection Sent to Wanted.")
		bobCard.WaitText("Current status Rejection Sent")
		bobCard.WaitText("You cannot move this selection from its current status.")
		p.Axe()
		shot("refused")
		if got := selectionStatus(t, a, bobSel[r.designer]); got != "rejection_sent" {
			t.Errorf("Bob's selection is %s", got)
		}

		// The status filter is in the URL and survives a reload.
		p.Select("Status", "Interviewing")
		p.WaitGone("article", bobDesign)
		if !strings.Contains(p.URL(), "status=interviewing") {
			t.Errorf("the URL is %s", p.URL())
		}
		p.Reload()
		p.WaitFor("article", annDesign)
		if p.Exists("article", bobDesign) || p.Value("Status") != "Interviewing" {
			t.Error("the filter was lost on reload")
		}
		p.Axe()
		shot("filtered")

		// A President sees both subteams and is offered their own moves.
		q := browser.Open(t, site, vp)
		shot = shooter(q, "selections-president", vp)
		webSignIn(t, q, presEmail, "password-"+presEmail, "/")
		q.Visit("/admin/applications/review?q=" + strings.ToLower(ann))
		q.WaitFor("article", annTech)
		q.WaitFor("article", annDesign)
		if got := q.Within("article", annTech).Text("combobox", "New status"); !strings.Contains(got, "Rejection Sent") {
			t.Errorf("the President is offered %q", got)
		}
		q.Axe()
		shot("list")
	})
}

// selBankQuestion is a question of GET /api/applications/review/questions.
type selBankQuestion struct {
	ID          uuid.UUID   `json:"id"`
	Prompt      string      `json:"prompt"`
	PositionIDs []uuid.UUID `json:"position_ids"`
	Editable    bool        `json:"editable"`
}

func selBankQuestionBy(t *testing.T, c *client, prompt string) (selBankQuestion, bool) {
	t.Helper()
	var out struct {
		Questions []selBankQuestion `json:"questions"`
	}
	c.expect(http.StatusOK, "GET", "/api/applications/review/questions", nil).JSON(t, &out)
	for _, q := range out.Questions {
		if q.Prompt == prompt {
			return q, true
		}
	}
	return selBankQuestion{}, false
}

// A Design VP adds a question for their position in the form (the empty
// form first says what is missing; another subteam's position is not
// offered); an applicant who chose that position meets it on /apply, in
// the Application Questions step, labelled by its prompt. The general
// question is read only to the VP, with the reason; deleting an answered
// question says beforehand that it archives, and afterwards that it did.
// axe-core finds nothing on each state.
func TestWebQuestions(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	r := newSelRound(t, a, anon)
	const general = "What would you like to learn this year?"
	r.super.expect(http.StatusCreated, "POST", "/api/applications/review/questions", map[string]any{"prompt": general, "type": "textarea"})

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		vpEmail, appEmail := "vpq-"+vp.Name+"@example.com", "appq-"+vp.Name+"@example.com"
		vpDesign, _ := r.exec(t, vpEmail, "VP", "Design")
		prompt := "Which design tool do you reach for first (" + vp.Name + ")?"
		answered := "Show us a poster you made (" + vp.Name + ")"

		// The applicant's draft chooses the Design Lead position, and has
		// answered a Designer question already.
		applicant := account(t, a, appEmail, "Appl "+vp.Name, "member")
		appID := seedApplication(t, a, applicant, "draft")
		as(t, a, anon, applicant).expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"position_ids": []uuid.UUID{r.designLead}})
		var made struct {
			Question selBankQuestion `json:"question"`
		}
		vpDesign.expect(http.StatusCreated, "POST", "/api/applications/review/questions",
			map[string]any{"prompt": answered, "type": "text", "position_ids": []uuid.UUID{r.designer}}).JSON(t, &made)
		if _, err := a.Store.Pool().Exec(context.Background(), `INSERT INTO application_answers (application_id, question_id, answer)
			VALUES ($1, $2, 'A poster for the hackathon.')`, appID, made.Question.ID); err != nil {
			t.Fatal(err)
		}

		p := browser.Open(t, site, vp)
		shot := shooter(p, "questions", vp)
		webSignIn(t, p, vpEmail, "password-"+vpEmail, "/")
		p.Visit("/applications/questions")
		p.WaitFor("article", general)
		if got := p.Heading(1); got != "Question bank" {
			t.Errorf("the h1 is %q", got)
		}
		gen := p.Within("article", general)
		gen.WaitText("Read only: Only a President can edit general questions.")
		if gen.Exists("button", "Edit question") || gen.Exists("button", "Delete question") {
			t.Error("the VP may change the general question")
		}
		p.Axe()
		shot("list")

		// Add a question: the empty form says what is missing first.
		p.Click("button", "Add a question")
		form := p.Within("dialog", "Add a question")
		form.WaitFor("textbox", "Question")
		if form.Exists("checkbox", "Developer (Tech)") {
			t.Error("the VP is offered another subteam's position")
		}
		form.Click("button", "Add question")
		form.WaitFor("link", "Enter the question")
		p.Axe()
		shot("form-errors")
		form.Fill("Question", prompt)
		form.Fill("Character limit (optional)", "280")
		form.Check("Applicants must answer this question")
		form.Check("Design Lead (Design)")
		form.Click("button", "Add question")
		p.WaitFor("article", prompt)
		q, ok := selBankQuestionBy(t, vpDesign, prompt)
		if !ok || !q.Editable || len(q.PositionIDs) != 1 || q.PositionIDs[0] != r.designLead {
			t.Fatalf("the question was stored as %+v (found %v)", q, ok)
		}
		p.Axe()
		shot("added")

		// Edit it: a limit the rules refuse is said before anything is sent.
		p.Within("article", prompt).Click("button", "Edit question")
		edit := p.Within("dialog", "Edit the question")
		edit.Fill("Character limit (optional)", "20000")
		edit.Click("button", "Save changes")
		edit.WaitFor("link", "Enter a number from 1 to 10000")
		edit.Fill("Character limit (optional)", "300")
		edit.Click("button", "Save changes")
		p.WaitGone("dialog", "Edit the question")
		p.Within("article", prompt).WaitText("Character limit 300")

		// Deleting the answered question says it archives.
		p.Within("article", answered).Click("button", "Delete question")
		confirm := p.Within("dialog", "Delete this question?")
		confirm.WaitText("If anyone has answered it, it is archived instead of deleted")
		p.Axe()
		shot("confirm")
		confirm.Click("button", "Delete question")
		p.WaitText("Archived \u201c" + answered + "\u201d: it had answers, which keep their text and prompt.")
		p.WaitGone("article", answered)
		var archived bool
		if err := a.Store.Pool().QueryRow(context.Background(), `SELECT archived_at IS NOT NULL FROM questions WHERE id = $1`,
			made.Question.ID).Scan(&archived); err != nil || !archived {
			t.Errorf("the answered question is not archived (%v)", err)
		}
		p.Axe()
		shot("archived")

		// The applicant meets the new question on /apply, by its prompt.
		ap := browser.Open(t, site, vp)
		webSignIn(t, ap, appEmail, "password-"+appEmail, "/")
		ap.Visit("/apply")
		ap.WaitFor("heading", "Your Info")
		for range 12 {
			if ap.Exists("textbox", prompt) {
				break
			}
			before := ap.Text("main", "")
			ap.Click("button", "Next")
			testenv.Eventually(t, 10*time.Second, func() (bool, string) {
				return ap.Text("main", "") != before || ap.Exists("textbox", prompt), "the next page of the form"
			})
		}
		ap.WaitFor("textbox", prompt)
		if !ap.HasText("Application Questions") {
			t.Error("the question is not in the Application Questions step")
		}
		if ap.Exists("textbox", answered) {
			t.Error("the archived question is still asked")
		}
	})
}
