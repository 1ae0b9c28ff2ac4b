package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// The upgrade scenario: a release rolled out, rolled back and rolled out
// again under Worker Versioning, between an earlier commit's build and
// this tree's, as docs/operations.md ("Releases") tells an operator to.

// build is a hackdesk binary and its build id.
type build struct {
	bin, id, commit string
}

// buildEarlier builds commit (a git revision of the repository) as a git
// worktree in a temporary directory under the suite's data, stamped with
// its revision as `make build` does, and removes the worktree.
func (s *Suite) buildEarlier(ctx context.Context, commit string) (build, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", s.root, "rev-parse", "--short=12", commit+"^{commit}").Output()
	if err != nil {
		return build{}, fmt.Errorf("git rev-parse %s: %w", commit, err)
	}
	rev := strings.TrimSpace(string(out))
	src := filepath.Join(s.dataDir, "build-"+rev)
	if out, err := exec.CommandContext(ctx, "git", "-C", s.root, "worktree", "add", "--detach", src, rev).CombinedOutput(); err != nil {
		return build{}, fmt.Errorf("git worktree add %s: %w: %s", rev, err, out)
	}
	defer func() {
		_ = exec.Command("git", "-C", s.root, "worktree", "remove", "--force", src).Run()
	}()
	bin := filepath.Join(s.dataDir, "hackdesk-"+rev)
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X hackdesk/internal/platform/version.Revision="+rev, "-o", bin, "./cmd/hackdesk")
	cmd.Dir = src
	cmd.Env = os.Environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		return build{}, fmt.Errorf("build %s: %w: %s", rev, err, clip(out))
	}
	return build{bin: bin, id: rev, commit: commit}, nil
}

// thisBuild is bin/hackdesk (make build) and its build id.
func (s *Suite) thisBuild(ctx context.Context) (build, error) {
	out, err := exec.CommandContext(ctx, s.hackdesk(), "version").Output()
	if err != nil {
		return build{}, fmt.Errorf("%s version: %w", s.hackdesk(), err)
	}
	return build{bin: s.hackdesk(), id: strings.TrimSpace(string(out)), commit: "the working tree"}, nil
}

// current is the current version's build id of the env's deployment ("":
// unversioned workers; none when the deployment does not exist).
func (s *Suite) current(ctx context.Context, e *Env) (string, bool, error) {
	d, err := s.Temporal.WorkerDeploymentClient().GetHandle(e.TaskQueue).Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if v := d.Info.RoutingConfig.CurrentVersion; v != nil {
		return v.BuildID, true, nil
	}
	return "", true, nil
}

// setCurrent runs the operator's command: `temporal worker deployment
// set-current-version` (with --unversioned for an unversioned build).
// A version's registration reaches the server a moment after its
// workers start: the command is tried again for up to 30 s.
func (s *Suite) setCurrent(ctx context.Context, e *Env, b build, versioned bool) error {
	args := []string{"worker", "deployment", "set-current-version", "--address", s.temporal.Address,
		"--deployment-name", e.TaskQueue, "--yes"}
	if versioned {
		args = append(args, "--build-id", b.id)
	} else {
		args = append(args, "--unversioned")
	}
	var out []byte
	err := poll(ctx, 30*time.Second, func() (bool, error) {
		var err error
		out, err = exec.CommandContext(ctx, filepath.Join(s.binDir, "temporal"), args...).CombinedOutput()
		return err == nil, nil
	})
	if err != nil {
		return fmt.Errorf("temporal %s: %s", strings.Join(args, " "), clip(out))
	}
	return nil
}

// ramp runs `temporal worker deployment set-ramping-version`.
func (s *Suite) ramp(ctx context.Context, e *Env, b build, percent int) error {
	args := []string{"worker", "deployment", "set-ramping-version", "--address", s.temporal.Address,
		"--deployment-name", e.TaskQueue, "--build-id", b.id, "--percentage", fmt.Sprint(percent), "--yes"}
	var out []byte
	err := poll(ctx, 30*time.Second, func() (bool, error) {
		var err error
		out, err = exec.CommandContext(ctx, filepath.Join(s.binDir, "temporal"), args...).CombinedOutput()
		return err == nil, nil
	})
	if err != nil {
		return fmt.Errorf("temporal %s: %s", strings.Join(args, " "), clip(out))
	}
	return nil
}

