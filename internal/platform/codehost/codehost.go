// Package codehost talks to the code host (GitHub, or GitHub Enterprise)
// for Foundry: the organization's teams and template repositories,
// repositories made from a template, team access, and the setup Actions
// workflow dispatched in each new repository. Rate-limit and
// secondary-limit answers are retried after the time GitHub gives, or,
// for a client made WithoutWaiting (Temporal activities), returned at once
// as a *RateLimitError saying how long to wait.
package codehost

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

// The project types Foundry knows, and the topic that marks a template
// repository as the template of one.
const (
	TopicPrefix = "foundry-"
)

// Config says which code host to use.
type Config struct {
	Token string
	Org   string
	// APIURL is the REST API root; empty means api.github.com.
	APIURL string
	// SetupWorkflow is the file name of the setup Actions workflow each
	// template carries (e.g. foundry-setup.yml).
	SetupWorkflow string
	// MaxRateWait caps how long one call waits for a rate limit to pass
	// before it gives up with a *RateLimitError; zero means two minutes.
	MaxRateWait time.Duration
	// HTTPClient overrides the transport (tests).
	HTTPClient *http.Client
}

// Errors a caller can tell apart. Each wraps the code host's own message.
var (
	ErrNotFound    = errors.New("not found")
	ErrNameTaken   = errors.New("name already exists")
	ErrInvalid     = errors.New("rejected by the code host")
	ErrRateLimited = errors.New("rate limited")
)

// RateLimitError is ErrRateLimited with how long the code host asked the
// caller to wait before trying again.
type RateLimitError struct {
	RetryAfter time.Duration
	err        error // the code host's answer
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%v: %v (retry after %s)", ErrRateLimited, e.err, e.RetryAfter.Round(time.Second))
}

// Is makes errors.Is(err, ErrRateLimited) hold.
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

func (e *RateLimitError) Unwrap() error { return e.err }

// Client is a code host client for one organization.
type Client struct {
	gh       *github.Client
	org      string
	workflow string
	maxWait  time.Duration
	// noWait returns every rate limit at once instead of waiting.
	noWait bool
	// sleep waits d or until ctx ends (tests may replace it).
	sleep func(ctx context.Context, d time.Duration) error
}

// New builds a client. Token and Org are required.
func New(cfg Config) (*Client, error) {
	if cfg.Token == "" {
		return nil, errors.New("codehost: GITHUB_TOKEN is not set")
	}
	if cfg.Org == "" {
		return nil, errors.New("codehost: GITHUB_ORG is not set")
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	gh := github.NewClient(hc).WithAuthToken(cfg.Token)
	if cfg.APIURL != "" {
		u, err := url.Parse(strings.TrimRight(cfg.APIURL, "/") + "/")
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("codehost: GITHUB_API_URL must be an absolute http(s) URL")
		}
		gh.BaseURL = u
		gh.UploadURL = u
	}
	c := &Client{gh: gh, org: cfg.Org, workflow: cfg.SetupWorkflow, maxWait: cfg.MaxRateWait, sleep: sleepCtx}
	if c.workflow == "" {
		c.workflow = "foundry-setup.yml"
	}
	if c.maxWait <= 0 {
		c.maxWait = 2 * time.Minute
	}
	return c, nil
}

// WithoutWaiting is a copy of c that never waits for a rate limit to
// pass: the call fails at once with a *RateLimitError carrying the wait.
// Temporal activities use it, so that the wait is Temporal's retry delay
// (which a worker does not sit through) rather than a sleep that could
// outlast the activity's timeout or heartbeat.
func (c *Client) WithoutWaiting() *Client {
	cp := *c
	cp.noWait = true
	return &cp
}

// Org is the organization the client works in.
func (c *Client) Org() string { return c.org }

