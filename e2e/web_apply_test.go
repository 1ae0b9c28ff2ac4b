package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// The application's steps (shown as one screen each at 40 rem and wider)
// and its pages (one screen each below), with the headings a person reads.
var webApplySteps = []string{"Your Info", "Your Experience", "Application Questions", "Team Members", "League Requirements", "Review and Submit"}

type webApplyField struct{ label, value string }

type webApplyPage struct {
	key     string // as the front end names it
	heading string // the page's h2 on a small screen (when its step has more than one page)
	step    int
	fields  []webApplyField // text fields and the T-shirt size, filled in order
}

// webApplyPages are the 11 pages with what the test enters on each; the
// resume, the personal website, the team and the boxes have code of their
// own.
var webApplyPages = []webApplyPage{
	{"contact", "Contact details", 0, []webApplyField{{"Phone number", "+1 709 555 0199"}, {"Discord username", "ada_l"}}},
	{"about", "About you", 0, []webApplyField{{"T-shirt size", "M"}, {"Dietary restrictions", "Vegetarian"}, {"Age", "21"}, {"Country", "Canada"}}},
	{"demographics", "Demographics", 0, []webApplyField{{"Gender (optional)", "Woman"}, {"Ethnicity (optional)", "Prefer not to say"}}},
	{"education", "Education", 1, []webApplyField{{"University", "Memorial University of Newfoundland"}, {"Program", "Computer Science"}, {"Year of study", "3rd year"}}},
	{"experience", "Hackathon experience", 1, []webApplyField{{"Hackathon experience", "Beginner"}, {"Number of hackathons attended", "2"}}},
	{"links", "Links and documents", 1, []webApplyField{{"GitHub profile", "https://github.com/ada"}, {"LinkedIn profile", "https://www.linkedin.com/in/ada"}}},
	{"q1", "Question 1", 2, []webApplyField{{"Question 1 (technical project)", "I built a difference engine simulator and learned to test numerical code."}}},
	{"q2", "Question 2", 2, []webApplyField{{"Question 2 (haiku)", "Cards punched in the night\nthe engine hums its patient sums\nnumbers learn to dance"}}},
	{"team", "Team Members", 3, nil},
	{"league", "League Requirements", 4, nil},
	{"review", "Review and Submit", 5, nil},
}

// webApplyFlow walks /apply in one browser at one viewport: by page on a
// phone, by step on a desktop.
type webApplyFlow struct {
	t    *testing.T
	p    *browser.Page
	wide bool
	page int // the page index the form shows (the first of its step when wide)
}

// webMultiPage reports whether the step has more than one page (then each page
// has an h2).
func webMultiPage(step int) bool {
	n := 0
	for _, pg := range webApplyPages {
		if pg.step == step {
			n++
		}
	}
	return n > 1
}

// screen is the pages the form shows now.
func (f *webApplyFlow) screen() []int {
	if !f.wide {
		return []int{f.page}
	}
	var out []int
	for i, pg := range webApplyPages {
		if pg.step == webApplyPages[f.page].step {
			out = append(out, i)
		}
	}
	return out
}

// waitScreen waits for the headings of the current screen and the step
// caption ("Step n of 6").
func (f *webApplyFlow) waitScreen() {
	f.t.Helper()
	step := webApplyPages[f.page].step
	f.p.WaitFor("heading", webApplySteps[step])
	if webMultiPage(step) {
		for _, i := range f.screen() {
			f.p.WaitFor("heading", webApplyPages[i].heading)
		}
	}
	f.p.WaitText(fmt.Sprintf("Step %d of %d", step+1, len(webApplySteps)))
}

// fill enters the page's fields.
func (f *webApplyFlow) fill(i int) {
	f.t.Helper()
	for _, fl := range webApplyPages[i].fields {
		if fl.label == "T-shirt size" {
			f.p.Select(fl.label, fl.value)
			continue
		}
		f.p.Fill(fl.label, fl.value)
	}
}

// verify checks that the page shows the values entered.
func (f *webApplyFlow) verify(i int) {
	f.t.Helper()
	for _, fl := range webApplyPages[i].fields {
		if got := f.p.Value(fl.label); got != fl.value {
			f.t.Errorf("%s on %q shows %q, want %q", fl.label, webApplyPages[i].heading, got, fl.value)
		}
	}
}

// target is where Next (forward) or Back leads from the current page and
// the heading that should take the focus: the step's h1, or on a phone the
// page's h2 while the step stays the same.
func (f *webApplyFlow) target(forward bool) (int, string) {
	cur := webApplyPages[f.page]
	to := f.page
	switch {
	case f.wide:
		step := cur.step - 1
		if forward {
			step = cur.step + 1
		}
		for i, pg := range webApplyPages {
			if pg.step == step {
				to = i
				break
			}
		}
	case forward:
		to++
	default:
		to--
	}
	if !f.wide && webApplyPages[to].step == cur.step {
		return to, webApplyPages[to].heading
	}
	return to, webApplySteps[webApplyPages[to].step]
}