// runOn is the build a workflow's latest run is on (its last task's), ""
// for an unversioned run.
func (s *Suite) runOn(ctx context.Context, id string) (string, error) {
	d, err := s.Temporal.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return "", err
	}
	return d.GetWorkflowExecutionInfo().GetVersioningInfo().GetDeploymentVersion().GetBuildId(), nil
}

// failedTasks counts the WorkflowTaskFailed events in the histories of
// ids (every run of each), with the first few messages.
func (s *Suite) failedTasks(ctx context.Context, ids []string) (int, []string, error) {
	n := 0
	var msgs []string
	for _, id := range ids {
		resp, err := s.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: fmt.Sprintf("WorkflowId = '%s'", id)})
		if err != nil {
			return 0, nil, err
		}
		for _, ex := range resp.GetExecutions() {
			it := s.Temporal.GetWorkflowHistory(ctx, id, ex.GetExecution().GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				ev, err := it.Next()
				if err != nil {
					return 0, nil, err
				}
				if f := ev.GetWorkflowTaskFailedEventAttributes(); f != nil {
					n++
					if len(msgs) < 3 {
						msgs = append(msgs, id+": "+clip([]byte(f.GetFailure().GetMessage())))
					}
				}
			}
		}
	}
	return n, msgs, nil
}

// upgradeFrom is the commit the upgrade scenario builds as the earlier
// release (the -upgrade-from flag, else RELIABILITY_UPGRADE_FROM, else
// HEAD~1).
var upgradeFrom = "HEAD~1"

