package e2e

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// foundryStepNames are the launch steps as the project page names them.
var foundryStepNames = map[string]string{
	"create_repository": "Create the repository",
	"grant_team":        "Give the team access",
	"dispatch_setup":    "Start the setup run",
	"setup_run":         "Setup run",
}

// runLinkName is the accessible name of the link to a setup run: the
// run's repository path and number.
func runLinkName(t *testing.T, runURL string) string {
	t.Helper()
	u, err := url.Parse(runURL)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(strings.Trim(u.Path, "/"), "/actions/runs/", " run ", 1) + " (opens in a new tab)"
}

// An admin launches a FastAPI + PostgreSQL project through every step of
// /nexus/foundry, some by keyboard and some by mouse, checks the answers
// (changing one), launches, lands on the project page and watches every
// step reach succeeded, as the API says; the history lists it; the name
// is then refused as typed; a member opening /nexus/foundry is sent home.
// axe-core finds nothing on each state.
func TestWebFoundry(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "builder+" + vp.Name + "@x.test"
		admin, _ := decAccount(t, a, anon, email, "admin")
		name := uniqueName("club-api-" + vp.Name)
		p := browser.Open(t, site, vp)
		shot := func(state string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "foundry-"+state+"-"+vp.Name+".png"))
			}
		}
		heading := func(h1 string) {
			t.Helper()
			p.WaitFor("heading", h1)
			if got := p.Heading(1); got != h1 {
				t.Fatalf("the h1 is %q, want %q", got, h1)
			}
		}
		webSignIn(t, p, email, "password-"+email, "/")

		// Project type: Continue without an answer is refused in words.
		p.Visit("/nexus/foundry")
		heading("What type of project is it?")
		p.WaitFor("radio", "FastAPI")
		p.Axe()
		shot("type")
		p.Click("button", "Continue")
		p.WaitFocused("alert", "There is a problem")
		p.WaitFor("link", "Select the type of project")
		p.Axe()
		shot("type-error")
		p.Check("FastAPI")
		p.Click("button", "Continue")
		p.WaitURL("/nexus/foundry?step=database")

		// Database, by keyboard: the heading has the focus.
		heading("Which database will it use?")
		p.WaitFocused("heading", "Which database will it use?")
		p.Axe()
		p.Press("Tab")
		p.WaitFocused("radio", "PostgreSQL (hosted)")
		p.Press("Space")
		p.Press("Tab")
		p.WaitFocused("button", "Continue")
		p.Press("Enter")

		// Services, by keyboard: Redis only.
		heading("Does it need any of these services?")
		p.WaitFocused("heading", "Does it need any of these services?")
		p.Axe()
		p.Press("Tab")
		p.WaitFocused("checkbox", "Redis")
		p.Press("Space")
		p.Press("Tab")
		p.WaitFocused("checkbox", "S3-style storage")
		p.Press("Tab")
		p.WaitFocused("button", "Continue")
		p.Press("Enter")

		// Team, by mouse; Back returns to the services with Redis kept.
		heading("Which team will work on it?")
		p.Click("link", "Back")
		heading("Does it need any of these services?")
		if !p.Checked("Redis") || p.Checked("S3-style storage") {
			t.Error("Back lost the services' answers")
		}
		p.Click("button", "Continue")
		heading("Which team will work on it?")
		p.Axe()
		shot("team")
		p.Check("Platform")
		p.Click("button", "Continue")

		// Name: checked as typed.
		heading("Name the repository")
		p.Fill("Repository name", "club api")
		p.WaitText("Repository name must only include letters, digits, full stops (.), hyphens (-) and underscores (_), up to 100 characters")
		// The message as typed leaves the focus and every key in the field.
		if got := p.Value("Repository name"); got != "club api" {
			t.Errorf("typed %q, the field holds %q", "club api", got)
		}
		if p.Exists("alert", "There is a problem") {
			t.Error("an error summary appeared while typing")
		}
		p.Axe()
		shot("name-error")
		p.Fill("Repository name", name)
		p.WaitText(name + " is free to use.")
		p.Fill("Description (optional)", "The club's event API")
		p.Axe()
		p.Click("button", "Continue")

		// Visibility: private unless changed.
		heading("Who can see the repository?")
		if !p.Checked("Private") {
			t.Error("Private is not the default")
		}
		p.Axe()
		p.Click("button", "Continue")

		// The review lists every answer; a Change link goes to the step and
		// Continue comes back.
		heading("Check your answers before launching")
		for _, want := range []string{"FastAPI", "PostgreSQL (hosted)", "Redis", "Platform", name, "The club's event API", "Private"} {
			p.WaitText(want)
		}
		p.Axe()
		shot("review")
		// The step is in the URL and the answers are kept for the tab: a
		// reload shows the same review.
		p.Reload()
		heading("Check your answers before launching")
		p.WaitText(name)
		p.WaitText("PostgreSQL (hosted)")
		p.Click("link", "Change project type")
		heading("What type of project is it?")
		if !p.Checked("FastAPI") {
			t.Error("the type's answer was not kept")
		}
		p.Click("button", "Continue")
		heading("Check your answers before launching")
		p.Click("button", "Launch project")

		// The project page follows the launch to its end.
		heading(name)
		path := p.URL()
		id, err := uuid.Parse(strings.TrimPrefix(path, "/nexus/projects/"))
		if err != nil {
			t.Fatalf("landed on %s", path)
		}
		p.Axe()
		shot("project-running")
		p.WithTimeout(40 * time.Second).WaitText("The repository is ready and its setup run has finished.")
		var got foundryProject
		admin.expect(http.StatusOK, "GET", "/api/codehost/projects/"+id.String(), nil).JSON(t, &got)
		if got.Name != name || got.Status != "succeeded" || got.Options.ProjectType != "fastapi" || got.Options.Database != "postgresql" ||
			!got.Options.Redis || got.Options.S3 || got.Options.TeamSlug != "platform" || !got.Options.Private {
			t.Fatalf("the API's project = %+v", got)
		}
		for _, s := range got.Steps {
			text := p.Text("listitem", foundryStepNames[s.Name])
			if s.Status != "succeeded" || !strings.Contains(text, "Succeeded") || !strings.Contains(text, "Started") || !strings.Contains(text, "Finished") {
				t.Errorf("step %s: the API says %s, the page shows %q", s.Name, s.Status, text)
			}
		}
		if got.RunURL == nil || !p.Exists("link", runLinkName(t, *got.RunURL)) {
			t.Errorf("the setup run's link (%v) is not shown", got.RunURL)
		}
		p.WaitFor("table", "Actions runs of the repository")
		runs := p.Table("Actions runs of the repository")
		if len(runs) != 2 || !strings.Contains(strings.Join(runs[1], " "), "success") {
			t.Errorf("the runs table = %v", runs)
		}
		if said := p.Text("status", "Launch updates"); !strings.Contains(said, "The project has succeeded.") {
			t.Errorf("the live region said %q at the end", said)
		}
		if p.HasText("This page follows the launch") {
			t.Error("the page still says it refreshes after the launch ended")
		}
		p.Axe()
		shot("project-succeeded")

		// The history lists it.
		p.Click("link", "All projects")
		heading("Projects")
		p.WaitFor("link", name)
		found := false
		for _, row := range p.Table("Launched projects") {
			if len(row) > 0 && row[0] == name {
				found = strings.Contains(strings.Join(row, " "), "Succeeded") && strings.Contains(strings.Join(row, " "), "FastAPI")
			}
		}
		if !found {
			t.Errorf("the history does not list %s as a succeeded FastAPI project: %v", name, p.Table("Launched projects"))
		}
		// On the desktop the history fits: "Launched by" is not clipped
		// behind a sideways scroll.
		if vp.Name == browser.Desktop.Name {
			if n := p.ScrollBoxesSideways(); n != 0 {
				t.Errorf("%d scroll boxes scroll sideways at %d px", n, vp.Width)
			}
		}
		p.Axe()
		shot("history")

		// A new launch may not take the name: refused as typed.
		p.Click("link", "Launch a project")
		heading("What type of project is it?")
		p.Check("Express")
		p.Click("button", "Continue")
		heading("Which database will it use?")
		p.Check("MongoDB")
		p.Click("button", "Continue")
		heading("Does it need any of these services?")
		p.Click("button", "Continue")
		heading("Which team will work on it?")
		p.Check("Hackathon Tech")
		p.Click("button", "Continue")
		heading("Name the repository")
		p.Fill("Repository name", strings.ToUpper(name))
		p.WaitText("A project named " + strings.ToUpper(name) + " is running or has been launched already. Choose another name")
		p.Axe()
		shot("name-taken")
		p.Click("button", "Continue")
		p.WaitFocused("alert", "There is a problem")
		heading("Name the repository")
	})

	// A member is sent home.
	t.Run("member", func(t *testing.T) {
		email := "visitor@x.test"
		member(t, a, anon, email, "Visitor")
		p := browser.Open(t, site, browser.Desktop)
		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/nexus/foundry")
		p.WaitURL("/")
		testenv.Eventually(t, 5*time.Second, func() (bool, string) {
			return !p.Exists("heading", "What type of project is it?"), "the member to be kept out of Foundry"
		})
	})
}

