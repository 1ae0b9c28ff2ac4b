package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"

	"hackdesk/activities"
	"hackdesk/workflows"
)

// killKinds are the workflow kinds the worker is killed inside.
var killKinds = []string{"SendEmail", "HiringFinalization", "RsvpDeadline", "ResumeCleanup", "FoundryLaunch", "TermWindow"}

// scenarioWorkerKill starts one workflow of every kind while the worker's
// database is frozen (toxiproxy `timeout`: its statements hang), waits
// until each has an activity running on the worker, SIGKILLs the worker,
// lets the database through again and starts a new worker. Every workflow
// must complete, with no email delivered twice. Freezing first means no
// email can be between its claim and its "sent" mark at the kill, the one
// window in which the email activity refuses to resend (it cannot know
// whether the message left).
func scenarioWorkerKill(ctx context.Context, s *Suite, r *Result) error {
	se, err := s.newStaffedEnv(ctx, "workerkill")
	if err != nil {
		return err
	}
	defer se.Close()
	e, api, w1, st := se.Env, se.api, se.worker, se.staff
	h, err := setupHiring(ctx, e, api.URL, st, 2)
	if err != nil {
		return err
	}
	offered, err := submittedApplications(ctx, e, 2, "rsvp")
	if err != nil {
		return err
	}
	resumer, _, err := applicant(ctx, e, api.URL)
	if err != nil {
		return err
	}
	if err := uploadResume(ctx, resumer, "first.pdf"); err != nil {
		return err
	}
	// Everything so far settles before the freeze.
	if err := e.WaitEmailsSettled(ctx, time.Minute); err != nil {
		return err
	}
	before, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	if c, err := s.WaitClosed(ctx, before, 30*time.Second); err != nil || len(c.Bad) > 0 {
		return fmt.Errorf("the setup's workflows did not complete: %s %v", c, err)
	}

	e.Step("setup settled; freezing the worker's database and starting one workflow of each kind")
	if err := s.Toxic(pgWorker, "freeze", "timeout", toxiproxy.Attributes{"timeout": 0}); err != nil {
		return err
	}
	triggers := []func() error{
		func() error {
			resp, err := signup(ctx, api.URL, "killed-"+randomHex(3)+"@example.com", "203.0.113.40")
			if err == nil && resp.Status != http.StatusCreated {
				err = fmt.Errorf("sign-up = %d %s", resp.Status, clip(resp.Body))
			}
			return err
		},
		func() error { _, err := h.finalize(ctx); return err },
		func() error {
			_, resp, err := offer(ctx, st.admin, offered, time.Now().Add(30*time.Second))
			if err == nil && resp.Status != http.StatusOK {
				err = fmt.Errorf("offer = %d %s", resp.Status, clip(resp.Body))
			}
			return err
		},
		func() error { return uploadResume(ctx, resumer, "second.pdf") },
		func() error { _, err := launchProject(ctx, st.admin); return err },
		func() error { _, err := termWithWindows(ctx, st.super, time.Now().Add(25*time.Second)); return err },
	}
	for _, t := range triggers {
		if err := t(); err != nil {
			return err
		}
	}
	if err := e.WaitStarted(ctx, 30*time.Second); err != nil {
		return err
	}
	all, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	var started []string
	for _, id := range all {
		if !slices.Contains(before, id) {
			started = append(started, id)
		}
	}
	// Wait until every kind has an activity running on the doomed worker.
	inside := map[string]string{}
	_ = poll(ctx, 20*time.Second, func() (bool, error) {
		for _, id := range started {
			acts, err := s.PendingActivities(ctx, id)
			if err == nil && len(acts) > 0 {
				inside[kindOf(id)] = acts[0]
			}
		}
		return len(inside) == len(killKinds), nil
	})
	sending, err := e.Count(ctx, `SELECT count(*) FROM emails WHERE status = 'sending'`)
	if err != nil {
		return err
	}
	w1.Kill()
	killed := time.Now()
	if err := s.Untoxic(pgWorker, "freeze"); err != nil {
		return err
	}
	if _, err := e.StartWorker(ctx); err != nil {
		return err
	}
	var where []string
	for _, k := range killKinds {
		if a, ok := inside[k]; ok {
			where = append(where, k+" in "+a)
		}
	}
	r.Injected = "worker SIGKILLed with its PostgreSQL frozen (toxiproxy `timeout`), each workflow inside an activity: " +
		strings.Join(where, ", ") + "; a new worker started"
	r.Check(len(inside) == len(killKinds), "killed inside every kind", "%d of %d kinds had an activity running", len(inside), len(killKinds))
	r.Check(sending == 0, "no email mid-delivery at the kill", "%d emails claimed", sending)

	e.Step("worker killed inside %d kinds; waiting for every workflow", len(inside))
	// The killed attempts time out (30 s for database activities, 60 s
	// for provider calls) and run again on the new worker.
	closed, err := s.WaitClosed(ctx, started, 150*time.Second)
	if err != nil {
		return err
	}
	if err := e.WaitEmailsSettled(ctx, time.Minute); err != nil {
		return err
	}
	all, err = e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	closedAll, err := s.WaitClosed(ctx, all, time.Minute)
	if err != nil {
		return err
	}
	r.Check(len(closed.Bad) == 0 && len(closedAll.Bad) == 0, "every workflow completed",
		"%s, %s after the kill", closedAll, time.Since(killed).Round(time.Second))
	outcome := kindOutcomes(ctx, s, started)
	r.Check(outcome == "", "each did its work once", "%s", orDefault(outcome, "hiring promoted 2, RSVP expired 2, old resume deleted, project succeeded, both windows closed"))
	mails, err := e.Emails(ctx)
	if err != nil {
		return err
	}
	r.Check(mails.OK(), "no email twice", "%s", mails)
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// kindOutcomes reads each workflow's result and says what is wrong with
// it ("" when every result is what its kind should have done).
func kindOutcomes(ctx context.Context, s *Suite, ids []string) string {
	var bad []string
	for _, id := range ids {
		run := s.Temporal.GetWorkflow(ctx, id, "")
		switch kindOf(id) {
		case "HiringFinalization":
			var res activities.FinalizationResult
			if err := run.Get(ctx, &res); err != nil || res.Promoted != 2 || res.Welcomed != 2 {
				bad = append(bad, fmt.Sprintf("hiring %+v %v", res, err))
			}
		case "RsvpDeadline":
			var res workflows.RsvpDeadlineResult
			if err := run.Get(ctx, &res); err != nil || res.Offered != 2 || res.Expired != 2 {
				bad = append(bad, fmt.Sprintf("rsvp %+v %v", res, err))
			}
		case "ResumeCleanup":
			var res workflows.ResumeCleanupResult
			if err := run.Get(ctx, &res); err != nil || !res.Deleted {
				bad = append(bad, fmt.Sprintf("resume %+v %v", res, err))
			}
		case "FoundryLaunch":
			var res workflows.FoundryLaunchResult
			if err := run.Get(ctx, &res); err != nil || res.Status != "succeeded" {
				bad = append(bad, fmt.Sprintf("foundry %+v %v", res, err))
			}
		case "TermWindow":
			var res workflows.TermWindowResult
			if err := run.Get(ctx, &res); err != nil || len(res.Closed) != 2 {
				bad = append(bad, fmt.Sprintf("term window %+v %v", res, err))
			}
		}
	}
	sort.Strings(bad)
	return strings.Join(bad, "; ")
}

// scenarioTemporalKill: workflows of several kinds are started, then the
// Temporal dev server is SIGKILLed and restarted on its SQLite file three
// seconds later. Every workflow must complete; every start the outbox had
// recorded must still be the same run.
func scenarioTemporalKill(ctx context.Context, s *Suite, r *Result) error {
	se, err := s.newStaffedEnv(ctx, "temporalkill")
	if err != nil {
		return err
	}
	defer se.Close()
	e, api, st := se.Env, se.api, se.staff
	offered, err := submittedApplications(ctx, e, 3, "tk")
	if err != nil {
		return err
	}
	for i := 0; i < 6; i++ {
		resp, err := signup(ctx, api.URL, fmt.Sprintf("tk-%d-%s@example.com", i, randomHex(2)), fmt.Sprintf("203.0.113.%d", 60+i))
		if err != nil || resp.Status != http.StatusCreated {
			return fmt.Errorf("sign-up: %d %v", resp.Status, err)
		}
	}
	if _, resp, err := offer(ctx, st.admin, offered, time.Now().Add(20*time.Second)); err != nil || resp.Status != http.StatusOK {
		return fmt.Errorf("offer: %d %v", resp.Status, err)
	}
	if _, err := termWithWindows(ctx, st.super, time.Now().Add(20*time.Second)); err != nil {
		return err
	}
	if _, err := launchProject(ctx, st.admin); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond)
	acked, err := e.WorkflowStarts(ctx)
	if err != nil {
		return err
	}
	e.Step("killing Temporal")
	if err := s.KillTemporal(); err != nil {
		return err
	}
	down := time.Now()
	// While Temporal is down, requests that queue workflows still succeed
	// (the outbox holds them); readiness says 503.
	for i := 0; i < 2; i++ {
		resp, err := signup(ctx, api.URL, fmt.Sprintf("tk-down-%d-%s@example.com", i, randomHex(2)), fmt.Sprintf("203.0.113.%d", 80+i))
		r.Answers.Add(resp.Status, err)
	}
	ready, err := Client{Base: api.URL}.Do(ctx, http.MethodGet, "/readyz", nil)
	r.Answers.Add(ready.Status, err)
	time.Sleep(3*time.Second - time.Since(down))
	if err := s.RestartTemporal(ctx); err != nil {
		return err
	}
	r.Injected = fmt.Sprintf("Temporal dev server SIGKILLed 0.3 s after 6 sign-ups, an offer batch, a term with windows and a project launch; "+
		"restarted on its SQLite file after %s (2 sign-ups and a readyz meanwhile)", time.Since(down).Round(100*time.Millisecond))
	r.Check(r.Answers.Count(func(s int) bool { return s == http.StatusCreated }) == 2 && ready.Status == http.StatusServiceUnavailable,
		"the API kept queueing while Temporal was down", "sign-ups 201 ×%d, readyz %d",
		r.Answers.Count(func(s int) bool { return s == http.StatusCreated }), ready.Status)

	e.Step("Temporal restarted; waiting for every workflow")
	if err := e.WaitStarted(ctx, time.Minute); err != nil {
		return err
	}
	lost := 0
	var ackedRuns int
	for _, w := range acked {
		if !w.Started {
			continue
		}
		ackedRuns++
		d, err := s.Temporal.DescribeWorkflowExecution(ctx, w.ID, "")
		if err != nil || d.GetWorkflowExecutionInfo().GetExecution().GetRunId() != w.RunID {
			lost++
		}
	}
	r.Check(ackedRuns > 0 && lost == 0, "started runs survived the kill", "%d of %d runs recorded as started before the kill lost", lost, ackedRuns)
	if err := checkAllCompleted(ctx, s, e, r, 90*time.Second); err != nil {
		return err
	}
	mails, err := e.Emails(ctx)
	if err != nil {
		return err
	}
	r.Check(mails.OK(), "every email sent exactly once", "%s", mails)
	return nil
}

