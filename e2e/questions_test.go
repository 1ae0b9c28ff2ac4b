package e2e

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
)

type bankQuestion struct {
	ID          uuid.UUID   `json:"id"`
	Prompt      string      `json:"prompt"`
	Type        string      `json:"type"`
	CharLimit   *int        `json:"char_limit"`
	Required    bool        `json:"required"`
	PositionIDs []uuid.UUID `json:"position_ids"`
	Editable    *bool       `json:"editable"`
}

// newQuestion creates a question through the bank and returns its id.
func newQuestion(t *testing.T, c *client, body map[string]any) uuid.UUID {
	t.Helper()
	var out struct {
		Question bankQuestion `json:"question"`
	}
	c.expect(201, "POST", "/api/applications/review/questions", body).JSON(t, &out)
	if out.Question.Editable == nil || !*out.Question.Editable {
		t.Errorf("created question not editable: %+v", out.Question)
	}
	return out.Question.ID
}

func bankOf(t *testing.T, c *client) map[uuid.UUID]bankQuestion {
	t.Helper()
	var out struct {
		Questions []bankQuestion `json:"questions"`
	}
	c.expect(200, "GET", "/api/applications/review/questions", nil).JSON(t, &out)
	m := map[uuid.UUID]bankQuestion{}
	for _, q := range out.Questions {
		m[q.ID] = q
	}
	return m
}

// hiringSetup makes a hiring term with a President, a Design VP and a
// Tech VP, and a Design and a Tech position.
type hiringSetup struct {
	a                     *app.App
	anon, super           *client
	pres, vpDesign        *client
	vpTech                *client
	design, tech, design2 uuid.UUID
}

func newHiringSetup(t *testing.T) hiringSetup {
	t.Helper()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	h := hiringSetup{a: a, anon: anon, super: super,
		pres:     as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "Board", &term)),
		vpDesign: as(t, a, anon, execAccount(t, a, "vpdesign@example.com", "admin", "VP", "Design", &term)),
		vpTech:   as(t, a, anon, execAccount(t, a, "vptech@example.com", "admin", "VP", "Tech", &term)),
	}
	h.design = hiringPosition(t, h.pres, term, "Design Lead", "Design", "vp")
	h.design2 = hiringPosition(t, h.pres, term, "Designer", "Design", "exec")
	h.tech = hiringPosition(t, h.pres, term, "Developer", "Tech", "exec")
	return h
}

