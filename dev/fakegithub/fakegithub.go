// Package fakegithub is a stand-in GitHub for the local stack and the
// tests: an organization with two teams and one template repository per
// Foundry project type, serving exactly the REST endpoints package
// codehost uses. A dispatched setup workflow makes a simulated Actions run
// that is queued, then in progress, then completed a few seconds later;
// tests can make a step of it fail, take a repository name in advance,
// answer with rate limits, lose a dispatch's answer or list new runs late.
package fakegithub

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options shape the stand-in. Zero values take the defaults.
type Options struct {
	Token string // the token clients must send; default "fake-token"
	Org   string // default "hackdesk-dev"
	// QueuedFor and RunFor are how long a run stays queued and then in
	// progress; defaults 2 s and 5 s.
	QueuedFor time.Duration
	RunFor    time.Duration
}

// SetupSteps are the steps of the simulated setup run, in order.
var SetupSteps = []string{"Set up job", "Configure database", "Configure cache and storage", "Commit configuration"}

// Server is the stand-in GitHub.
type Server struct {
	opts Options

	mu        sync.Mutex
	teams     []team
	repos     map[string]*repo // by name
	runs      []*run
	nextID    int64
	failSteps map[string]string // repository ("" = any) → step to fail
	limited   []limit
	baseURL   string
	// lostAnswers dispatches make their run but answer 502; runs are
	// listed only listDelay after their dispatch.
	lostAnswers int
	listDelay   time.Duration

	srv *http.Server
	ln  net.Listener
}

type team struct{ Slug, Name, Description string }

type repo struct {
	Name, Description, Template string
	Private, IsTemplate         bool
	Topics                      []string
	Teams                       map[string]string // slug → permission
	CreatedAt                   time.Time
	ID                          int64
}

type run struct {
	ID        int64
	Repo      string
	Workflow  string
	Title     string
	Inputs    map[string]any
	CreatedAt time.Time
	FailStep  string
}

type limit struct {
	secondary bool
	wait      time.Duration
	// dispatches limits only workflow dispatches; other requests pass.
	dispatches bool
}

// New builds a stand-in with its organization, teams and templates.
func New(opts Options) *Server {
	if opts.Token == "" {
		opts.Token = "fake-token"
	}
	if opts.Org == "" {
		opts.Org = "hackdesk-dev"
	}
	if opts.QueuedFor <= 0 {
		opts.QueuedFor = 2 * time.Second
	}
	if opts.RunFor <= 0 {
		opts.RunFor = 5 * time.Second
	}
	s := &Server{opts: opts, repos: map[string]*repo{}, failSteps: map[string]string{}, nextID: 1000}
	s.teams = []team{
		{"platform", "Platform", "Builds and runs the club's shared services"},
		{"hackathon-tech", "Hackathon Tech", "Keeps the hackathon's tools running"},
	}
	old := time.Now().Add(-30 * 24 * time.Hour).UTC().Truncate(time.Second)
	for _, t := range []struct{ name, typ, desc string }{
		{"template-nextjs", "nextjs", "Next.js starter"},
		{"template-express", "express", "Express starter"},
		{"template-fastapi", "fastapi", "FastAPI starter"},
	} {
		s.nextID++
		s.repos[t.name] = &repo{Name: t.name, Description: t.desc, IsTemplate: true,
			Topics: []string{"foundry-" + t.typ, "template"}, Teams: map[string]string{}, CreatedAt: old, ID: s.nextID}
	}
	return s
}

// Token is the token clients must send.
func (s *Server) Token() string { return s.opts.Token }

// Org is the organization's login.
func (s *Server) Org() string { return s.opts.Org }

// Start serves on addr (e.g. "127.0.0.1:0") in the background.
func (s *Server) Start(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("fakegithub: listen: %w", err)
	}
	s.ln = ln
	s.mu.Lock()
	s.baseURL = "http://" + ln.Addr().String()
	s.mu.Unlock()
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return nil
}

// URL is the API root after Start.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.baseURL
}

// Close stops a started server.
func (s *Server) Close() {
	if s.srv != nil {
		_ = s.srv.Close()
	}
}

// AddRepository creates a repository as if someone had made it at
// created (tests: a name taken on the code host).
func (s *Server) AddRepository(name string, created time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.repos[name] = &repo{Name: name, Teams: map[string]string{}, CreatedAt: created.UTC().Truncate(time.Second), ID: s.nextID}
}