// scenarioAPIKill: the API's way to Temporal is frozen (toxiproxy
// `timeout`), so its dispatcher cannot start what requests commit; a batch
// of decisions and sign-ups is answered, then the API is SIGKILLed. Two
// new API processes dispatch the backlog: every workflow starts exactly
// once.
func scenarioAPIKill(ctx context.Context, s *Suite, r *Result) error {
	se, err := s.newStaffedEnv(ctx, "apikill")
	if err != nil {
		return err
	}
	defer se.Close()
	e, api, st := se.Env, se.api, se.staff
	apps, err := submittedApplications(ctx, e, 12, "ak")
	if err != nil {
		return err
	}
	if err := e.WaitEmailsSettled(ctx, 30*time.Second); err != nil {
		return err
	}
	queuedBefore, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts`)
	if err != nil {
		return err
	}
	if err := s.Toxic(temporalAPI, "freeze", "timeout", toxiproxy.Attributes{"timeout": 0}); err != nil {
		return err
	}
	for i, id := range apps {
		_, resp, err := offer(ctx, st.admin, apps[i:i+1], time.Now().Add(time.Hour), "Idempotency-Key", "kill-"+id.String())
		r.Answers.Add(resp.Status, err)
	}
	for i := 0; i < 4; i++ {
		resp, err := signup(ctx, api.URL, fmt.Sprintf("ak-%d-%s@example.com", i, randomHex(2)), fmt.Sprintf("203.0.113.%d", 100+i))
		r.Answers.Add(resp.Status, err)
	}
	pending, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts WHERE started_at IS NULL`)
	if err != nil {
		return err
	}
	e.Step("killing the API with %d starts pending", pending)
	api.Kill()
	if err := s.Untoxic(temporalAPI, "freeze"); err != nil {
		return err
	}
	r.Injected = fmt.Sprintf("the API's Temporal connection frozen (toxiproxy `timeout`), 12 offer decisions and 4 sign-ups answered, "+
		"the API SIGKILLed with %d committed starts undispatched; two new API processes started", pending)
	for i := 0; i < 2; i++ {
		if _, err := e.StartAPI(ctx); err != nil {
			return err
		}
	}
	r.Check(r.Answers.Others(is2xx) == 0, "every request answered 2xx", "%d of %d not", r.Answers.Others(is2xx), r.Answers.Total())
	queued, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts`)
	if err != nil {
		return err
	}
	r.Check(pending == 16 && queued-queuedBefore == 16, "every request queued its start, none dispatched before the kill",
		"%d queued, %d pending at the kill", queued-queuedBefore, pending)
	if err := e.WaitStarted(ctx, time.Minute); err != nil {
		r.Check(false, "every start dispatched after the restart", "%v", err)
		return nil
	}
	rows, err := e.WorkflowStarts(ctx)
	if err != nil {
		return err
	}
	if err := e.WaitEmails(ctx, len(apps)+4, time.Minute); err != nil {
		return err
	}
	ids, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	runs, err := s.Runs(ctx, e, len(ids))
	if err != nil {
		return err
	}
	once, mismatched := 0, 0
	for _, w := range rows {
		if runs[w.ID] == 1 {
			once++
		}
		d, err := s.Temporal.DescribeWorkflowExecution(ctx, w.ID, "")
		if err != nil || d.GetWorkflowExecutionInfo().GetExecution().GetRunId() != w.RunID {
			mismatched++
		}
	}
	r.Check(once == len(rows) && mismatched == 0, "every workflow started exactly once",
		"%d of %d outbox rows with exactly one run, %d whose recorded run is not the workflow's", once, len(rows), mismatched)
	mails, err := e.Emails(ctx)
	if err != nil {
		return err
	}
	offers, err := e.Count(ctx, `SELECT count(*) FROM emails WHERE kind = 'offer'`)
	if err != nil {
		return err
	}
	r.Check(offers == len(apps) && mails.OK(), "every email sent exactly once", "%d offer emails for %d offers; %s", offers, len(apps), mails)
	return nil
}