// TestQuestionBankScope: the President edits every question, a VP only
// questions whose positions are all of their subteam; general questions
// are the President's; editable flags follow the same rule.
func TestQuestionBankScope(t *testing.T) {
	t.Parallel()
	h := newHiringSetup(t)

	general := newQuestion(t, h.pres, map[string]any{"prompt": "Why us?", "type": "textarea", "required": true})
	design := newQuestion(t, h.vpDesign, map[string]any{"prompt": "Portfolio?", "type": "text", "char_limit": 200,
		"position_ids": []uuid.UUID{h.design, h.design2}})
	mixed := newQuestion(t, h.pres, map[string]any{"prompt": "Both?", "type": "text", "position_ids": []uuid.UUID{h.design, h.tech}})
	tech := newQuestion(t, h.vpTech, map[string]any{"prompt": "GitHub?", "type": "text", "position_ids": []uuid.UUID{h.tech}})

	// A VP creates only questions of their own subteam's positions.
	for _, pos := range [][]uuid.UUID{nil, {}, {h.tech}, {h.design, h.tech}} {
		body := map[string]any{"prompt": "Nope", "type": "text"}
		if pos != nil {
			body["position_ids"] = pos
		}
		h.vpDesign.expect(403, "POST", "/api/applications/review/questions", body)
	}

	// Validation.
	for _, bad := range []map[string]any{
		{"type": "text"},
		{"prompt": "x"},
		{"prompt": "", "type": "text"},
		{"prompt": "x", "type": "radio"},
		{"prompt": "x", "type": "text", "char_limit": 0},
		{"prompt": "x", "type": "text", "char_limit": 10001},
		{"prompt": strings.Repeat("x", 1001), "type": "text"},
		{"prompt": "x", "type": "text", "position_ids": []string{"nope"}},
		{"prompt": "x", "type": "text", "position_ids": []uuid.UUID{h.design, h.design}},
		{"prompt": "x", "type": "text", "position_ids": []uuid.UUID{uuid.New()}},
	} {
		r := h.pres.expect(400, "POST", "/api/applications/review/questions", bad)
		if r.Map(t)["details"] == nil {
			t.Errorf("%v: no details: %s", bad, r.Body)
		}
	}
	edge := newQuestion(t, h.pres, map[string]any{"prompt": "Edge", "type": "text", "char_limit": 10000})

	// editable: every question for the President; a VP's only in scope.
	want := map[*client]map[uuid.UUID]bool{
		h.pres:     {general: true, design: true, mixed: true, tech: true, edge: true},
		h.super:    {general: true, design: true, mixed: true, tech: true, edge: true},
		h.vpDesign: {general: false, design: true, mixed: false, tech: false, edge: false},
		h.vpTech:   {general: false, design: false, mixed: false, tech: true, edge: false},
	}
	for c, w := range want {
		bank := bankOf(t, c)
		if len(bank) != len(w) {
			t.Errorf("bank has %d questions, want %d", len(bank), len(w))
		}
		for id, editable := range w {
			q, ok := bank[id]
			if !ok || q.Editable == nil || *q.Editable != editable {
				t.Errorf("question %s: %+v, want editable %v", id, q, editable)
			}
		}
	}
	if q := bankOf(t, h.pres)[design]; len(q.PositionIDs) != 2 || *q.CharLimit != 200 || q.Type != "text" {
		t.Errorf("design question = %+v", q)
	}

	// Changes outside scope are 403 and change nothing.
	for _, id := range []uuid.UUID{general, mixed, tech} {
		h.vpDesign.expect(403, "PATCH", "/api/applications/review/questions/"+id.String(), map[string]any{"prompt": "Mine"})
		h.vpDesign.expect(403, "DELETE", "/api/applications/review/questions/"+id.String(), nil)
	}
	// Moving an own question out of scope, or making it general, is 403.
	h.vpDesign.expect(403, "PATCH", "/api/applications/review/questions/"+design.String(), map[string]any{"position_ids": []uuid.UUID{h.tech}})
	h.vpDesign.expect(403, "PATCH", "/api/applications/review/questions/"+design.String(), map[string]any{"position_ids": []uuid.UUID{}})
	if q := bankOf(t, h.pres)[general]; q.Prompt != "Why us?" {
		t.Errorf("general question changed: %+v", q)
	}

	// In scope: the VP edits their question.
	var out struct {
		Question bankQuestion `json:"question"`
	}
	h.vpDesign.expect(200, "PATCH", "/api/applications/review/questions/"+design.String(),
		map[string]any{"prompt": "Your portfolio?", "char_limit": nil, "required": true, "position_ids": []uuid.UUID{h.design}}).JSON(t, &out)
	if q := out.Question; q.Prompt != "Your portfolio?" || q.CharLimit != nil || !q.Required || len(q.PositionIDs) != 1 {
		t.Errorf("patched = %+v", q)
	}
	h.vpDesign.expect(400, "PATCH", "/api/applications/review/questions/"+design.String(), map[string]any{"type": "radio"})
	h.vpDesign.expect(404, "PATCH", "/api/applications/review/questions/"+uuid.NewString(), map[string]any{"prompt": "x"})
	// The President edits any question, general ones included.
	h.pres.expect(200, "PATCH", "/api/applications/review/questions/"+tech.String(), map[string]any{"help_text": "A link"})
	h.pres.expect(200, "PATCH", "/api/applications/review/questions/"+general.String(), map[string]any{"placeholder": "Tell us"})

	// A question nobody answered is deleted outright.
	var del struct {
		Archived bool `json:"archived"`
	}
	h.vpDesign.expect(200, "DELETE", "/api/applications/review/questions/"+design.String(), nil).JSON(t, &del)
	if del.Archived {
		t.Error("unanswered question archived, want deleted")
	}
	if n := countRows(t, h.a, `SELECT count(*) FROM questions WHERE id = $1`, design); n != 0 {
		t.Errorf("deleted question still stored (%d)", n)
	}
	h.vpDesign.expect(404, "DELETE", "/api/applications/review/questions/"+design.String(), nil)

	// Members cannot use the bank.
	member := as(t, h.a, h.anon, account(t, h.a, "m@example.com", "M", "member"))
	member.expect(403, "GET", "/api/applications/review/questions", nil)
	member.expect(403, "POST", "/api/applications/review/questions", map[string]any{"prompt": "x", "type": "text"})
}

type applicantApp struct {
	ID          uuid.UUID         `json:"id"`
	PositionIDs []uuid.UUID       `json:"position_ids"`
	Answers     map[string]string `json:"answers"`
}

func applicantQuestions(t *testing.T, c *client) []uuid.UUID {
	t.Helper()
	var out struct {
		Questions []bankQuestion `json:"questions"`
	}
	c.expect(200, "GET", "/api/applications/questions", nil).JSON(t, &out)
	ids := make([]uuid.UUID, len(out.Questions))
	for i, q := range out.Questions {
		if q.Editable != nil {
			t.Errorf("applicant sees editable on %s", q.ID)
		}
		ids[i] = q.ID
	}
	return ids
}