// A failed launch's page says which step failed and why, and "Launch
// again" starts a new project with the same name and options (the failed
// one keeps its history). axe-core finds nothing on the failed state.
func TestWebProjectsFailed(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "fixer+" + vp.Name + "@x.test"
		admin, _ := decAccount(t, a, anon, email, "admin")
		p := browser.Open(t, site, vp)
		shot := func(state string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "projects-"+state+"-"+vp.Name+".png"))
			}
		}
		heading := func(h1 string) {
			t.Helper()
			p.WaitFor("heading", h1)
			if got := p.Heading(1); got != h1 {
				t.Fatalf("the h1 is %q, want %q", got, h1)
			}
		}
		webSignIn(t, p, email, "password-"+email, "/")

		// A failed launch shows why, and is launched again as a new project
		// with the same options.
		broken := uniqueName("broken-" + vp.Name)
		testenv.FakeGitHub().FailStep(broken, "Configure database")
		failed := launch(t, admin, map[string]any{"name": broken, "project_type": "express", "database": "mongodb",
			"redis": false, "s3": true, "team_slug": "hackathon-tech", "private": false})
		waitProject(t, admin, failed.ProjectID)
		p.Visit("/nexus/projects/" + failed.ProjectID.String())
		heading(broken)
		p.WaitText("The launch stopped.")
		if text := p.Text("listitem", "Setup run"); !strings.Contains(text, "Failed") || !strings.Contains(text, "What went wrong") ||
			!strings.Contains(text, "Configure database") {
			t.Errorf("the failed step shows %q", text)
		}
		p.Axe()
		shot("project-failed")
		p.Click("button", "Launch again")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			u := p.URL()
			return strings.HasPrefix(u, "/nexus/projects/") && u != "/nexus/projects/"+failed.ProjectID.String(), "a new project's page, not " + u
		})
		heading(broken)
		again, err := uuid.Parse(strings.TrimPrefix(p.URL(), "/nexus/projects/"))
		if err != nil {
			t.Fatalf("landed on %s", p.URL())
		}
		var second foundryProject
		admin.expect(http.StatusOK, "GET", "/api/codehost/projects/"+again.String(), nil).JSON(t, &second)
		if second.Name != broken || second.Options.ProjectType != "express" || second.Options.Database != "mongodb" || second.Options.Redis ||
			!second.Options.S3 || second.Options.TeamSlug != "hackathon-tech" || second.Options.Private {
			t.Errorf("launched again as %+v", second)
		}
		waitProject(t, admin, again)
	})
}