// FailStep makes setup runs dispatched later in repository repoName ("" for
// any repository) fail at step.
func (s *Server) FailStep(repoName, step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failSteps[repoName] = step
}

// RateLimit makes the next n requests answer with GitHub's rate-limit
// answer: the primary limit (reset one second ahead) or, when secondary,
// the secondary limit with Retry-After: 1.
func (s *Server) RateLimit(n int, secondary bool) { s.RateLimitFor(n, secondary, time.Second) }

// RateLimitFor is RateLimit with the wait GitHub asks for (whole seconds).
func (s *Server) RateLimitFor(n int, secondary bool, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.limited = append(s.limited, limit{secondary: secondary, wait: wait})
	}
}

// RateLimitDispatches makes the next n workflow dispatches (only those)
// answer with the secondary rate limit and a Retry-After of wait.
func (s *Server) RateLimitDispatches(n int, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.limited = append(s.limited, limit{secondary: true, wait: wait, dispatches: true})
	}
}

// LoseDispatchAnswers makes the next n dispatches make their run and then
// answer 502, as when a proxy loses GitHub's answer.
func (s *Server) LoseDispatchAnswers(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lostAnswers = n
}

// ListRunsAfter lists a dispatched run only d after its dispatch, as GitHub
// lists new runs a little late (0, the default: at once).
func (s *Server) ListRunsAfter(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listDelay = d
}

// TeamPermission is the permission team has on a repository ("" when none).
func (s *Server) TeamPermission(repoName, teamSlug string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[repoName]; r != nil {
		return r.Teams[teamSlug]
	}
	return ""
}

// Dispatched returns the inputs of the runs dispatched in a repository.
func (s *Server) Dispatched(repoName string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, r := range s.runs {
		if r.Repo == repoName {
			out = append(out, r.Inputs)
		}
	}
	return out
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
		writeErr(w, http.StatusUnauthorized, "Bad credentials")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.baseURL == "" {
		s.baseURL = "http://" + r.Host
	}
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	org := s.opts.Org
	isDispatch := r.Method == "POST" && match(p, "repos", org, "*", "actions", "workflows", "*", "dispatches")
	if len(s.limited) > 0 && (!s.limited[0].dispatches || isDispatch) {
		l := s.limited[0]
		s.limited = s.limited[1:]
		w.Header().Set("Content-Type", "application/json")
		if l.secondary {
			w.Header().Set("Retry-After", strconv.Itoa(int(l.wait.Seconds())))
			w.WriteHeader(http.StatusForbidden)
			_ = json.NewEncoder(w).Encode(map[string]string{"message": "You have exceeded a secondary rate limit.",
				"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"})
			return
		}
		w.Header().Set("X-RateLimit-Limit", "5000")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(l.wait).Unix(), 10))
		w.WriteHeader(http.StatusForbidden)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": "API rate limit exceeded.",
			"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"})
		return
	}
	switch {
	case r.Method == "GET" && match(p, "orgs", org, "teams"):
		s.listTeams(w)
	case r.Method == "GET" && match(p, "orgs", org, "repos"):
		s.listRepos(w)
	case r.Method == "PUT" && match(p, "orgs", org, "teams", "*", "repos", org, "*"):
		s.grant(w, r, p[3], p[6])
	case r.Method == "POST" && match(p, "repos", org, "*", "generate"):
		s.generate(w, r, p[2])
	case r.Method == "GET" && match(p, "repos", org, "*"):
		rp := s.repos[p[2]]
		if rp == nil {
			writeErr(w, http.StatusNotFound, "Not Found")
			return
		}
		writeJSON(w, http.StatusOK, s.repoJSON(rp))
	case isDispatch:
		s.dispatch(w, r, p[2], p[5])
	case r.Method == "GET" && match(p, "repos", org, "*", "actions", "workflows", "*", "runs"):
		s.listRuns(w, r, p[2], p[5])
	case r.Method == "GET" && match(p, "repos", org, "*", "actions", "runs"):
		s.listRuns(w, r, p[2], "")
	case r.Method == "GET" && match(p, "repos", org, "*", "actions", "runs", "*"):
		if rn := s.findRun(p[2], p[5]); rn != nil {
			writeJSON(w, http.StatusOK, s.runJSON(rn))
			return
		}
		writeErr(w, http.StatusNotFound, "Not Found")
	case r.Method == "GET" && match(p, "repos", org, "*", "actions", "runs", "*", "jobs"):
		if rn := s.findRun(p[2], p[5]); rn != nil {
			writeJSON(w, http.StatusOK, s.jobsJSON(rn))
			return
		}
		writeErr(w, http.StatusNotFound, "Not Found")
	default:
		writeErr(w, http.StatusNotFound, "Not Found")
	}
}