// next presses Next and checks the focus moves to the new heading.
func (f *webApplyFlow) next() {
	f.t.Helper()
	to, heading := f.target(true)
	f.p.Click("button", "Next")
	f.p.WaitFocused("heading", heading)
	f.page = to
	f.waitScreen()
}

// back presses Back and checks the focus moves to the new heading.
func (f *webApplyFlow) back() {
	f.t.Helper()
	to, heading := f.target(false)
	f.p.Click("button", "Back")
	f.p.WaitFocused("heading", heading)
	f.page = to
	f.waitScreen()
}

// webOwnerApp is the owner's view of the application, as the tests read it.
type webOwnerApp struct {
	Status      string  `json:"status"`
	Phone       *string `json:"phone"`
	TshirtSize  *string `json:"tshirt_size"`
	University  *string `json:"university"`
	GithubURL   *string `json:"github_url"`
	WebsiteURL  *string `json:"website_url"`
	TeamMembers string  `json:"team_members"`
	Q2Answer    *string `json:"q2_answer"`
	Marketing   bool    `json:"marketing_opt_in"`
}

func webOwnerAppOf(t *testing.T, c *client) webOwnerApp {
	t.Helper()
	var got webOwnerApp
	c.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &got)
	return got
}

func orNull(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

// An applicant fills every step of /apply as a person does, at a phone's
// and a desktop's size: reloads mid-way and finds every value and the page
// restored, uploads a resume and replaces it, meets a value the server
// refuses (shown beside its field and in the error summary), adds three
// teammates and removes one, reviews and submits, and lands on the
// Submitted page with nothing left in localStorage; /apply then redirects.
// axe-core checks every step at the desktop's size and the first and last
// at the phone's.
func TestWebApply(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	type mate struct{ name, email string }
	mates := []mate{
		{"Grace Hopper", "grace.hopper@example.com"},
		{"Alan Turing", "alan.turing@example.com"},
		{"Katherine Johnson", "katherine.johnson@example.com"},
	}
	for _, m := range mates {
		account(t, a, m.email, m.name, "member")
	}
	dir := t.TempDir()
	cvOne, cvTwo := filepath.Join(dir, "cv-one.pdf"), filepath.Join(dir, "cv-two.pdf")
	for path, text := range map[string]string{cvOne: "first resume", cvTwo: "second resume"} {
		if err := os.WriteFile(path, pdfFile(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "ada+" + vp.Name + "@example.com"
		api, profileID := member(t, a, anon, email, "Ada Lovelace")
		p := browser.Open(t, site, vp)
		f := &webApplyFlow{t: t, p: p, wide: !vp.Mobile}
		storageKey := "hackdesk.apply.v1." + profileID.String()

		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/apply")
		f.waitScreen()
		if got := p.Value("Email"); got != email {
			t.Fatalf("Email starts as %q, want the account's %q", got, email)
		}
		p.Axe()

		// Your Info and the pages of Your Experience before the links.
		linksPage := 5
		for {
			screen := f.screen()
			for _, i := range screen {
				if i != linksPage {
					f.fill(i)
				}
			}
			if screen[len(screen)-1] >= linksPage {
				break
			}
			if f.wide && f.page > 0 {
				p.Axe()
			}
			f.next()
		}

		// Links and documents: the profiles, then mid-way a reload: the
		// same page with every value, and the earlier pages too. The
		// reload follows the typing at once, within the autosave's pause,
		// so the last values come back from this device's copy.
		f.fill(linksPage)
		raw, ok := p.LocalStorage(storageKey)
		if !ok || !strings.Contains(raw, "https://www.linkedin.com/in/ada") || !strings.Contains(raw, fmt.Sprintf(`"page":%d`, f.page)) {
			t.Fatalf("localStorage %s = %q (present %v), want the values typed so far", storageKey, raw, ok)
		}
		p.Reload()
		f.waitScreen()
		if !p.Exists("heading", "Links and documents") {
			t.Fatal("after a reload the form is not on Links and documents")
		}
		for _, i := range f.screen() {
			f.verify(i)
		}
		for f.page > 0 {
			f.back()
			for _, i := range f.screen() {
				f.verify(i)
			}
		}
		if got := p.Value("Email"); got != email {
			t.Errorf("after a reload Email is %q, want %q", got, email)
		}
		if t.Failed() {
			t.FailNow()
		}
		for webApplyPages[f.page].step != webApplyPages[linksPage].step || (!f.wide && f.page != linksPage) {
			f.next()
		}

		// A resume uploaded, then replaced by another.
		p.SetFile("Resume", cvOne)
		p.WaitText("Uploaded: cv-one.pdf")
		p.SetFile("Resume", cvTwo)
		p.WaitText("Uploaded: cv-two.pdf")
		if p.HasText("Uploaded: cv-one.pdf") {
			t.Fatal("after replacing the resume the page still shows cv-one.pdf as uploaded")
		}
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			var r struct {
				Resume *struct {
					Name string `json:"name"`
				} `json:"resume"`
			}
			api.expect(http.StatusOK, "GET", "/api/applications/resumes", nil).JSON(t, &r)
			return r.Resume != nil && r.Resume.Name == "cv-two.pdf", "the server to hold cv-two.pdf"
		})

		// A personal website the browser's rules accept (it matches the
		// document's pattern) but the server refuses: the address does not
		// parse as a URL. The server's reason shows beside the field
		// (label, hint, then the message) and, on Next, in the error
		// summary, whose link leads to the field.
		const refusal = "Personal website: must be an http(s) URL"
		p.AllowConsoleError("status of 400 (Bad Request) (http://hackdesk.test/api/applications)")
		p.Fill("Personal website", "https://ada.dev/%zz")
		p.WaitText("Personal website Optional. A full web address, like https://yourname.dev. Error: " + refusal)
		if got := webOwnerAppOf(t, api); got.WebsiteURL != nil || orNull(got.GithubURL) != "https://github.com/ada" {
			t.Fatalf("server copy: website %s, GitHub %s; want the website refused and the rest saved", orNull(got.WebsiteURL), orNull(got.GithubURL))
		}
		p.Click("button", "Next")
		summary := p.Within("alert", "There is a problem")
		summary.WaitFor("link", refusal)
		p.WaitFocused("alert", "There is a problem")
		f.waitScreen() // still here
		if f.wide {
			p.Axe() // the step with an error summary and a field in error
		}
		// The summary has the focus and its link is the next stop; the link
		// leads to the field. (On the phone the link wraps onto a second
		// line, so the centre of its box, where the harness taps, is beside
		// the text: only the desktop follows it. Enter is no substitute: the
		// protocol's separate char event reaches the field the keydown
		// focused and submits the form.)
		p.Press("Tab")
		p.WaitFocused("link", refusal)
		if f.wide {
			summary.Click("link", refusal)
			p.WaitFocused("textbox", "Personal website")
		}
		p.Fill("Personal website", "https://ada.dev")
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			return orNull(webOwnerAppOf(t, api).WebsiteURL) == "https://ada.dev", "the corrected website to be saved"
		})
		// The server holds the website once it commits; the page clears the
		// refusal when the save's answer reaches it, a moment later.
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			return !p.HasText("Error: " + refusal), "the refusal beside the field to go once the website was corrected and saved"
		})
		f.next()

		// Application Questions.
		for webApplyPages[f.page].key != "team" {
			for _, i := range f.screen() {
				f.fill(i)
			}
			if f.wide {
				p.Axe()
			}
			f.next()
		}

		// Team Members: three teammates found by name, then one removed.
		const combo = "Team members (search by name or email)"
		for _, m := range mates {
			p.Fill(combo, strings.Fields(m.name)[0])
			p.Click("option", m.name+" "+m.email)
			p.WaitFor("button", "Remove "+m.name)
			p.WaitText(m.name + " (" + m.email + ")")
		}
		if f.wide {
			p.Axe()
		}
		p.Click("button", "Remove Alan Turing")
		p.WaitGone("button", "Remove Alan Turing")
		if p.HasText("Alan Turing (alan.turing@example.com)") {
			t.Fatal("Alan Turing's tag still shows after being removed")
		}
		p.WaitFocused("button", "Remove Katherine Johnson")
		wantTeam := mates[0].email + "," + mates[2].email
		testenv.Eventually(t, 30*time.Second, func() (bool, string) { return webOwnerAppOf(t, api).TeamMembers == wantTeam, "the team to be saved" })
		f.next()

		// League Requirements: the code of conduct it asks to accept is linked.
		p.WaitFor("link", "Read the code of conduct (opens in a new tab)")
		p.Check("I agree to the code of conduct")
		p.Check("I authorize sharing my information")
		if p.Checked("Send me marketing emails (optional)") {
			t.Fatal("the marketing box starts checked although the profile has not opted in")
		}
		p.Check("Send me marketing emails (optional)")
		if f.wide {
			p.Axe()
		}
		f.next()

		// Review and Submit: every answer by step, with a Change link each.
		for _, step := range webApplySteps[:5] {
			p.WaitFor("heading", step)
			p.WaitFor("link", "Change "+step)
		}
		for _, want := range []string{
			"Email " + email, "Phone number +1 709 555 0199", "T-shirt size M", "Age 21", "Country Canada",
			"Gender Woman", "University Memorial University of Newfoundland", "Number of hackathons attended 2",
			"Personal website https://ada.dev", "Resume cv-two.pdf", "Question 2 (haiku) Cards punched in the night",
			"Grace Hopper (grace.hopper@example.com) Katherine Johnson (katherine.johnson@example.com)",
			"I agree to the code of conduct Yes", "Send me marketing emails (optional) Yes",
		} {
			if !p.HasText(want) {
				t.Errorf("the review does not show %q", want)
			}
		}
		if p.HasText("Alan Turing (alan.turing@example.com)") {
			t.Error("the review lists the removed teammate")
		}
		// A phone shows no PDF in a frame: a link opens the résumé instead.
		if got := p.Exists("link", "Open the résumé"); got == f.wide {
			t.Errorf("at %s the review offers \"Open the résumé\": %v, want %v", p.Viewport().Name, got, !f.wide)
		}
		p.Axe()
		if t.Failed() {
			t.FailNow()
		}

		p.Click("button", "Submit application")
		// Submitting first saves the last page, then submits: two writes,
		// which a loaded run can make slow.
		p.WithTimeout(60 * time.Second).WaitURL("/apply/submitted")
		p.WaitFor("heading", "Application submitted")
		for _, k := range p.LocalStorageKeys() {
			if strings.HasPrefix(k, "hackdesk.apply.v1.") {
				v, _ := p.LocalStorage(k)
				t.Errorf("after submitting, localStorage still holds %s = %.200s", k, v)
			}
		}
		got := webOwnerAppOf(t, api)
		if got.Status != "submitted" || got.TeamMembers != wantTeam || orNull(got.WebsiteURL) != "https://ada.dev" ||
			orNull(got.Phone) != "+1 709 555 0199" || !strings.HasPrefix(orNull(got.Q2Answer), "Cards punched in the night\n") || !got.Marketing {
			data, _ := json.Marshal(got)
			t.Errorf("submitted application %s", data)
		}
		if !profileOptIn(t, api.expect(http.StatusOK, "GET", "/api/profile", nil)) {
			t.Error("submitting with the marketing box checked did not opt the profile in")
		}

		p.Visit("/apply")
		p.WaitURL("/apply/submitted")
		p.WaitFor("heading", "Application submitted")
	})
}

