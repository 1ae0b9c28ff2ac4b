package e2e

import (
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"

	"hackdesk/dev/testenv/browser"
)

type positionsPagePosition struct {
	ID      uuid.UUID `json:"id"`
	TermID  uuid.UUID `json:"term_id"`
	Title   string    `json:"title"`
	Subteam string    `json:"subteam"`
	Grants  string    `json:"grants"`
	Open    bool      `json:"open"`
}

func positionsOf(t *testing.T, c *client, term uuid.UUID) []positionsPagePosition {
	t.Helper()
	var out struct {
		Positions []positionsPagePosition `json:"positions"`
	}
	c.expect(http.StatusOK, "GET", "/api/positions?term_id="+term.String(), nil).JSON(t, &out)
	return out.Positions
}

// The President manages the exec positions on the hiring page, for the
// term it names: adds one (the browser first asks for the title and
// subteam) with a question of the bank asked for it, edits its title,
// closes it (the public list no longer offers it), and is told a position
// with questions is kept rather than deleted. The API agrees at each
// step; axe-core finds nothing on each state; every control is a native
// button, field or checkbox, and the dialog closes with Escape.
func TestWebHiringPositions(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
		term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
		built := newQuestion(t, super, map[string]any{"prompt": "What have you built?", "type": "textarea"})
		presEmail := "pres+" + vp.Name + "@x.test"
		execAccount(t, a, presEmail, "admin", "President", "Board", &term)

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("409") // the kept position's refused delete
		shot := shooter(p, "hiring-positions", vp)
		webSignIn(t, p, presEmail, "password-"+presEmail, "/")
		p.Visit("/admin/applications/hiring")
		p.WaitFor("heading", "Positions in 2026-2027")
		p.WaitText("This term has no positions yet.")
		p.Axe()
		shot("empty")

		// The dialog opens and closes by keyboard.
		p.Click("button", "Add a position")
		p.WaitFor("heading", "Add a position to 2026-2027")
		p.Press("Escape")
		p.WaitGone("heading", "Add a position to 2026-2027")

		p.Click("button", "Add a position")
		p.WaitFor("heading", "Add a position to 2026-2027")
		p.Click("button", "Add position")
		p.WaitFor("link", "Enter the position’s title")
		p.WaitFor("link", "Enter the position’s subteam")
		p.Axe()
		shot("errors")
		p.Fill("Title", "Developer")
		p.Fill("Subteam", "Tech")
		p.Check("What have you built?")
		p.Axe()
		shot("form")
		p.Click("button", "Add position")
		p.WaitGone("heading", "Add a position to 2026-2027")
		p.WaitFor("listitem", "Developer")
		got := positionsOf(t, super, term)
		if len(got) != 1 || got[0].Title != "Developer" || got[0].Subteam != "Tech" || got[0].Grants != "exec" || !got[0].Open || got[0].TermID != term {
			t.Fatalf("the API shows %+v", got)
		}
		dev := got[0].ID
		if q := bankOf(t, super)[built]; !slices.Equal(q.PositionIDs, []uuid.UUID{dev}) {
			t.Errorf("the question is asked for %v, want the new position", q.PositionIDs)
		}
		if !p.Within("listitem", "Developer").HasText("What have you built?") {
			t.Error("the position does not list its question")
		}
		p.Axe()
		shot("list")

		// Edit the title.
		p.Click("button", "Edit Developer")
		p.WaitFor("heading", "Edit Developer")
		if !p.Checked("What have you built?") {
			t.Error("the edit form does not tick the position's question")
		}
		p.Fill("Title", "Backend Developer")
		p.Click("button", "Save position")
		p.WaitGone("heading", "Edit Developer")
		p.WaitFor("listitem", "Backend Developer")
		if got := positionsOf(t, super, term); len(got) != 1 || got[0].Title != "Backend Developer" {
			t.Errorf("after the edit the API shows %+v", got)
		}

		// Close it: applicants no longer see it.
		p.Click("button", "Close Backend Developer")
		p.WaitText("Backend Developer is closed: applicants can no longer choose it.")
		p.WaitFor("button", "Reopen Backend Developer")
		if got := positionsOf(t, super, term); len(got) != 1 || got[0].Open {
			t.Errorf("after closing the API shows %+v", got)
		}
		if got := positionsOf(t, anon, term); len(got) != 0 {
			t.Errorf("the public list still offers %+v", got)
		}
		p.Axe()
		shot("closed")

		// Delete: a position with questions is kept.
		p.Click("button", "Delete Backend Developer")
		p.WaitFor("heading", "Delete Backend Developer?")
		p.Within("dialog", "Delete Backend Developer?").Click("button", "Delete position")
		p.WaitText("Backend Developer has selections or questions, so it is kept. Close it instead.")
		if got := positionsOf(t, super, term); len(got) != 1 {
			t.Errorf("the kept position is gone: %+v", got)
		}
	})
}
