package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	temporalclient "go.temporal.io/sdk/client"

	"hackdesk/api"
	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

// hiringFinalizationView is GET /api/applications/hiring/finalization.
type hiringFinalizationView struct {
	WorkflowID *string `json:"workflow_id"`
	Status     string  `json:"status"`
	Progress   *struct {
		Step     *string `json:"step"`
		Hires    int     `json:"hires"`
		Promoted int     `json:"promoted"`
		Previous int     `json:"previous"`
		Welcomed int     `json:"welcomed"`
	} `json:"progress"`
	RunURL *string `json:"run_url"`
}

// hiringBoardView is GET /api/applications/hiring with the statuses each
// selection may move to.
type hiringBoardView struct {
	Applicants []struct {
		Email      string `json:"email"`
		Selections []struct {
			ID              uuid.UUID `json:"id"`
			Status          string    `json:"status"`
			AllowedStatuses []string  `json:"allowed_statuses"`
		} `json:"selections"`
	} `json:"applicants"`
}

// allowedOn is the allowed_statuses of selection sel on the board.
func allowedOn(t *testing.T, c *client, sel uuid.UUID) []string {
	t.Helper()
	var board hiringBoardView
	c.expect(http.StatusOK, "GET", "/api/applications/hiring", nil).JSON(t, &board)
	for _, a := range board.Applicants {
		for _, s := range a.Selections {
			if s.ID == sel {
				return s.AllowedStatuses
			}
		}
	}
	t.Fatalf("selection %s is not on the board", sel)
	return nil
}

