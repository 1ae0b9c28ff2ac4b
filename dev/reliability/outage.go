package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"hackdesk/activities"
)

// scenarioOutage: PostgreSQL becomes unreachable for 10 s while a hiring
// finalization runs. The workflow must complete after recovery, with each
// welcome email sent exactly once.
func scenarioOutage(ctx context.Context, s *Suite, r *Result) error {
	se, err := s.newStaffedEnv(ctx, "outage")
	if err != nil {
		return err
	}
	defer se.Close()
	e, api, st := se.Env, se.api, se.staff
	const hires = 4
	h, err := setupHiring(ctx, e, api.URL, st, hires)
	if err != nil {
		return err
	}
	if err := e.WaitEmailsSettled(ctx, time.Minute); err != nil {
		return fmt.Errorf("offer emails: %w", err)
	}

	e.Step("hiring round ready; cutting the database")
	// The worker loses the database first, so the outage is sure to fall
	// inside the run; the API loses it as soon as it has started the
	// workflow.
	if err := s.SetEnabled(false, pgWorker); err != nil {
		return err
	}
	id, err := h.finalize(ctx)
	if err != nil {
		return err
	}
	if err := poll(ctx, 30*time.Second, func() (bool, error) {
		n, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND started_at IS NOT NULL`, id)
		return n == 1, err
	}); err != nil {
		return fmt.Errorf("the finalization was not dispatched: %w", err)
	}
	if err := s.SetEnabled(false, pgAPI); err != nil {
		return err
	}
	down := time.Now()
	anon := Client{Base: api.URL, IP: "198.51.100.30"}
	for time.Since(down) < 10*time.Second {
		for _, req := range []struct {
			method, path string
			body         any
		}{
			{http.MethodGet, "/readyz", nil},
			{http.MethodPost, "/api/auth/login", map[string]string{"email": h.hires[0], "password": "password-" + h.hires[0]}},
			{http.MethodGet, "/api/applications/hiring/team", nil},
		} {
			c := anon
			if req.path == "/api/applications/hiring/team" {
				c = h.pres
			}
			resp, err := c.Do(ctx, req.method, req.path, req.body)
			r.Answers.Add(resp.Status, err)
		}
		time.Sleep(time.Second)
	}
	if err := s.SetEnabled(true, pgAPI, pgWorker); err != nil {
		return err
	}
	back := time.Now()
	r.Injected = fmt.Sprintf("PostgreSQL unreachable (toxiproxy proxies disabled) for %s: the worker's connections from just before "+
		"the finalize request, the API's from the moment its workflow started; readyz, login and the team page probed each second",
		back.Sub(down).Round(100*time.Millisecond))
	r.Check(r.Answers.Others(func(s int) bool { return s >= 500 }) == 0, "every answer during the outage 5xx",
		"%d of %d otherwise", r.Answers.Others(func(s int) bool { return s >= 500 }), r.Answers.Total())

	e.Step("database back; waiting for the finalization")
	var res activities.FinalizationResult
	wctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	err = s.Temporal.GetWorkflow(wctx, id, "").Get(wctx, &res)
	cancel()
	r.Check(err == nil && res.Promoted == hires && res.Welcomed == hires, "the finalization completed after recovery",
		"%s after the database came back: promoted %d, welcomed %d of %d%s", time.Since(back).Round(100*time.Millisecond),
		res.Promoted, res.Welcomed, hires, errNote(err))
	attempt, activity, err := s.MaxAttempt(ctx, id)
	if err != nil {
		return err
	}
	r.Check(attempt > 1, "the outage hit the run", "%s succeeded on attempt %d", activity, attempt)

	if err := e.WaitEmailsSettled(ctx, time.Minute); err != nil {
		return fmt.Errorf("welcome emails: %w", err)
	}
	welcome, err := e.Emails(ctx, "exec_welcome")
	if err != nil {
		return err
	}
	r.Check(welcome.Rows == hires && welcome.OK(), "each welcome email sent exactly once", "%s", welcome)
	ids, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	closed, err := s.WaitClosed(ctx, ids, time.Minute)
	if err != nil {
		return err
	}
	r.Check(len(closed.Bad) == 0, "every workflow completed", "%s", closed)
	all, err := e.Emails(ctx)
	if err != nil {
		return err
	}
	r.Check(all.OK(), "every email sent exactly once", "%s", all)
	return nil
}
