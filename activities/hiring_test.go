package activities_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/dev/seed"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// countingSender accepts every message and counts sends per key.
type countingSender struct {
	mu    sync.Mutex
	sends map[string]int
}

func (s *countingSender) Send(_ context.Context, m mail.Message) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sends[m.Key]++
	return "id-" + m.Key, nil
}

// TestHiringFinalizationSurvivesWorkerKill stops the worker while the
// second batch of promotions runs (the first one committed): a fresh
// worker finishes the run with every role right and one welcome email per
// new exec.
func TestHiringFinalizationSurvivesWorkerKill(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	store := testenv.Store(t)
	tc := testenv.Temporal(t, cfg)
	ctx := context.Background()
	const hires, previous = 45, 4
	round, err := seed.SeedHiringRound(ctx, store, "kill", hires, previous)
	if err != nil {
		t.Fatal(err)
	}
	sender := &countingSender{sends: map[string]int{}}
	real := &activities.HiringActivities{Store: store}
	newWorker := func(promote func(context.Context, activities.PromoteHiresInput) (int, error)) sdkworker.Worker {
		w := sdkworker.New(tc, cfg.TaskQueue, sdkworker.Options{WorkerStopTimeout: 300 * time.Millisecond})
		w.RegisterWorkflow(workflows.HiringFinalization)
		w.RegisterWorkflow(workflows.SendEmail)
		w.RegisterActivity(&activities.EmailActivities{Store: store, Mailer: sender, MailFrom: "hackdesk <no-reply@example.com>"})
		w.RegisterActivityWithOptions(real.LoadHiringPlan, activity.RegisterOptions{Name: "LoadHiringPlan"})
		w.RegisterActivityWithOptions(promote, activity.RegisterOptions{Name: "PromoteHires"})
		w.RegisterActivityWithOptions(real.DemotePrevious, activity.RegisterOptions{Name: "DemotePrevious"})
		w.RegisterActivityWithOptions(real.RecordWelcomeEmails, activity.RegisterOptions{Name: "RecordWelcomeEmails"})
		w.RegisterActivityWithOptions(real.RecordFinalization, activity.RegisterOptions{Name: "RecordFinalization"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	// The first worker promotes the first batch, then hangs in the second
	// until it is stopped.
	var calls atomic.Int32
	secondStarted := make(chan struct{})
	w1 := newWorker(func(ctx context.Context, in activities.PromoteHiresInput) (int, error) {
		if calls.Add(1) == 1 {
			return real.PromoteHires(ctx, in)
		}
		close(secondStarted)
		<-ctx.Done()
		return 0, ctx.Err()
	})
	run, err := outbox.Start(ctx, tc, cfg.TaskQueue, workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{
		TermID: round.NewTerm, TermName: "kill new", AllHandsURL: "https://cal.example.com/all-hands",
		OnboardingURL: "https://hackdesk.test/onboarding"}))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-secondStarted:
	case <-time.After(30 * time.Second):
		t.Fatal("the second promotion batch never started")
	}
	w1.Stop()
	var admins int
	if err := store.Pool().QueryRow(ctx, `SELECT count(*) FROM profiles WHERE email LIKE 'kill.hire%' AND role = 'admin'`).Scan(&admins); err != nil {
		t.Fatal(err)
	}
	if admins != workflows.HiringPromoteBatch {
		t.Fatalf("%d hires promoted before the stop, want the first batch (%d)", admins, workflows.HiringPromoteBatch)
	}

	w2 := newWorker(real.PromoteHires)
	defer w2.Stop()
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var res activities.FinalizationResult
	if err := run.Get(wctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Promoted != hires || res.Demoted != previous || res.Welcomed != hires {
		t.Fatalf("result %+v", res)
	}
	// Every hire is an admin with the exec role of their position for the
	// new term; the previous execs' roles ended, the superadmin kept theirs.
	var ok, wrong int
	if err := store.Pool().QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE p.role = 'admin' AND e.term_id = $1
		                         AND e.position = CASE p.email WHEN 'kill.hire1@example.com' THEN 'President'
		                                                       WHEN 'kill.hire2@example.com' THEN 'VP' ELSE 'Exec' END),
		       count(*) FILTER (WHERE e.id IS NULL OR p.role <> 'admin')
		FROM profiles p LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
		WHERE p.email LIKE 'kill.hire%'`, round.NewTerm).Scan(&ok, &wrong); err != nil {
		t.Fatal(err)
	}
	if ok != hires || wrong != 0 {
		t.Fatalf("%d hires right, %d wrong", ok, wrong)
	}
	var members, supers, active int
	if err := store.Pool().QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE p.role = 'member'), count(*) FILTER (WHERE p.role = 'superadmin'),
		       (SELECT count(*) FROM exec_roles e JOIN profiles q ON q.id = e.profile_id
		        WHERE e.active AND q.email LIKE 'kill.prev%')
		FROM profiles p WHERE p.email LIKE 'kill.prev%'`).Scan(&members, &supers, &active); err != nil {
		t.Fatal(err)
	}
	if members != previous-1 || supers != 1 || active != 0 {
		t.Fatalf("previous execs: %d members, %d superadmins, %d active roles", members, supers, active)
	}
	// One welcome email per new exec, each sent once.
	wait := time.Now().Add(30 * time.Second)
	for {
		sender.mu.Lock()
		n := len(sender.sends)
		sender.mu.Unlock()
		if n == hires || time.Now().After(wait) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	sender.mu.Lock()
	defer sender.mu.Unlock()
	if len(sender.sends) != hires {
		t.Fatalf("%d welcome emails sent, want %d", len(sender.sends), hires)
	}
	for k, n := range sender.sends {
		if n != 1 {
			t.Errorf("%s sent %d times", k, n)
		}
	}
}

// TestHiringActivitiesAdapt checks the adapters over package hiring: a
// term that no longer exists fails the plan for good, and an empty
// demotion and a batch of promotions answer as before.
func TestHiringActivitiesAdapt(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	a := &activities.HiringActivities{Store: store}
	if _, err := a.LoadHiringPlan(ctx, activities.HiringPlanInput{TermID: uuid.New()}); errType(err) != activities.ErrTypeTermNotFound {
		t.Fatalf("missing term: %v, want %s", err, activities.ErrTypeTermNotFound)
	}
	round, err := seed.SeedHiringRound(ctx, store, "adapt", 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The finalization's row follows the activities: the step each has
	// started, the plan's size and the hires promoted so far.
	if _, err := store.Pool().Exec(ctx, `INSERT INTO hiring_finalizations (term_id, workflow_id, all_hands_url)
		VALUES ($1, 'hiring-finalize:adapt', 'https://cal.test/x')`, round.NewTerm); err != nil {
		t.Fatal(err)
	}
	stored := func() hiring.FinalizationProgress {
		t.Helper()
		f, err := store.HiringFinalizationGet(ctx, round.NewTerm)
		if err != nil {
			t.Fatal(err)
		}
		return *hiring.StoredView(f)
	}
	step := func(p hiring.FinalizationProgress) string {
		if p.Step == nil {
			return "<nil>"
		}
		return *p.Step
	}
	plan, err := a.LoadHiringPlan(ctx, activities.HiringPlanInput{TermID: round.NewTerm})
	if err != nil || len(plan.Hires) != 2 || len(plan.Previous) != 1 {
		t.Fatalf("plan %+v %v", plan, err)
	}
	if p := stored(); step(p) != "load" || p.Hires != 2 || p.Previous != 1 || p.Promoted != 0 {
		t.Errorf("after the plan the row holds %s %+v", step(p), p)
	}
	for range 2 { // a retried batch counts its hires once
		if n, err := a.PromoteHires(ctx, activities.PromoteHiresInput{TermID: round.NewTerm, Hires: plan.Hires}); err != nil || n != 2 {
			t.Fatalf("promote: %d %v", n, err)
		}
	}
	if p := stored(); step(p) != "promote" || p.Promoted != 2 {
		t.Errorf("after promoting the row holds %s %+v", step(p), p)
	}
	if err := a.DemotePrevious(ctx, activities.DemoteInput{TermID: round.NewTerm}); err != nil {
		t.Fatalf("empty demotion: %v", err)
	}
	if p := stored(); step(p) != "demote" {
		t.Errorf("after demoting the row holds %s %+v", step(p), p)
	}
	refs, err := a.RecordWelcomeEmails(ctx, activities.WelcomeInput{TermID: round.NewTerm, TermName: plan.TermName, Hires: plan.Hires,
		OnboardingURL: "https://hackdesk.test/onboarding", ChatInviteURL: "https://chat.test/x", AllHandsURL: "https://cal.test/x"})
	if err != nil || len(refs) != 2 || refs[0].Kind != "exec_welcome" {
		t.Fatalf("welcome: %+v %v", refs, err)
	}
	if err := a.RecordFinalization(ctx, activities.FinalizationResult{TermID: round.NewTerm, Promoted: 2, Demoted: 1, Welcomed: 2}); err != nil {
		t.Fatal(err)
	}
	if p := stored(); step(p) != "done" || p != (hiring.FinalizationProgress{Step: p.Step, Hires: 2, Promoted: 2, Previous: 1, Welcomed: 2}) {
		t.Errorf("once recorded the row holds %s %+v", step(p), p)
	}
	// Recorded, the row stays as it is.
	if err := a.DemotePrevious(ctx, activities.DemoteInput{TermID: round.NewTerm}); err != nil {
		t.Fatal(err)
	}
	if p := stored(); step(p) != "done" {
		t.Errorf("a late activity moved the recorded row to %s", step(p))
	}
}