// TestHiringFinalizationStatus follows a term's finalization through GET
// /api/hiring-finalizations/{term_id} and the President-only
// /api/applications/hiring/finalization: none before the finalize request,
// running with empty progress while only queued, the steps as the run
// marks them, completed with the recorded result and its Temporal UI link
// after, still readable by the President it demoted and by nobody else
// who did not request it; the board's allowed_statuses follow the status
// machine; Temporal out of reach is a 503 for a run not recorded, none for
// a completed one.
func TestHiringFinalizationStatus(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ctx := context.Background()
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	oldTerm := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	newTerm := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
	pres := as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "Board", &oldTerm))
	vp := as(t, a, anon, execAccount(t, a, "vp@example.com", "admin", "VP", "Tech", &oldTerm))
	dev := hiringPosition(t, pres, newTerm, "Developer", "Tech", "exec")
	sel := applyFor(t, a, anon, account(t, a, "ann@example.com", "Ann", "member"), dev)[dev]
	path := "/api/applications/hiring/finalization"

	// Before finalizing: none.
	var view hiringFinalizationView
	pres.expect(http.StatusOK, "GET", path, nil).JSON(t, &view)
	if view.Status != "none" || view.WorkflowID != nil || view.Progress != nil || view.RunURL != nil {
		t.Fatalf("before finalizing: %+v", view)
	}
	vp.expect(http.StatusForbidden, "GET", path, nil)
	anon.expect(http.StatusUnauthorized, "GET", path, nil)
	pres.expect(http.StatusBadRequest, "GET", path+"?term_id=nope", nil)
	pres.expect(http.StatusNotFound, "GET", path+"?term_id="+uuid.NewString(), nil)

	// The board offers the moves CanMove allows, never the status held.
	for _, c := range []struct {
		to   string
		want []string
	}{
		{"", []string{"interviewing", "wanted", "not_wanted", "rejection_sent"}},
		{"wanted", []string{"in_review", "interviewing", "not_wanted", "offer_sent", "rejection_sent"}},
		{"offer_sent", []string{"accepted_offer", "declined_offer"}},
		{"accepted_offer", []string{}},
	} {
		if c.to != "" {
			pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+sel.String(), map[string]any{"status": c.to})
		}
		if got := allowedOn(t, pres, sel); !slices.Equal(got, c.want) {
			t.Errorf("at %q the board allows %v, want %v", c.to, got, c.want)
		}
	}

	// A finalization claimed but still in the outbox (here: its row
	// without a start) is running with empty progress.
	queued := workflows.HiringFinalizationID(oldTerm)
	if _, err := a.Store.Pool().Exec(ctx, `INSERT INTO hiring_finalizations (term_id, workflow_id, all_hands_url)
		VALUES ($1, $2, 'https://cal.example.com/x')`, oldTerm, queued); err != nil {
		t.Fatal(err)
	}
	pres.expect(http.StatusOK, "GET", path+"?term_id="+oldTerm.String(), nil).JSON(t, &view)
	if view.Status != "running" || view.WorkflowID == nil || *view.WorkflowID != queued || view.Progress == nil ||
		view.Progress.Step != nil || view.Progress.Hires != 0 {
		t.Fatalf("queued: %+v", view)
	}

	// GET /api/hiring-finalizations/{term_id}: a President reads any
	// term's (none before it is finalized); nobody else reads one they did
	// not request.
	byTerm := func(term uuid.UUID) string { return "/api/hiring-finalizations/" + term.String() }
	pres.expect(http.StatusOK, "GET", byTerm(newTerm), nil).JSON(t, &view)
	if view.Status != "none" {
		t.Fatalf("by term before finalizing: %+v", view)
	}
	vp.expect(http.StatusForbidden, "GET", byTerm(newTerm), nil)
	vp.expect(http.StatusForbidden, "GET", byTerm(oldTerm), nil)
	anon.expect(http.StatusUnauthorized, "GET", byTerm(newTerm), nil)
	pres.expect(http.StatusBadRequest, "GET", "/api/hiring-finalizations/nope", nil)
	pres.expect(http.StatusNotFound, "GET", byTerm(uuid.New()), nil)

	// Finalized: running, then completed with the result recorded on its
	// row. The President demotes themselves (their role was the old
	// term's) and, a member now, still follows it: they requested it.
	var fin struct {
		WorkflowID string `json:"workflow_id"`
	}
	pres.expect(http.StatusAccepted, "POST", "/api/applications/hiring/finalize",
		map[string]any{"term_id": newTerm, "all_hands_url": "https://cal.example.com/all-hands"}).JSON(t, &fin)
	steps := map[string]bool{}
	testenv.Eventually(t, 60*time.Second, func() (bool, string) {
		view = hiringFinalizationView{}
		pres.expect(http.StatusOK, "GET", byTerm(newTerm), nil).JSON(t, &view)
		if view.Status != "running" && view.Status != "completed" {
			t.Fatalf("after finalizing: %+v", view)
		}
		if view.Progress != nil && view.Progress.Step != nil {
			steps[*view.Progress.Step] = true
		}
		return view.Status == "completed", "the finalization to complete: " + view.Status
	})
	p := view.Progress
	if view.WorkflowID == nil || *view.WorkflowID != fin.WorkflowID || p == nil || p.Step == nil || *p.Step != "done" ||
		p.Promoted != 1 || p.Hires != 1 || p.Previous != 2 || p.Welcomed != 1 {
		t.Fatalf("completed: %+v %+v", view, p)
	}
	for step := range steps {
		if !slices.Contains([]string{"load", "promote", "demote", "welcome", "record", "done"}, step) {
			t.Errorf("the finalization showed the step %q", step)
		}
	}
	var prof struct {
		Role     string `json:"role"`
		ExecRole any    `json:"exec_role"`
	}
	pres.expect(http.StatusOK, "GET", "/api/profile", nil).JSON(t, &prof)
	if prof.ExecRole != nil {
		t.Errorf("the President who finalized still holds %+v", prof.ExecRole)
	}
	sessionBound()                                      // the demotion was the worker's: this process honours it within the session cache's bound
	pres.expect(http.StatusForbidden, "GET", path, nil) // a member now
	vp.expect(http.StatusForbidden, "GET", byTerm(newTerm), nil)
	var viaPath hiringFinalizationView
	super.expect(http.StatusOK, "GET", path, nil).JSON(t, &viaPath)
	if viaPath.Status != "completed" || viaPath.Progress == nil || viaPath.Progress.Promoted != p.Promoted ||
		viaPath.Progress.Previous != p.Previous || viaPath.Progress.Welcomed != p.Welcomed {
		t.Errorf("the President-only route answers %+v %+v", viaPath, viaPath.Progress)
	}
	desc, err := a.Temporal.DescribeWorkflowExecution(ctx, fin.WorkflowID, "")
	if err != nil {
		t.Fatal(err)
	}
	want := a.Config.RunURL(fin.WorkflowID, desc.GetWorkflowExecutionInfo().GetExecution().GetRunId())
	if want == "" || view.RunURL == nil || *view.RunURL != want {
		t.Errorf("run_url %v, want %q", view.RunURL, want)
	}

	// Temporal out of reach: 503 with Retry-After (the same database and
	// session, served with a client of a server that is not there).
	dead, err := temporalclient.NewLazyClient(temporalclient.Options{HostPort: "127.0.0.1:1", Namespace: a.Config.TemporalNamespace})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dead.Close)
	down := httptest.NewServer(api.New(api.Deps{Config: a.Config, Store: a.Store, Temporal: dead, Logger: testenv.Logger(t)}))
	t.Cleanup(down.Close)
	cut := &client{t: t, base: down.URL, token: super.token}
	r := cut.expect(http.StatusServiceUnavailable, "GET", path+"?term_id="+oldTerm.String(), nil)
	if e, _ := errorOf(t, r); e != "Service unavailable" || r.Header.Get("Retry-After") == "" {
		t.Errorf("Temporal down: %s %v", r.Body, r.Header)
	}
	// A completed finalization is read from its row: no Temporal needed.
	cut.expect(http.StatusOK, "GET", byTerm(newTerm), nil).JSON(t, &view)
	if view.Status != "completed" || view.Progress == nil || view.Progress.Promoted != 1 || view.RunURL == nil || *view.RunURL != want {
		t.Errorf("completed, Temporal down: %+v", view)
	}
	// A term with no finalization to follow needs no Temporal.
	later := hiringTermVia(t, super, "2027-2028", "2027-09-01", "2028-08-31", false)
	cut.expect(http.StatusOK, "GET", path+"?term_id="+later.String(), nil).JSON(t, &view)
	if view.Status != "none" {
		t.Errorf("a term not finalized, Temporal down: %+v", view)
	}
}