// A server without a code host (no GITHUB_TOKEN) answers Foundry's routes
// with 503 "Code host not configured": the generator and the history say
// so in words, with what to set, instead of a generic failure.
func TestWebFoundryUnconfigured(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	browser.Available(t)
	cfg := testenv.Config(t)
	cfg.GitHubToken, cfg.GitHubOrg, cfg.GitHubAPIURL = "", "", ""
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	site := browser.Site{URL: cfg.PublicURL, Addr: a.Addr()}

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "lone+" + vp.Name + "@x.test"
		decAccount(t, a, anon, email, "admin")
		p := browser.Open(t, site, vp)
		for _, u := range []string{"templates", "teams", "projects?page=1&page_size=50", "projects?page=1&page_size=25"} {
			p.AllowConsoleError("status of 503 (Service Unavailable) (http://hackdesk.test/api/codehost/" + u + ")")
		}
		webSignIn(t, p, email, "password-"+email, "/")
		for _, path := range []string{"/nexus/foundry", "/nexus/projects"} {
			p.Visit(path)
			p.WaitText("Code host not configured")
			p.WaitText("GITHUB_TOKEN")
			if p.Exists("button", "Continue") {
				t.Errorf("%s offers to go on without a code host", path)
			}
			p.Axe()
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "unconfigured"+strings.ReplaceAll(path, "/", "-")+"-"+vp.Name+".png"))
			}
		}
	})
}