func patchApp(t *testing.T, c *client, want int, body map[string]any) (applicantApp, map[string]any) {
	t.Helper()
	r := c.expect(want, "PATCH", "/api/applications", body)
	if want != 200 {
		d, _ := r.Map(t)["details"].(map[string]any)
		return applicantApp{}, d
	}
	var out struct {
		Application applicantApp `json:"application"`
	}
	r.JSON(t, &out)
	return out.Application, nil
}

// TestQuestionAnswers: the applicant's questions follow their positions,
// answers are checked per question, required ones gate submission,
// answers no longer applicable go, and reviewers read them with prompts,
// an archived question's included.
func TestQuestionAnswers(t *testing.T) {
	t.Parallel()
	h := newHiringSetup(t)
	general := newQuestion(t, h.pres, map[string]any{"prompt": "Why us?", "type": "textarea", "required": true, "char_limit": 20})
	design := newQuestion(t, h.vpDesign, map[string]any{"prompt": "Portfolio?", "type": "text", "required": true,
		"char_limit": 10, "position_ids": []uuid.UUID{h.design}})
	tech := newQuestion(t, h.vpTech, map[string]any{"prompt": "GitHub?", "type": "text", "position_ids": []uuid.UUID{h.tech}})
	open := newQuestion(t, h.pres, map[string]any{"prompt": "Anything else?", "type": "textarea"})

	ann := account(t, h.a, "ann@example.com", "Ann", "member")
	c := as(t, h.a, h.anon, ann)
	// Without an application: the general questions.
	if got := applicantQuestions(t, c); len(got) != 2 || got[0] != general || got[1] != open {
		t.Errorf("questions without application = %v", got)
	}
	appID := seedApplication(t, h.a, ann, "draft")
	if got := applicantQuestions(t, c); len(got) != 2 {
		t.Errorf("questions without positions = %v", got)
	}
	got, _ := patchApp(t, c, 200, map[string]any{"position_ids": []uuid.UUID{h.design}})
	if len(got.Answers) != 0 {
		t.Errorf("answers = %v", got.Answers)
	}
	if got := applicantQuestions(t, c); len(got) != 3 || got[0] != general || got[1] != open || got[2] != design {
		t.Errorf("questions with design = %v (general %s, open %s, design %s)", got, general, open, design)
	}

	// Validation: the limit exactly is fine, one over is not; unknown and
	// inapplicable questions are refused; nothing of a failed patch stays.
	key := func(id uuid.UUID) string { return "answers." + id.String() }
	cases := []struct {
		answers map[string]any
		field   string
	}{
		{map[string]any{design.String(): strings.Repeat("é", 11)}, key(design)},
		{map[string]any{general.String(): strings.Repeat("x", 21)}, key(general)},
		{map[string]any{tech.String(): "github.com/ann"}, key(tech)},
		{map[string]any{uuid.NewString(): "hi"}, ""},
		{map[string]any{"nope": "hi"}, "answers.nope"},
		{map[string]any{general.String(): "fine", tech.String(): "x"}, key(tech)},
	}
	for _, tc := range cases {
		_, details := patchApp(t, c, 400, map[string]any{"answers": tc.answers})
		field := tc.field
		if field == "" {
			for k := range tc.answers {
				field = "answers." + k
			}
		}
		if details[field] == nil {
			t.Errorf("%v: details = %v, want %s", tc.answers, details, field)
		}
	}
	c.expect(400, "PATCH", "/api/applications", map[string]any{"answers": map[string]any{general.String(): 5}})
	patchApp(t, c, 400, map[string]any{"answers": nil})
	if n := countRows(t, h.a, `SELECT count(*) FROM application_answers WHERE application_id = $1`, appID); n != 0 {
		t.Fatalf("%d answers stored by failed patches", n)
	}

	got, _ = patchApp(t, c, 200, map[string]any{"answers": map[string]any{
		design.String(): strings.Repeat("é", 10), general.String(): " " + strings.Repeat("x", 20) + " "}})
	if got.Answers[design.String()] != strings.Repeat("é", 10) || got.Answers[general.String()] != strings.Repeat("x", 20) {
		t.Errorf("answers = %v", got.Answers)
	}
	// A blank answer removes it; submit then lacks the required one.
	patchApp(t, c, 200, map[string]any{"answers": map[string]any{design.String(): "  "}})
	r := c.expect(400, "POST", "/api/applications/submit", nil)
	d, _ := r.Map(t)["details"].(map[string]any)
	if d[key(design)] == nil || d[key(general)] != nil || d[key(open)] != nil || len(d) != 1 {
		t.Errorf("submit details = %v, want only %s", d, key(design))
	}
	patchApp(t, c, 200, map[string]any{"answers": map[string]any{design.String(): "behance"}})

	// Changing positions drops the answers that no longer apply.
	got, _ = patchApp(t, c, 200, map[string]any{"position_ids": []uuid.UUID{h.tech}, "answers": map[string]any{tech.String(): "github.com/ann"}})
	if _, ok := got.Answers[design.String()]; ok || got.Answers[tech.String()] != "github.com/ann" || got.Answers[general.String()] == "" {
		t.Errorf("after moving to tech, answers = %v", got.Answers)
	}
	var mine applicantApp
	c.expect(200, "GET", "/api/applications", nil).JSON(t, &mine)
	if len(mine.Answers) != 2 {
		t.Errorf("GET answers = %v", mine.Answers)
	}

	// Submit needs only the required applicable questions; then answers lock.
	c.expect(200, "POST", "/api/applications/submit", nil)
	c.expect(409, "PATCH", "/api/applications", map[string]any{"answers": map[string]any{tech.String(): "changed"}})
	if n := countRows(t, h.a, `SELECT count(*) FROM application_answers WHERE application_id = $1 AND answer = 'changed'`, appID); n != 0 {
		t.Error("answer changed after submit")
	}

	// Deleting an answered question archives it: gone from the bank and the
	// form, its answer still shown with its prompt.
	var del struct {
		Archived bool `json:"archived"`
	}
	h.vpTech.expect(200, "DELETE", "/api/applications/review/questions/"+tech.String(), nil).JSON(t, &del)
	if !del.Archived {
		t.Error("answered question deleted, want archived")
	}
	if _, ok := bankOf(t, h.pres)[tech]; ok {
		t.Error("archived question still in the bank")
	}
	h.pres.expect(404, "PATCH", "/api/applications/review/questions/"+tech.String(), map[string]any{"prompt": "x"})
	h.pres.expect(404, "DELETE", "/api/applications/review/questions/"+tech.String(), nil)

	type qa struct {
		QuestionID string `json:"question_id"`
		Prompt     string `json:"prompt"`
		Answer     string `json:"answer"`
	}
	wantAnswers := func(where string, list []qa, want map[string]string) {
		t.Helper()
		got := map[string]string{}
		for _, a := range list {
			got[a.QuestionID] = a.Prompt + "=" + a.Answer
		}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: answer %s = %q, want %q (all %v)", where, id, got[id], w, list)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d answers, want %d: %v", where, len(got), len(want), list)
		}
	}
	bankWant := map[string]string{
		general.String(): "Why us?=" + strings.Repeat("x", 20),
		tech.String():    "GitHub?=github.com/ann",
	}

	// The review list: q1/q2, then the bank answers for that position.
	var list struct {
		Items []struct {
			ApplicationID uuid.UUID `json:"application_id"`
			Answers       []qa      `json:"answers"`
		} `json:"items"`
	}
	for _, rc := range []*client{h.vpTech, h.pres} {
		rc.expect(200, "GET", "/api/applications/review", nil).JSON(t, &list)
		if len(list.Items) != 1 || list.Items[0].ApplicationID != appID {
			t.Fatalf("review list = %+v", list)
		}
		w := map[string]string{"q1_answer": "Question 1=q1", "q2_answer": "Question 2=q2"}
		for k, v := range bankWant {
			w[k] = v
		}
		wantAnswers("review list", list.Items[0].Answers, w)
	}
	h.vpDesign.expect(200, "GET", "/api/applications/review", nil).JSON(t, &list)
	if len(list.Items) != 0 {
		t.Errorf("Design VP sees %+v", list.Items)
	}

	// The reviewer view and the admin details.
	var view struct {
		Application struct {
			ID              uuid.UUID         `json:"id"`
			Answers         map[string]string `json:"answers"`
			QuestionAnswers []qa              `json:"question_answers"`
		} `json:"application"`
	}
	h.super.expect(200, "GET", "/api/applications/random", nil).JSON(t, &view)
	if view.Application.ID != appID || len(view.Application.Answers) != 2 {
		t.Errorf("reviewer view = %+v", view.Application)
	}
	wantAnswers("reviewer view", view.Application.QuestionAnswers, bankWant)
	var details struct {
		QuestionAnswers []qa `json:"question_answers"`
		Application     *struct {
			QuestionAnswers []qa `json:"question_answers"`
		} `json:"application"`
	}
	h.super.expect(200, "GET", "/api/admin/applications/"+appID.String(), nil).JSON(t, &details)
	qas := details.QuestionAnswers
	if details.Application != nil {
		qas = details.Application.QuestionAnswers
	}
	wantAnswers("admin details", qas, bankWant)

	// A position with questions is not deleted (its question would turn
	// general); one without is.
	r = h.pres.expect(409, "DELETE", "/api/positions/"+h.design.String(), nil)
	if e, _ := errorOf(t, r); e != "Position has questions" {
		t.Errorf("delete position with questions = %s", r.Body)
	}
	h.pres.expect(200, "DELETE", "/api/positions/"+h.design2.String(), nil)
}