// scenarioUpgrade builds an earlier commit (upgradeFrom) and runs it as
// the release in production: its API and worker, with workflows of every
// kind in flight, pinned ones that outlast the roll-out among them (a
// resume clean-up waiting out its grace) and auto-upgrade ones (an RSVP
// deadline, a term's windows). Then this tree rolls out: its worker
// starts beside the old one, is ramped to half the new runs, made current
// with the CLI, and its API replaces the old; it is rolled back (the old
// build current again, the old API back, the new worker left running for
// the runs pinned to it) and rolled out again, with new runs started at
// each step. Every workflow must complete, no workflow task may fail,
// pinned runs end on the build that started them and auto-upgrade runs on
// the build current at the end, and every email goes out once. An
// earlier build without Worker Versioning is the first deploy of it: its
// workers are unversioned, this tree's worker makes itself current at
// start, and rolling back sets unversioned workers current.
func scenarioUpgrade(ctx context.Context, s *Suite, r *Result) error {
	e, err := s.NewEnv(ctx, "upgrade")
	if err != nil {
		return err
	}
	defer e.Close()
	// A resume's clean-up (pinned) waits out its grace, which the API
	// puts in its input: the earlier build's outlast the roll-out, roll-back
	// and roll-out again; this tree's end while rolled back.
	e.extraEnv = []string{"RESUME_CLEANUP_GRACE=90s"}
	e.Step("building %s", upgradeFrom)
	old, err := s.buildEarlier(ctx, upgradeFrom)
	if err != nil {
		return err
	}
	cur, err := s.thisBuild(ctx)
	if err != nil {
		return err
	}
	if old.id == cur.id {
		return fmt.Errorf("%s and the working tree have the same build id %s", upgradeFrom, old.id)
	}
	e.Step("built %s (%s); this tree is %s", old.id, upgradeFrom, cur.id)

	api, err := e.StartAPIBin(ctx, old.bin)
	if err != nil {
		return err
	}
	if _, err := e.StartWorkerBin(ctx, old.bin); err != nil {
		return err
	}
	oldCurrent, exists, err := s.current(ctx, e)
	if err != nil {
		return err
	}
	versioned := exists && oldCurrent == old.id
	st, err := newStaff(ctx, e, api.URL)
	if err != nil {
		return err
	}
	oldName := old.id
	if !versioned {
		oldName = "unversioned"
	}
	r.Injected = fmt.Sprintf("%s built from %s (%s) serving with workflows in flight; this tree (%s) rolled out (its worker beside the old, ramped to 50%%, "+
		"made current with `temporal worker deployment set-current-version`, its API replacing the old), rolled back (%s current again, the old API back), "+
		"rolled out again; sign-ups, resume replacements and launches at each step", old.id, upgradeFrom, oldName, cur.id, oldName)
	if !versioned {
		r.Injected = strings.Replace(r.Injected, "ramped to 50%, made current with `temporal worker deployment set-current-version`",
			"made current by itself at start: the first deploy of Worker Versioning", 1)
	}

	signups := 0
	signupAll := func(n int, phase string) error {
		for i := 0; i < n; i++ {
			signups++
			resp, err := signup(ctx, api.URL, fmt.Sprintf("%s-%d-%s@example.com", phase, i, randomHex(2)), fmt.Sprintf("10.9.%d.%d", signups/200, signups%200+1))
			r.Answers.Add(resp.Status, err)
			if err != nil {
				return err
			}
		}
		return nil
	}
	replaceResume := func() error {
		c, _, err := applicant(ctx, e, api.URL)
		if err != nil {
			return err
		}
		if err := uploadResume(ctx, c, "first.pdf"); err != nil {
			return err
		}
		return uploadResume(ctx, c, "second.pdf")
	}
	cleanups := func() ([]string, error) {
		var ids []string
		rows, err := e.Store.Pool().Query(ctx, `SELECT workflow_id FROM workflow_starts WHERE type = 'ResumeCleanup' ORDER BY id`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		return ids, rows.Err()
	}

	// The earlier release at work: every kind in flight.
	e.Step("workflows on %s", oldName)
	offered, err := submittedApplications(ctx, e, 2, "upgrade")
	if err != nil {
		return err
	}
	batch, resp, err := offer(ctx, st.admin, offered, time.Now().Add(150*time.Second))
	r.Answers.Add(resp.Status, err)
	if err != nil || batch == uuid.Nil {
		return fmt.Errorf("offer: %v %s", err, clip(resp.Body))
	}
	if _, err := termWithWindows(ctx, st.super, time.Now().Add(120*time.Second)); err != nil {
		return err
	}
	if err := signupAll(3, "old"); err != nil {
		return err
	}
	if err := replaceResume(); err != nil {
		return err
	}
	if _, err := launchProject(ctx, st.admin); err != nil {
		return err
	}
	if err := e.WaitStarted(ctx, 30*time.Second); err != nil {
		return err
	}
	oldCleanups, err := cleanups()
	if err != nil {
		return err
	}

	// Roll out: the new worker beside the old, ramped, then current; the
	// new API replaces the old.
	e.Step("rolling out %s", cur.id)
	if _, err := e.StartWorkerBin(ctx, cur.bin); err != nil {
		return err
	}
	if versioned {
		if err := s.ramp(ctx, e, cur, 50); err != nil {
			return err
		}
		if err := signupAll(4, "ramp"); err != nil {
			return err
		}
		if err := s.setCurrent(ctx, e, cur, true); err != nil {
			return err
		}
	}
	now, _, err := s.current(ctx, e)
	if err != nil {
		return err
	}
	r.Check(now == cur.id, "rolled out: this tree's build current", "current %s", orDefault(now, "unversioned"))
	e.extraEnv = []string{"RESUME_CLEANUP_GRACE=20s"}
	newAPI, err := e.StartAPIBin(ctx, cur.bin)
	if err != nil {
		return err
	}
	api.Stop()
	api = newAPI
	st.admin.Base, st.super.Base = api.URL, api.URL
	if err := signupAll(3, "new"); err != nil {
		return err
	}
	if err := replaceResume(); err != nil {
		return err
	}
	newLaunch, err := launchProject(ctx, st.admin)
	if err != nil {
		return err
	}
	if err := e.WaitStarted(ctx, 30*time.Second); err != nil {
		return err
	}
	all, err := cleanups()
	if err != nil {
		return err
	}
	newCleanups := all[len(oldCleanups):]

	// Roll back: the earlier build current again (its workers never
	// stopped), its API back; the new workers keep running for the runs
	// pinned to them.
	e.Step("rolling back to %s", oldName)
	if err := s.setCurrent(ctx, e, old, versioned); err != nil {
		return err
	}
	oldAPI, err := e.StartAPIBin(ctx, old.bin)
	if err != nil {
		return err
	}
	api.Stop()
	api = oldAPI
	st.admin.Base, st.super.Base = api.URL, api.URL
	if err := signupAll(3, "back"); err != nil {
		return err
	}
	backLaunch, err := launchProject(ctx, st.admin)
	if err != nil {
		return err
	}
	if err := e.WaitStarted(ctx, 30*time.Second); err != nil {
		return err
	}
	// This tree's clean-ups end now, on this tree's workers, though the
	// earlier build is current.
	e.Step("waiting for this tree's pinned clean-ups while rolled back")
	if c, err := s.WaitClosed(ctx, newCleanups, time.Minute); err != nil || len(c.Bad) > 0 {
		return fmt.Errorf("this tree's clean-ups while rolled back: %s %v", c, err)
	}

	// Roll out again.
	e.Step("rolling out %s again", cur.id)
	if err := s.setCurrent(ctx, e, cur, true); err != nil {
		return err
	}
	againAPI, err := e.StartAPIBin(ctx, cur.bin)
	if err != nil {
		return err
	}
	api.Stop()
	api = againAPI
	st.admin.Base, st.super.Base = api.URL, api.URL
	if err := signupAll(3, "again"); err != nil {
		return err
	}

	e.Step("waiting for every workflow (the RSVP deadline and the earlier build's clean-ups end after 90 to 150 s)")
	if err := checkAllCompleted(ctx, s, e, r, 4*time.Minute); err != nil {
		return err
	}
	ids, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	n, msgs, err := s.failedTasks(ctx, ids)
	if err != nil {
		return err
	}
	r.Check(n == 0, "no workflow task failed", "%d failed tasks in %d workflows' histories %s", n, len(ids), strings.Join(msgs, "; "))

	// Where the runs ended.
	var wrong []string
	expect := func(id, want, why string) {
		got, err := s.runOn(ctx, id)
		if err != nil || got != want {
			wrong = append(wrong, fmt.Sprintf("%s (%s) ended on %q, want %q %v", kindOf(id), why, got, want, err))
		}
	}
	for _, id := range newCleanups {
		expect(id, cur.id, "pinned, started on the new build, ended while rolled back")
	}
	expect(newLaunch, cur.id, "pinned, started after the roll-out")
	if versioned {
		for _, id := range oldCleanups {
			expect(id, old.id, "pinned, started on the earlier build, ended after the last roll-out")
		}
		expect(backLaunch, old.id, "pinned, started after the roll-back")
	}
	expect("rsvp-deadline:"+batch.String(), cur.id, "auto-upgrade, current build at its deadline")
	sort.Strings(wrong)
	earlier := fmt.Sprintf("the earlier build's %d resume clean-ups ended on %s after the last roll-out", len(oldCleanups), oldName)
	if !versioned {
		earlier = fmt.Sprintf("the earlier build's %d resume clean-ups, unversioned, moved to the current build", len(oldCleanups))
	}
	r.Check(len(wrong) == 0, "pinned runs ended on the build that started them, auto-upgrade runs on the current one",
		"%s", orDefault(strings.Join(wrong, "; "), fmt.Sprintf("%s, this tree's %d on %s while rolled back; "+
			"launches on the build current when they started; the RSVP deadline (started on %s) on %s",
			earlier, len(newCleanups), cur.id, oldName, cur.id)))
	mails, err := e.Emails(ctx)
	if err != nil {
		return err
	}
	r.Check(mails.OK(), "every email sent exactly once", "%s", mails)
	return nil
}
