package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

type foundryStep struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	Detail     string     `json:"detail"`
}

type foundryProject struct {
	ID      uuid.UUID `json:"id"`
	Name    string    `json:"name"`
	Status  string    `json:"status"`
	Options struct {
		ProjectType string `json:"project_type"`
		Database    string `json:"database"`
		Redis       bool   `json:"redis"`
		S3          bool   `json:"s3"`
		TeamSlug    string `json:"team_slug"`
		Private     bool   `json:"private"`
	} `json:"options"`
	Steps         []foundryStep `json:"steps"`
	RepositoryURL *string       `json:"repository_url"`
	RunURL        *string       `json:"run_url"`
	WorkflowID    string        `json:"workflow_id"`
	CreatedBy     string        `json:"created_by"`
}

func (p foundryProject) step(name string) foundryStep {
	for _, s := range p.Steps {
		if s.Name == name {
			return s
		}
	}
	return foundryStep{}
}

// uniqueName is a repository name no other test uses (the stand-in GitHub
// is shared by the test binary).
func uniqueName(prefix string) string { return prefix + "-" + uuid.NewString()[:8] }

type launched struct {
	ProjectID  uuid.UUID `json:"project_id"`
	WorkflowID string    `json:"workflow_id"`
}

func launch(t *testing.T, c *client, body map[string]any) launched {
	t.Helper()
	var out launched
	c.expect(http.StatusAccepted, "POST", "/api/codehost/foundry/launch", body).JSON(t, &out)
	if out.WorkflowID != workflows.FoundryLaunchID(out.ProjectID) {
		t.Fatalf("workflow id %q for project %s", out.WorkflowID, out.ProjectID)
	}
	return out
}

// waitProject polls the project until it has ended and returns it.
func waitProject(t *testing.T, c *client, id uuid.UUID) foundryProject {
	t.Helper()
	var p foundryProject
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		p = foundryProject{}
		c.expect(http.StatusOK, "GET", "/api/codehost/projects/"+id.String(), nil).JSON(t, &p)
		return p.Status != "running", "project " + id.String() + " to end"
	})
	return p
}