// match reports whether path segments p fit pattern ("*" matches any one
// non-empty segment).
func match(p []string, pattern ...string) bool {
	if len(p) != len(pattern) {
		return false
	}
	for i, want := range pattern {
		if want == "*" {
			if p[i] == "" {
				return false
			}
			continue
		}
		if p[i] != want {
			return false
		}
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, status int, msg string, errs ...map[string]string) {
	body := map[string]any{"message": msg, "documentation_url": "https://docs.github.com/rest"}
	if len(errs) > 0 {
		body["errors"] = errs
	}
	writeJSON(w, status, body)
}

func (s *Server) listTeams(w http.ResponseWriter) {
	out := []map[string]any{}
	for i, t := range s.teams {
		out = append(out, map[string]any{"id": i + 1, "slug": t.Slug, "name": t.Name, "description": t.Description})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) sortedRepos() []*repo {
	out := make([]*repo, 0, len(s.repos))
	for _, r := range s.repos {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (s *Server) listRepos(w http.ResponseWriter) {
	out := []map[string]any{}
	for _, r := range s.sortedRepos() {
		out = append(out, s.repoJSON(r))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) repoJSON(r *repo) map[string]any {
	full := s.opts.Org + "/" + r.Name
	topics := r.Topics
	if topics == nil {
		topics = []string{}
	}
	out := map[string]any{
		"id": r.ID, "name": r.Name, "full_name": full, "description": r.Description,
		"private": r.Private, "is_template": r.IsTemplate, "topics": topics,
		"html_url": s.baseURL + "/" + full, "default_branch": "main",
		"owner":      map[string]any{"login": s.opts.Org, "type": "Organization"},
		"created_at": r.CreatedAt.Format(time.RFC3339),
	}
	if r.Template != "" {
		out["template_repository"] = map[string]any{"name": r.Template, "full_name": s.opts.Org + "/" + r.Template}
	}
	return out
}

func (s *Server) generate(w http.ResponseWriter, r *http.Request, template string) {
	tpl := s.repos[template]
	if tpl == nil || !tpl.IsTemplate {
		writeErr(w, http.StatusNotFound, "Not Found")
		return
	}
	var req struct {
		Owner       string `json:"owner"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Private     bool   `json:"private"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Name == "" {
		writeErr(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]string{"resource": "Repository", "field": "name", "code": "missing_field"})
		return
	}
	if req.Owner != "" && req.Owner != s.opts.Org {
		writeErr(w, http.StatusNotFound, "Not Found")
		return
	}
	if s.repos[req.Name] != nil {
		writeErr(w, http.StatusUnprocessableEntity, "Repository creation failed.",
			map[string]string{"resource": "Repository", "code": "custom", "field": "name", "message": "name already exists on this account"})
		return
	}
	s.nextID++
	rp := &repo{Name: req.Name, Description: req.Description, Private: req.Private, Template: template,
		Teams: map[string]string{}, CreatedAt: time.Now().UTC().Truncate(time.Second), ID: s.nextID}
	s.repos[req.Name] = rp
	writeJSON(w, http.StatusCreated, s.repoJSON(rp))
}

func (s *Server) grant(w http.ResponseWriter, r *http.Request, slug, repoName string) {
	known := false
	for _, t := range s.teams {
		known = known || t.Slug == slug
	}
	rp := s.repos[repoName]
	if !known || rp == nil {
		writeErr(w, http.StatusNotFound, "Not Found")
		return
	}
	var req struct {
		Permission string `json:"permission"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	if req.Permission == "" {
		req.Permission = "push"
	}
	rp.Teams[slug] = req.Permission
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, repoName, workflow string) {
	rp := s.repos[repoName]
	if rp == nil || rp.Template == "" {
		// Only repositories made from a template carry the setup workflow.
		writeErr(w, http.StatusNotFound, "Not Found")
		return
	}
	var req struct {
		Ref    string         `json:"ref"`
		Inputs map[string]any `json:"inputs"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Ref == "" {
		writeErr(w, http.StatusUnprocessableEntity, "Invalid request.\n\n\"ref\" wasn't supplied.")
		return
	}
	if len(req.Inputs) > 10 {
		writeErr(w, http.StatusUnprocessableEntity, "Invalid request.\n\nNo more than 10 properties are allowed.")
		return
	}
	s.nextID++
	title := "Foundry setup"
	if id, ok := req.Inputs["correlation_id"].(string); ok && id != "" {
		title += " " + id
	}
	step, ok := s.failSteps[repoName]
	if !ok {
		step = s.failSteps[""]
	}
	s.runs = append(s.runs, &run{ID: s.nextID, Repo: repoName, Workflow: workflow, Title: title,
		Inputs: req.Inputs, CreatedAt: time.Now(), FailStep: step})
	if s.lostAnswers > 0 {
		s.lostAnswers--
		writeErr(w, http.StatusBadGateway, "Server Error")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) findRun(repoName, id string) *run {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil
	}
	for _, r := range s.runs {
		if r.ID == n && r.Repo == repoName {
			return r
		}
	}
	return nil
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request, repoName, workflow string) {
	if s.repos[repoName] == nil {
		writeErr(w, http.StatusNotFound, "Not Found")
		return
	}
	per := 30
	if v, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && v > 0 && v <= 100 {
		per = v
	}
	event := r.URL.Query().Get("event")
	out := []map[string]any{}
	total := 0
	for i := len(s.runs) - 1; i >= 0; i-- { // newest first
		rn := s.runs[i]
		if rn.Repo != repoName || (workflow != "" && rn.Workflow != workflow) || (event != "" && event != "workflow_dispatch") ||
			time.Since(rn.CreatedAt) < s.listDelay {
			continue
		}
		total++
		if len(out) < per {
			out = append(out, s.runJSON(rn))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": total, "workflow_runs": out})
}

// state is where a run is now: its status, conclusion and how many steps
// have finished.
func (s *Server) state(rn *run) (status, conclusion string, done int, updated time.Time) {
	age := time.Since(rn.CreatedAt)
	switch {
	case age < s.opts.QueuedFor:
		return "queued", "", 0, rn.CreatedAt
	case age < s.opts.QueuedFor+s.opts.RunFor:
		done = int(float64(len(SetupSteps)) * float64(age-s.opts.QueuedFor) / float64(s.opts.RunFor))
		if i := s.failIndex(rn); i >= 0 && done > i {
			done = i
		}
		return "in_progress", "", done, time.Now()
	}
	end := rn.CreatedAt.Add(s.opts.QueuedFor + s.opts.RunFor)
	if s.failIndex(rn) >= 0 {
		return "completed", "failure", s.failIndex(rn), end
	}
	return "completed", "success", len(SetupSteps), end
}

func (s *Server) failIndex(rn *run) int {
	for i, st := range SetupSteps {
		if st == rn.FailStep {
			return i
		}
	}
	return -1
}

func (s *Server) runJSON(rn *run) map[string]any {
	status, conclusion, _, updated := s.state(rn)
	out := map[string]any{
		"id": rn.ID, "name": "Foundry setup", "display_title": rn.Title, "event": "workflow_dispatch",
		"status": status, "conclusion": nil, "path": ".github/workflows/" + rn.Workflow,
		"html_url":   fmt.Sprintf("%s/%s/%s/actions/runs/%d", s.baseURL, s.opts.Org, rn.Repo, rn.ID),
		"created_at": rn.CreatedAt.UTC().Format(time.RFC3339), "updated_at": updated.UTC().Format(time.RFC3339),
		"run_number": rn.ID,
	}
	if conclusion != "" {
		out["conclusion"] = conclusion
	}
	return out
}

func (s *Server) jobsJSON(rn *run) map[string]any {
	status, conclusion, done, _ := s.state(rn)
	fail := s.failIndex(rn)
	steps := []map[string]any{}
	for i, name := range SetupSteps {
		st := map[string]any{"name": name, "number": i + 1, "status": "queued", "conclusion": nil}
		switch {
		case i < done:
			st["status"], st["conclusion"] = "completed", "success"
		case i == fail && status == "completed":
			st["status"], st["conclusion"] = "completed", "failure"
		case status == "completed":
			st["status"], st["conclusion"] = "completed", "skipped"
		case i == done && status == "in_progress":
			st["status"] = "in_progress"
		}
		steps = append(steps, st)
	}
	job := map[string]any{"id": rn.ID*10 + 1, "run_id": rn.ID, "name": "setup", "status": status, "conclusion": nil, "steps": steps}
	if conclusion != "" {
		job["conclusion"] = conclusion
	}
	return map[string]any{"total_count": 1, "jobs": []any{job}}
}