// The first step of /apply by keyboard alone: Tab reaches each control in
// order (the values typed, the T-shirt size chosen by typing), Enter on
// Next moves on, and the focus lands on the new heading: on a desktop the
// next step's h1; on a phone each page's h2, then the next step's h1.
func TestWebApplyKeyboard(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "mary+" + vp.Name + "@example.com"
		api, _ := member(t, a, anon, email, "Mary Jackson")
		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/apply")
		p.WaitFor("heading", "Your Info")

		// From the top of the page to the first field: the header's links
		// and the account menu come first.
		for i := 0; p.Focused() != (browser.Node{Role: "textbox", Name: "Email"}); i++ {
			if i == 25 {
				t.Fatalf("25 Tabs from the top never reached the Email field; the focus is on %s", p.Focused())
			}
			p.Press("Tab")
		}
		tab := func(role, name, text string) {
			t.Helper()
			p.Press("Tab")
			p.WaitFocused(role, name)
			if text != "" {
				p.Type(text)
			}
		}
		enterOnNext := func(heading string) {
			t.Helper()
			tab("button", "Next", "")
			p.Press("Enter")
			p.WaitFocused("heading", heading)
		}
		tab("textbox", "Phone number", "+1 709 555 0142")
		tab("textbox", "Discord username", "mary_j")
		if vp.Mobile {
			enterOnNext("About you")
		}
		tab("combobox", "T-shirt size", "L")
		if got := p.Value("T-shirt size"); got != "L" {
			t.Errorf("T-shirt size chosen by typing L is %q", got)
		}
		tab("textbox", "Dietary restrictions", "")
		tab("textbox", "Age", "24")
		tab("textbox", "Country", "Canada")
		if vp.Mobile {
			enterOnNext("Demographics")
		}
		tab("combobox", "Gender (optional)", "")
		tab("combobox", "Ethnicity (optional)", "")
		enterOnNext("Your Experience")
		// The next Tab goes on from the heading to the step's first field.
		tab("combobox", "University", "")
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			got := webOwnerAppOf(t, api)
			return orNull(got.Phone) == "+1 709 555 0142" && got.TshirtSize != nil && *got.TshirtSize == "L", "the step's answers to reach the server draft"
		})
	})
}