// TestFoundryLaunch launches a project against the stand-in GitHub and
// follows it to succeeded: the repository made from the template, the team
// given push access, the setup run dispatched with the options and
// followed to its end, each step recorded.
func TestFoundryLaunch(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	fake := testenv.FakeGitHub()

	var teams struct {
		Teams []struct{ Slug, Name string } `json:"teams"`
	}
	admin.expect(http.StatusOK, "GET", "/api/codehost/teams", nil).JSON(t, &teams)
	if len(teams.Teams) != 2 {
		t.Fatalf("teams = %+v", teams)
	}
	var tpls struct {
		Templates []struct {
			FullName    string `json:"full_name"`
			ProjectType string `json:"project_type"`
		} `json:"templates"`
	}
	admin.expect(http.StatusOK, "GET", "/api/codehost/templates", nil).JSON(t, &tpls)
	types := map[string]bool{}
	for _, tp := range tpls.Templates {
		types[tp.ProjectType] = true
	}
	if !types["nextjs"] || !types["express"] || !types["fastapi"] {
		t.Fatalf("templates = %+v", tpls)
	}

	name := uniqueName("Web.App")
	l := launch(t, admin, map[string]any{"name": name, "description": "the club site", "project_type": "nextjs",
		"database": "postgresql", "redis": true, "s3": false, "team_slug": teams.Teams[0].Slug, "private": true})

	// While it runs, the name is held, case-insensitively.
	admin.expect(http.StatusConflict, "POST", "/api/codehost/foundry/launch", map[string]any{
		"name": strings.ToLower(name), "project_type": "express", "database": "mongodb", "team_slug": "platform"})

	p := waitProject(t, admin, l.ProjectID)
	if p.Status != "succeeded" {
		t.Fatalf("project = %+v", p)
	}
	want := []string{"create_repository", "grant_team", "dispatch_setup", "setup_run"}
	if len(p.Steps) != len(want) {
		t.Fatalf("steps = %+v", p.Steps)
	}
	for i, s := range p.Steps {
		if s.Name != want[i] || s.Status != "succeeded" || s.StartedAt == nil || s.FinishedAt == nil || s.FinishedAt.Before(*s.StartedAt) {
			t.Errorf("step %d = %+v", i, s)
		}
	}
	if p.RepositoryURL == nil || !strings.HasSuffix(*p.RepositoryURL, "/"+fake.Org()+"/"+name) {
		t.Errorf("repository_url = %v", p.RepositoryURL)
	}
	if p.RunURL == nil || !strings.Contains(*p.RunURL, "/actions/runs/") {
		t.Errorf("run_url = %v", p.RunURL)
	}
	if p.CreatedBy != "admin@example.com" || !p.Options.Redis || p.Options.S3 || p.Options.Database != "postgresql" {
		t.Errorf("project = %+v", p)
	}
	if perm := fake.TeamPermission(name, teams.Teams[0].Slug); perm != "push" {
		t.Errorf("team permission = %q", perm)
	}
	inputs := fake.Dispatched(name)
	d, err := a.Temporal.DescribeWorkflowExecution(context.Background(), l.WorkflowID, "")
	if err != nil {
		t.Fatal(err)
	}
	correlation := workflows.FoundryCorrelationID(l.ProjectID, d.GetWorkflowExecutionInfo().GetExecution().GetRunId())
	if len(inputs) != 1 || inputs[0]["correlation_id"] != correlation || inputs[0]["database"] != "postgresql" ||
		inputs[0]["redis"] != "true" || inputs[0]["s3"] != "false" || inputs[0]["project_type"] != "nextjs" {
		t.Errorf("dispatched = %v", inputs)
	}

	// Monitoring: the repository's recent runs.
	var runs struct {
		Runs []struct {
			ID         int64  `json:"id"`
			Status     string `json:"status"`
			Conclusion string `json:"conclusion"`
			URL        string `json:"url"`
		} `json:"runs"`
	}
	admin.expect(http.StatusOK, "GET", "/api/codehost/projects/"+l.ProjectID.String()+"/runs", nil).JSON(t, &runs)
	if len(runs.Runs) != 1 || runs.Runs[0].Conclusion != "success" || runs.Runs[0].URL != *p.RunURL {
		t.Errorf("runs = %+v", runs)
	}

	// A succeeded project keeps its name.
	admin.expect(http.StatusConflict, "POST", "/api/codehost/foundry/launch", map[string]any{
		"name": name, "project_type": "nextjs", "database": "postgresql", "team_slug": "platform"})

	// The history lists it; the workflow carries the search attributes.
	var list struct {
		Projects []foundryProject `json:"projects"`
		Total    int              `json:"total"`
	}
	admin.expect(http.StatusOK, "GET", "/api/codehost/projects?page=1", nil).JSON(t, &list)
	if list.Total != 1 || len(list.Projects) != 1 || list.Projects[0].ID != l.ProjectID || len(list.Projects[0].Steps) != 4 {
		t.Fatalf("history = %+v", list)
	}
	desc, err := a.Temporal.DescribeWorkflowExecution(context.Background(), l.WorkflowID, "")
	if err != nil {
		t.Fatal(err)
	}
	attrs := desc.WorkflowExecutionInfo.GetSearchAttributes().GetIndexedFields()
	if k := string(attrs["HackdeskKind"].GetData()); k != `"foundry"` {
		t.Errorf("HackdeskKind = %s", k)
	}
	if s := string(attrs["HackdeskSubject"].GetData()); s != fmt.Sprintf("%q", name) {
		t.Errorf("HackdeskSubject = %s", s)
	}
	testenv.RecordHistory(t, a.Temporal, l.WorkflowID, "foundry_launch")
}