// SetupWorkflow is the file name of the setup workflow dispatched.
func (c *Client) SetupWorkflow() string { return c.workflow }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// do runs call, waiting out rate limits: after a primary limit until the
// reset time GitHub gave, after a secondary limit for its Retry-After (a
// minute when it gives none). A wait longer than maxWait, a fourth limit
// in a row, or any limit for a client WithoutWaiting gives up with a
// *RateLimitError.
func (c *Client) do(ctx context.Context, call func() (*github.Response, error)) error {
	for attempt := 0; ; attempt++ {
		resp, err := call()
		if err == nil {
			return nil
		}
		var wait time.Duration
		var rl *github.RateLimitError
		var abuse *github.AbuseRateLimitError
		switch {
		case errors.As(err, &rl):
			wait = time.Until(rl.Rate.Reset.Time) + time.Second
		case errors.As(err, &abuse):
			wait = time.Minute
			if abuse.RetryAfter != nil {
				wait = *abuse.RetryAfter
			}
		default:
			return classify(resp, err)
		}
		if wait < 0 {
			wait = 0
		}
		if c.noWait || attempt >= 3 || wait > c.maxWait {
			return &RateLimitError{RetryAfter: wait, err: err}
		}
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// classify maps a GitHub error answer to the package's errors.
func classify(resp *github.Response, err error) error {
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil {
		return err
	}
	msg := er.Message
	for _, e := range er.Errors {
		if e.Message != "" {
			msg += ": " + e.Message
		}
	}
	switch er.Response.StatusCode {
	case http.StatusNotFound:
		return fmt.Errorf("%w: %s", ErrNotFound, msg)
	case http.StatusUnprocessableEntity:
		if strings.Contains(strings.ToLower(msg), "already exists") {
			return fmt.Errorf("%w: %s", ErrNameTaken, msg)
		}
		return fmt.Errorf("%w: %s", ErrInvalid, msg)
	}
	return err
}

// Team is an organization team.
type Team struct {
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Teams lists the organization's teams.
func (c *Client) Teams(ctx context.Context) ([]Team, error) {
	var out []Team
	opts := &github.ListOptions{PerPage: 100}
	for {
		var teams []*github.Team
		var resp *github.Response
		err := c.do(ctx, func() (*github.Response, error) {
			var err error
			teams, resp, err = c.gh.Teams.ListTeams(ctx, c.org, opts)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, t := range teams {
			out = append(out, Team{Slug: t.GetSlug(), Name: t.GetName(), Description: t.GetDescription()})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// Template is a template repository of the organization marked for a
// project type by its topic (foundry-nextjs, ...).
type Template struct {
	Name        string `json:"name"`
	FullName    string `json:"full_name"`
	Description string `json:"description"`
	ProjectType string `json:"project_type"`
}

// Templates lists the organization's template repositories that carry a
// project-type topic; the first such topic wins.
func (c *Client) Templates(ctx context.Context) ([]Template, error) {
	var out []Template
	opts := &github.RepositoryListByOrgOptions{Type: "all", ListOptions: github.ListOptions{PerPage: 100}}
	for {
		var repos []*github.Repository
		var resp *github.Response
		err := c.do(ctx, func() (*github.Response, error) {
			var err error
			repos, resp, err = c.gh.Repositories.ListByOrg(ctx, c.org, opts)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range repos {
			if !r.GetIsTemplate() {
				continue
			}
			for _, topic := range r.Topics {
				if pt, ok := strings.CutPrefix(topic, TopicPrefix); ok && pt != "" {
					out = append(out, Template{Name: r.GetName(), FullName: r.GetFullName(),
						Description: r.GetDescription(), ProjectType: pt})
					break
				}
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// TemplateFor returns the template of a project type, or ErrNotFound.
func (c *Client) TemplateFor(ctx context.Context, projectType string) (Template, error) {
	ts, err := c.Templates(ctx)
	if err != nil {
		return Template{}, err
	}
	for _, t := range ts {
		if t.ProjectType == projectType {
			return t, nil
		}
	}
	return Template{}, fmt.Errorf("%w: no template repository with topic %s%s in %s", ErrNotFound, TopicPrefix, projectType, c.org)
}

// Repo is a repository of the organization.
type Repo struct {
	Name          string
	FullName      string
	URL           string // the web page
	DefaultBranch string
	// Template is the full name of the template it was made from, if any.
	Template  string
	CreatedAt time.Time
}

func repoOf(r *github.Repository) Repo {
	out := Repo{Name: r.GetName(), FullName: r.GetFullName(), URL: r.GetHTMLURL(),
		DefaultBranch: r.GetDefaultBranch(), CreatedAt: r.GetCreatedAt().Time}
	if r.TemplateRepository != nil {
		out.Template = r.TemplateRepository.GetFullName()
	}
	if out.DefaultBranch == "" {
		out.DefaultBranch = "main"
	}
	return out
}

// CreateFromTemplate makes repository name in the organization from the
// template (its full name, owner/repo). A taken name is ErrNameTaken.
func (c *Client) CreateFromTemplate(ctx context.Context, template, name, description string, private bool) (Repo, error) {
	owner, repo, ok := strings.Cut(template, "/")
	if !ok {
		return Repo{}, fmt.Errorf("codehost: template %q is not owner/name", template)
	}
	var r *github.Repository
	err := c.do(ctx, func() (*github.Response, error) {
		var resp *github.Response
		var err error
		r, resp, err = c.gh.Repositories.CreateFromTemplate(ctx, owner, repo, &github.TemplateRepoRequest{
			Name: &name, Owner: &c.org, Description: &description, Private: &private})
		return resp, err
	})
	if err != nil {
		return Repo{}, err
	}
	return repoOf(r), nil
}

// Repository reads repository name of the organization.
func (c *Client) Repository(ctx context.Context, name string) (Repo, error) {
	var r *github.Repository
	err := c.do(ctx, func() (*github.Response, error) {
		var resp *github.Response
		var err error
		r, resp, err = c.gh.Repositories.Get(ctx, c.org, name)
		return resp, err
	})
	if err != nil {
		return Repo{}, err
	}
	return repoOf(r), nil
}

// GrantTeam gives a team permission (pull, triage, push, maintain, admin)
// on a repository. An unknown team is ErrNotFound.
func (c *Client) GrantTeam(ctx context.Context, teamSlug, repo, permission string) error {
	return c.do(ctx, func() (*github.Response, error) {
		return c.gh.Teams.AddTeamRepoBySlug(ctx, c.org, teamSlug, c.org, repo,
			&github.TeamAddTeamRepoOptions{Permission: permission})
	})
}

// DispatchSetup dispatches the setup workflow on ref of the repository with
// the given inputs. The inputs should carry a correlation id that the
// workflow puts in its run name, so FindRun can tell its run apart.
func (c *Client) DispatchSetup(ctx context.Context, repo, ref string, inputs map[string]any) error {
	return c.do(ctx, func() (*github.Response, error) {
		return c.gh.Actions.CreateWorkflowDispatchEventByFileName(ctx, c.org, repo, c.workflow,
			github.CreateWorkflowDispatchEventRequest{Ref: ref, Inputs: inputs})
	})
}

// Run is an Actions workflow run.
type Run struct {
	ID         int64     `json:"id"`
	Name       string    `json:"name"`
	Title      string    `json:"title"` // the run name (display title)
	Event      string    `json:"event"`
	Status     string    `json:"status"`     // queued, in_progress, completed, ...
	Conclusion string    `json:"conclusion"` // success, failure, ... once completed
	URL        string    `json:"url"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// Completed reports whether the run has ended.
func (r Run) Completed() bool { return r.Status == "completed" }

func runOf(w *github.WorkflowRun) Run {
	return Run{ID: w.GetID(), Name: w.GetName(), Title: w.GetDisplayTitle(), Event: w.GetEvent(),
		Status: w.GetStatus(), Conclusion: w.GetConclusion(), URL: w.GetHTMLURL(),
		CreatedAt: w.GetCreatedAt().Time, UpdatedAt: w.GetUpdatedAt().Time}
}

// FindRun looks among the setup workflow's recent dispatched runs for the
// one whose run name carries correlationID. ok is false when it has not
// appeared yet.
func (c *Client) FindRun(ctx context.Context, repo, correlationID string) (run Run, ok bool, err error) {
	var runs *github.WorkflowRuns
	err = c.do(ctx, func() (*github.Response, error) {
		var resp *github.Response
		var err error
		runs, resp, err = c.gh.Actions.ListWorkflowRunsByFileName(ctx, c.org, repo, c.workflow,
			&github.ListWorkflowRunsOptions{Event: "workflow_dispatch", ListOptions: github.ListOptions{PerPage: 30}})
		return resp, err
	})
	if err != nil {
		return Run{}, false, err
	}
	for _, w := range runs.WorkflowRuns {
		if strings.Contains(w.GetDisplayTitle(), correlationID) {
			return runOf(w), true, nil
		}
	}
	return Run{}, false, nil
}

// Run reads one workflow run.
func (c *Client) Run(ctx context.Context, repo string, id int64) (Run, error) {
	var w *github.WorkflowRun
	err := c.do(ctx, func() (*github.Response, error) {
		var resp *github.Response
		var err error
		w, resp, err = c.gh.Actions.GetWorkflowRunByID(ctx, c.org, repo, id)
		return resp, err
	})
	if err != nil {
		return Run{}, err
	}
	return runOf(w), nil
}

// FailedStep names the first failed step of a run's jobs ("job / step"),
// or "" when none is marked failed.
func (c *Client) FailedStep(ctx context.Context, repo string, id int64) (string, error) {
	var jobs *github.Jobs
	err := c.do(ctx, func() (*github.Response, error) {
		var resp *github.Response
		var err error
		jobs, resp, err = c.gh.Actions.ListWorkflowJobs(ctx, c.org, repo, id, &github.ListWorkflowJobsOptions{})
		return resp, err
	})
	if err != nil {
		return "", err
	}
	for _, j := range jobs.Jobs {
		for _, s := range j.Steps {
			if s.GetConclusion() == "failure" {
				return j.GetName() + " / " + s.GetName(), nil
			}
		}
	}
	return "", nil
}

// RecentRuns lists up to n of the repository's most recent Actions runs,
// newest first.
func (c *Client) RecentRuns(ctx context.Context, repo string, n int) ([]Run, error) {
	var runs *github.WorkflowRuns
	err := c.do(ctx, func() (*github.Response, error) {
		var resp *github.Response
		var err error
		runs, resp, err = c.gh.Actions.ListRepositoryWorkflowRuns(ctx, c.org, repo,
			&github.ListWorkflowRunsOptions{ListOptions: github.ListOptions{PerPage: n}})
		return resp, err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Run, 0, len(runs.WorkflowRuns))
	for _, w := range runs.WorkflowRuns {
		out = append(out, runOf(w))
	}
	return out, nil
}