// TestFoundryFailures: what only the code host can refuse fails the step
// with the reason and the project with it, and frees the name.
func TestFoundryFailures(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	fake := testenv.FakeGitHub()
	opts := func(name, team string) map[string]any {
		return map[string]any{"name": name, "project_type": "express", "database": "mongodb", "team_slug": team}
	}

	// A name already taken on the code host.
	taken := uniqueName("taken")
	fake.AddRepository(taken, time.Now().Add(-time.Hour))
	takenLaunch := launch(t, admin, opts(taken, "platform"))
	// A setup run that fails.
	broken := uniqueName("broken")
	fake.FailStep(broken, "Configure database")
	brokenLaunch := launch(t, admin, opts(broken, "hackathon-tech"))

	p := waitProject(t, admin, takenLaunch.ProjectID)
	if s := p.step("create_repository"); p.Status != "failed" || s.Status != "failed" ||
		!strings.Contains(s.Detail, "already exists") || s.FinishedAt == nil {
		t.Fatalf("taken name: %+v", p)
	}
	if s := p.step("grant_team"); s.Status != "pending" || s.StartedAt != nil {
		t.Fatalf("a step after the failure ran: %+v", s)
	}
	if p.RepositoryURL != nil {
		t.Fatalf("repository_url = %v for a repository that is not the project's", *p.RepositoryURL)
	}

	p = waitProject(t, admin, brokenLaunch.ProjectID)
	if s := p.step("setup_run"); p.Status != "failed" || s.Status != "failed" || !strings.Contains(s.Detail, "Configure database") || p.RunURL == nil {
		t.Fatalf("failed setup run: %+v", p)
	}
	for _, name := range []string{"create_repository", "grant_team", "dispatch_setup"} {
		if s := p.step(name); s.Status != "succeeded" {
			t.Fatalf("failed setup run, step %s: %+v", name, s)
		}
	}

	// A failed project's name may be launched again.
	launch(t, admin, opts(taken, "platform"))

	// The history: newest first, paged.
	var list struct {
		Projects []foundryProject `json:"projects"`
		Total    int              `json:"total"`
		PageSize int              `json:"page_size"`
	}
	admin.expect(http.StatusOK, "GET", "/api/codehost/projects?page=1&page_size=10", nil).JSON(t, &list)
	if list.Total != 3 || len(list.Projects) != 3 || list.Projects[0].Name != taken || list.Projects[2].ID != takenLaunch.ProjectID {
		t.Fatalf("history = %+v", list)
	}
	admin.expect(http.StatusBadRequest, "GET", "/api/codehost/projects?page=0", nil)
}

// TestFoundryValidation: names and options are checked before anything is
// recorded.
func TestFoundryValidation(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	good := func() map[string]any {
		return map[string]any{"name": "ok", "project_type": "fastapi", "database": "postgresql", "team_slug": "platform"}
	}
	for _, c := range []struct {
		field string
		value any
	}{
		{"name", "."}, {"name", ".."}, {"name", ""}, {"name", "has space"}, {"name", strings.Repeat("a", 101)},
		{"name", "a/b"}, {"project_type", "rails"}, {"database", "mysql"}, {"team_slug", ""},
		{"description", strings.Repeat("d", 351)},
	} {
		body := good()
		body[c.field] = c.value
		r := admin.expect(http.StatusBadRequest, "POST", "/api/codehost/foundry/launch", body)
		if d, _ := r.Map(t)["details"].(map[string]any); d[c.field] == nil {
			t.Errorf("%s=%v: details %s", c.field, c.value, r.Body)
		}
	}
	body := good()
	body["extra"] = 1
	admin.expect(http.StatusBadRequest, "POST", "/api/codehost/foundry/launch", body)
	admin.expect(http.StatusUnsupportedMediaType, "POST", "/api/codehost/foundry/launch", "{}", "Content-Type", "text/plain")
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM foundry_projects`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d projects recorded, %v", n, err)
	}
	admin.expect(http.StatusNotFound, "GET", "/api/codehost/projects/"+uuid.NewString(), nil)
	admin.expect(http.StatusNotFound, "GET", "/api/codehost/projects/not-a-uuid", nil)
	admin.expect(http.StatusNotFound, "GET", "/api/codehost/projects/"+uuid.NewString()+"/runs", nil)
}

// TestFoundryTeamSlug: the team slug must be a slug (it goes into the code
// host's URL with the organization's token) and name a team the code host
// lists, both checked before anything is recorded or created.
func TestFoundryTeamSlug(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	body := func(name, team string) map[string]any {
		return map[string]any{"name": name, "project_type": "fastapi", "database": "postgresql", "team_slug": team}
	}
	for _, slug := range []string{"..", ".", "a/b", "a%2Fb", "%2e%2e", "a?b", "a#b", "Platform", "-x", "plat form", "platform/../../x"} {
		r := admin.expect(http.StatusBadRequest, "POST", "/api/codehost/foundry/launch", body(uniqueName("slug"), slug))
		if d, _ := r.Map(t)["details"].(map[string]any); d["team_slug"] == nil {
			t.Errorf("team_slug %q: %s", slug, r.Body)
		}
	}
	// A well-formed slug the organization has no team for.
	name := uniqueName("noteam")
	r := admin.expect(http.StatusBadRequest, "POST", "/api/codehost/foundry/launch", body(name, "ghosts"))
	if d, _ := r.Map(t)["details"].(map[string]any); !strings.Contains(fmt.Sprint(d["team_slug"]), "no team") {
		t.Errorf("unknown team: %s", r.Body)
	}
	if n := countRows(t, a, `SELECT count(*) FROM foundry_projects`) + countRows(t, a, `SELECT count(*) FROM workflow_starts`); n != 0 {
		t.Fatalf("%d projects and workflow starts recorded", n)
	}
	launch(t, admin, body(uniqueName("okteam"), "hackathon-tech"))
}

// TestFoundryRoles: every Foundry route is for admins.
func TestFoundryRoles(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	member := as(t, a, anon, account(t, a, "member@example.com", "Member", "member"))
	super := as(t, a, anon, account(t, a, "super@example.com", "Super", "superadmin"))
	id := uuid.NewString()
	body := map[string]any{"name": "roles", "project_type": "fastapi", "database": "postgresql", "team_slug": "platform"}
	for _, rt := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/codehost/teams", nil},
		{"GET", "/api/codehost/templates", nil},
		{"POST", "/api/codehost/foundry/launch", body},
		{"GET", "/api/codehost/projects", nil},
		{"GET", "/api/codehost/projects/" + id, nil},
		{"GET", "/api/codehost/projects/" + id + "/runs", nil},
	} {
		anon.expect(http.StatusUnauthorized, rt.method, rt.path, rt.body)
		member.expect(http.StatusForbidden, rt.method, rt.path, rt.body)
	}
	super.expect(http.StatusOK, "GET", "/api/codehost/teams", nil)
}

// TestFoundryNotConfigured: without a code host the routes answer 503.
func TestFoundryNotConfigured(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.GitHubToken, cfg.GitHubOrg, cfg.GitHubAPIURL = "", "", ""
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	for _, rt := range []struct{ method, path string }{
		{"GET", "/api/codehost/teams"}, {"GET", "/api/codehost/templates"}, {"GET", "/api/codehost/projects"},
		{"GET", "/api/codehost/projects/" + uuid.NewString()}, {"GET", "/api/codehost/projects/" + uuid.NewString() + "/runs"},
	} {
		r := admin.expect(http.StatusServiceUnavailable, rt.method, rt.path, nil)
		if e := r.Map(t)["error"]; e != "Code host not configured" {
			t.Errorf("%s %s: %s", rt.method, rt.path, r.Body)
		}
	}
	r := admin.expect(http.StatusServiceUnavailable, "POST", "/api/codehost/foundry/launch",
		map[string]any{"name": "x", "project_type": "fastapi", "database": "postgresql", "team_slug": "platform"})
	if e := r.Map(t)["error"]; e != "Code host not configured" {
		t.Errorf("launch: %s", r.Body)
	}
}
