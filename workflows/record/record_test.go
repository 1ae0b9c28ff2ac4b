package record_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/dev/devstack"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/outbox"
	hdworker "hackdesk/worker"
	"hackdesk/workflows"
)

// TestRecordHistories records, with RECORD_HISTORIES=1, the histories of
// branches the end-to-end tests do not reach in reasonable time (a reminder
// 48 hours before a deadline, a re-armed timer, a continue-as-new, a
// cancel, a failed launch). Each runs the real workflow code on a Temporal
// dev server with stand-in activities (stand, below) registered under the
// real activity names: the commands and events are the workflow's own;
// only the activities' answers are made up. TestReplay (package workflows)
// replays the files.
func TestRecordHistories(t *testing.T) {
	if os.Getenv("RECORD_HISTORIES") != "1" {
		t.Skip("RECORD_HISTORIES=1 records the histories (workflows/testdata/README.md)")
	}
	r := startRecorder(t)

	t.Run("RsvpDeadlineReminder", func(t *testing.T) {
		// The reminder is due 48 hours before the deadline: a deadline 48
		// hours and a few seconds away is reminded a few seconds after the
		// offers went out. The history ends with the run waiting for the
		// deadline, two days away.
		in := workflows.RsvpDeadlineInput{BatchID: uuid.New(), Deadline: time.Now().Add(workflows.RsvpReminderLead + 3*time.Second),
			PublicURL: "https://hackdesk.test"}
		id := r.start(t, workflows.RsvpDeadlineRequest(in))
		r.waitProgress(t, id, "waiting for the deadline")
		testenv.RecordHistory(t, r.c, id, "rsvp_deadline_reminder")
		if err := r.c.TerminateWorkflow(context.Background(), id, "", "recorded"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("TermWindowRearm", func(t *testing.T) {
		// The opening is an hour away; new dates bring it to a few seconds
		// away while the run waits, so the timer is re-armed. The close is
		// inside the reminder lead: announce, then record the close.
		term := uuid.New()
		now := time.Now()
		opens, closes := now.Add(time.Hour), now.Add(2*time.Hour)
		in := workflows.TermWindowInput{TermID: term, TermName: "2026-2027", PublicURL: "https://hackdesk.test",
			Windows: workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes}}
		r.st.setDates(term, in.Windows)
		id := r.start(t, workflows.TermWindowRequest(in))
		r.waitProgress(t, id, "next: announce onboarding at "+opens.UTC().Format(time.RFC3339))
		newOpens, newCloses := time.Now().Add(2*time.Second), time.Now().Add(5*time.Second)
		changed := workflows.TermWindows{OnboardingOpensAt: &newOpens, OnboardingClosesAt: &newCloses}
		r.st.setDates(term, changed)
		if err := r.c.SignalWorkflow(context.Background(), id, "", workflows.TermWindowDatesSignal, changed); err != nil {
			t.Fatal(err)
		}
		var res workflows.TermWindowResult
		r.wait(t, id, &res)
		if res.Announced != 2 || len(res.Closed) != 1 {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistory(t, r.c, id, "term_window_rearm")
	})

	t.Run("TermWindowSignalWithTimer", func(t *testing.T) {
		// The opening's timer fires while no worker runs and new dates move
		// the opening an hour later: the next workflow task carries the
		// timer and the signal together. The history ends with the run
		// waiting for the new opening.
		term := uuid.New()
		opens := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second)
		closes := opens.Add(30 * 24 * time.Hour)
		in := workflows.TermWindowInput{TermID: term, TermName: "2027-2028", PublicURL: "https://hackdesk.test",
			Windows: workflows.TermWindows{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes}}
		r.st.setDates(term, in.Windows)
		id := r.start(t, workflows.TermWindowRequest(in))
		r.waitProgress(t, id, "next: announce onboarding at "+opens.Format(time.RFC3339))
		r.stop()
		time.Sleep(time.Until(opens.Add(time.Second)))
		later := opens.Add(time.Hour)
		changed := workflows.TermWindows{OnboardingOpensAt: &later, OnboardingClosesAt: &closes}
		r.st.setDates(term, changed)
		if err := r.c.SignalWorkflow(context.Background(), id, "", workflows.TermWindowDatesSignal, changed); err != nil {
			t.Fatal(err)
		}
		r.startWorker(t)
		r.waitProgress(t, id, "next: announce onboarding at "+later.Format(time.RFC3339))
		testenv.RecordHistory(t, r.c, id, "term_window_signal_with_timer")
		if err := r.c.TerminateWorkflow(context.Background(), id, "", "recorded"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("ApplicationWindow", func(t *testing.T) {
		// Opens in two seconds, closes three seconds later (inside the
		// reminder's lead: no reminder): the opening is announced (a
		// Broadcast child) and the close summed up.
		edition := uuid.New()
		opens, closes := time.Now().Add(2*time.Second), time.Now().Add(5*time.Second)
		r.st.announce(edition)
		id := r.start(t, workflows.ApplicationWindowRequest(workflows.ApplicationWindowInput{HackathonID: edition,
			PublicURL: "https://hackdesk.test", Dates: workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes}}))
		var res workflows.ApplicationWindowResult
		r.wait(t, id, &res)
		if res.Announced != 3 || res.Reminded != 0 || res.Summaries != 1 || !res.Closed {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistory(t, r.c, id, "application_window")
	})

	t.Run("ApplicationWindowReminder", func(t *testing.T) {
		// Opened an hour ago, closes 48 hours and three seconds from now:
		// the reminder comes three seconds in. The history ends with the
		// run waiting for the close.
		edition := uuid.New()
		closes := time.Now().Add(workflows.ApplicationWindowReminderLead + 3*time.Second).UTC().Truncate(time.Second)
		id := r.start(t, workflows.ApplicationWindowRequest(workflows.ApplicationWindowInput{HackathonID: edition,
			PublicURL: "https://hackdesk.test", Dates: workflows.ApplicationDates{OpensAt: time.Now().Add(-time.Hour), ClosesAt: &closes}}))
		r.waitProgress(t, id, "next: close at "+closes.Format(time.RFC3339))
		testenv.RecordHistory(t, r.c, id, "application_window_reminder")
		if err := r.c.TerminateWorkflow(context.Background(), id, "", "recorded"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("ApplicationWindowRearm", func(t *testing.T) {
		// The opening is an hour away; new dates bring it two seconds
		// away and the close five: the timer is re-armed, the run reads
		// the dates, announces (nothing to send) and sums up the close.
		edition := uuid.New()
		opens, closes := time.Now().Add(time.Hour), time.Now().Add(10*24*time.Hour)
		id := r.start(t, workflows.ApplicationWindowRequest(workflows.ApplicationWindowInput{HackathonID: edition,
			PublicURL: "https://hackdesk.test", Dates: workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes}}))
		r.waitProgress(t, id, "next: announce at "+opens.UTC().Format(time.RFC3339))
		newOpens, newCloses := time.Now().Add(2*time.Second), time.Now().Add(5*time.Second)
		changed := workflows.ApplicationDates{OpensAt: newOpens, ClosesAt: &newCloses}
		r.st.setAppDates(edition, changed)
		if err := r.c.SignalWorkflow(context.Background(), id, "", workflows.ApplicationWindowDatesSignal, changed); err != nil {
			t.Fatal(err)
		}
		var res workflows.ApplicationWindowResult
		r.wait(t, id, &res)
		if res.Announced != 0 || res.Summaries != 1 || !res.Closed {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistory(t, r.c, id, "application_window_rearm")
	})

	t.Run("EventDay", func(t *testing.T) {
		// The event starts a day and two seconds from now: the tickets go
		// two seconds in; the run then waits for the thank-you a day
		// after the end. New dates (the end two days ago, as if the event
		// were over) bring the thank-you now.
		edition := uuid.New()
		starts, ends := time.Now().Add(24*time.Hour+2*time.Second), time.Now().Add(48*time.Hour)
		// The request is a signal-with-start: the run reads the dates first.
		r.st.setEventDates(edition, workflows.EventDates{StartsAt: &starts, EndsAt: &ends})
		id := r.start(t, workflows.EventDayRequest(workflows.EventDayInput{HackathonID: edition,
			PublicURL: "https://hackdesk.test", Dates: workflows.EventDates{StartsAt: &starts, EndsAt: &ends}}))
		r.waitProgress(t, id, "next: thanks at "+ends.Add(24*time.Hour).UTC().Format(time.RFC3339))
		over := time.Now().Add(-48 * time.Hour)
		began := over.Add(-time.Hour)
		changed := workflows.EventDates{StartsAt: &began, EndsAt: &over}
		r.st.setEventDates(edition, changed)
		if err := r.c.SignalWorkflow(context.Background(), id, "", workflows.EventDayDatesSignal, changed); err != nil {
			t.Fatal(err)
		}
		var res workflows.EventDayResult
		r.wait(t, id, &res)
		if res.Tickets != 2 || res.Thanks != 2 {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistory(t, r.c, id, "event_day")
	})

	t.Run("TermReconcileEditions", func(t *testing.T) {
		// No term has a window ahead; one edition has, and no run: the
		// reconciler starts its ApplicationWindow run.
		edition := uuid.New()
		opens, closes := time.Now().Add(time.Hour), time.Now().Add(2*time.Hour)
		r.st.setFutureEdition(activities.FutureApplicationWindow{HackathonID: edition,
			Dates: workflows.ApplicationDates{OpensAt: opens, ClosesAt: &closes}})
		id := r.start(t, workflows.Request{ID: "term-reconcile-recorded", Type: "TermReconcile",
			Input: workflows.TermReconcileInput{PublicURL: "https://hackdesk.test"}, Kind: workflows.KindReconcile, Subject: "recorded"})
		var res workflows.TermReconcileResult
		r.wait(t, id, &res)
		if res.Hackathons != 1 || len(res.StartedHackathons) != 1 || res.StartedHackathons[0] != edition.String() {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistory(t, r.c, id, "term_reconcile_editions")
		if err := r.c.TerminateWorkflow(context.Background(), workflows.ApplicationWindowID(edition), "", "recorded"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("BroadcastContinueAsNew", func(t *testing.T) {
		// 25 recipients, 10 a run: the first run hands out one batch and
		// continues as new.
		in := workflows.BroadcastInput{BroadcastID: uuid.New(), Subject: "Hack night", Total: 25,
			PublicURL: "https://hackdesk.test", PerRun: 10}
		run, err := outbox.Start(context.Background(), r.c, workflows.TaskQueue, workflows.BroadcastRequest(in))
		if err != nil {
			t.Fatal(err)
		}
		var res workflows.BroadcastResult
		r.wait(t, run.GetID(), &res)
		if res.Status != broadcast.Done {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistoryRun(t, r.c, run.GetID(), run.GetRunID(), "broadcast_continue_as_new")
	})

	t.Run("BroadcastCancelled", func(t *testing.T) {
		// A cancel request seen by the batches after the first.
		in := workflows.BroadcastInput{BroadcastID: uuid.New(), Subject: "Hack night", Total: 40, PublicURL: "https://hackdesk.test"}
		r.st.cancelAfterFirst(in.BroadcastID)
		id := r.start(t, workflows.BroadcastRequest(in))
		var res workflows.BroadcastResult
		r.wait(t, id, &res)
		if res.Status != broadcast.Cancelled {
			t.Fatalf("result %+v", res)
		}
		testenv.RecordHistory(t, r.c, id, "broadcast_cancelled")
	})

	t.Run("FoundryLaunchFailed", func(t *testing.T) {
		// The setup run fails at a step: the step and the project are
		// recorded failed and the run fails.
		in := launchInput("failing-setup")
		r.st.failSetup(in.ProjectID)
		id := r.start(t, workflows.FoundryLaunchRequest(in))
		err := r.c.GetWorkflow(context.Background(), id, "").Get(context.Background(), nil)
		if err == nil || !strings.Contains(err.Error(), "Configure database") {
			t.Fatalf("launch error %v, want the failed step", err)
		}
		testenv.RecordHistory(t, r.c, id, "foundry_launch_failed")
	})

	t.Run("FoundryLaunchCancelled", func(t *testing.T) {
		// Cancelled (the Temporal UI's cancel) while it follows the setup
		// run: the step and the project are recorded failed.
		in := launchInput("cancelled-launch")
		r.st.blockSetup(in.ProjectID)
		id := r.start(t, workflows.FoundryLaunchRequest(in))
		r.waitProgress(t, id, workflows.StepSetupRun)
		if err := r.c.CancelWorkflow(context.Background(), id, ""); err != nil {
			t.Fatal(err)
		}
		err := r.c.GetWorkflow(context.Background(), id, "").Get(context.Background(), nil)
		if !temporal.IsCanceledError(err) {
			t.Fatalf("launch error %v, want cancelled", err)
		}
		testenv.RecordHistory(t, r.c, id, "foundry_launch_cancelled")
	})
}

func launchInput(name string) workflows.FoundryLaunchInput {
	return workflows.FoundryLaunchInput{ProjectID: uuid.New(), Name: name, Description: "A project",
		ProjectType: "nextjs", Database: "postgresql", TeamSlug: "platform", Private: true,
		LaunchedAt: time.Now().UTC(), PollInterval: time.Second}
}

// recorder is a Temporal dev server with a worker running hackdesk's
// workflows and the stand-in activities.
type recorder struct {
	c  client.Client
	st *stand
	// stop stops the worker of the workflows; startWorker starts another.
	stop func()
}

func startRecorder(t *testing.T) *recorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := devstack.StartTemporal(ctx, devstack.TemporalOptions{
		Bin: filepath.Join(testenv.BinDir(), "temporal"), LogPath: filepath.Join(t.TempDir(), "temporal.log")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	c, err := client.Dial(client.Options{HostPort: srv.Address,
		Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	st := &stand{dates: map[uuid.UUID]workflows.TermWindows{}, cancelled: map[uuid.UUID]bool{}, failing: map[uuid.UUID]bool{},
		blocking: map[uuid.UUID]bool{}, appDates: map[uuid.UUID]workflows.ApplicationDates{}, announced: map[uuid.UUID]bool{},
		eventDates: map[uuid.UUID]workflows.EventDates{}}
	bw := sdkworker.New(c, workflows.BroadcastTaskQueue(workflows.TaskQueue), sdkworker.Options{DisableWorkflowWorker: true})
	bw.RegisterActivity(st)
	if err := bw.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bw.Stop)
	r := &recorder{c: c, st: st}
	r.startWorker(t)
	t.Cleanup(func() { r.stop() })
	return r
}

// startWorker starts a worker of the workflows and the stand-in
// activities on the main task queue.
func (r *recorder) startWorker(t *testing.T) {
	t.Helper()
	w := sdkworker.New(r.c, workflows.TaskQueue, sdkworker.Options{})
	hdworker.RegisterWorkflows(w)
	w.RegisterActivity(r.st)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	r.stop = w.Stop
}

func (r *recorder) start(t *testing.T, req workflows.Request) string {
	t.Helper()
	run, err := outbox.Start(context.Background(), r.c, workflows.TaskQueue, req)
	if err != nil {
		t.Fatal(err)
	}
	return run.GetID()
}

func (r *recorder) wait(t *testing.T, id string, res any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.c.GetWorkflow(ctx, id, "").Get(ctx, res); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
}

// waitProgress waits until the progress query of id answers want.
func (r *recorder) waitProgress(t *testing.T, id, want string) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		v, err := r.c.QueryWorkflow(context.Background(), id, "", workflows.ProgressQuery)
		if err == nil && v.Get(&got) == nil && got == want {
			return
		}
	}
	t.Fatalf("%s: progress %q, want %q", id, got, want)
}

// stand stands in for every activity the recorded workflows run, under
// the same names as the real ones.
type stand struct {
	mu        sync.Mutex
	dates     map[uuid.UUID]workflows.TermWindows // a term's dates "in the database"
	cancelled map[uuid.UUID]bool                  // broadcasts whose cancel is asked after the first batch
	failing   map[uuid.UUID]bool                  // projects whose setup run fails
	blocking  map[uuid.UUID]bool                  // projects whose setup run never ends
	// An edition's window "in the database", the editions whose opening
	// is announced, and the edition with its window ahead.
	appDates  map[uuid.UUID]workflows.ApplicationDates
	announced map[uuid.UUID]bool
	future    []activities.FutureApplicationWindow
	// An edition's event dates "in the database".
	eventDates map[uuid.UUID]workflows.EventDates
}

func (s *stand) setEventDates(edition uuid.UUID, d workflows.EventDates) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.eventDates[edition] = d
}

func (s *stand) EventDayDates(_ context.Context, id uuid.UUID) (activities.EventDates, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eventDates[id], nil
}

func (s *stand) RecordEventTickets(context.Context, activities.EventNotice) ([]activities.EmailRef, error) {
	return refs("event_ticket", 2), nil
}

func (s *stand) RecordEventThanks(context.Context, activities.EventNotice) ([]activities.EmailRef, error) {
	return refs("event_thanks", 2), nil
}

func (s *stand) setAppDates(edition uuid.UUID, d workflows.ApplicationDates) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appDates[edition] = d
}

func (s *stand) announce(edition uuid.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.announced[edition] = true
}

func (s *stand) setFutureEdition(w activities.FutureApplicationWindow) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.future = []activities.FutureApplicationWindow{w}
}

func (s *stand) blockSetup(id uuid.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocking[id] = true
}

func (s *stand) setDates(term uuid.UUID, d workflows.TermWindows) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dates[term] = d
}

func (s *stand) cancelAfterFirst(id uuid.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelled[id] = true
}

func (s *stand) failSetup(id uuid.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing[id] = true
}

func refs(kind string, n int) []activities.EmailRef {
	out := make([]activities.EmailRef, n)
	for i := range out {
		out[i] = activities.EmailRef{Key: fmt.Sprintf("%s:%s", kind, uuid.NewString()), Kind: kind}
	}
	return out
}

// Email.

func (s *stand) RecordEmail(context.Context, activities.RecordEmailInput) (bool, error) {
	return true, nil
}

func (s *stand) DeliverEmail(_ context.Context, key string) (activities.DeliverEmailResult, error) {
	return activities.DeliverEmailResult{Status: "sent", ProviderID: "log-" + key}, nil
}

// RSVP.

func (s *stand) RecordOfferEmails(context.Context, activities.OfferEmailsInput) ([]activities.EmailRef, error) {
	return refs("offer", 2), nil
}

func (s *stand) RecordRsvpReminders(context.Context, activities.RsvpEmailsInput) ([]activities.EmailRef, error) {
	return refs("rsvp_reminder", 1), nil
}

func (s *stand) ExpireOffers(context.Context, activities.ExpireOffersInput) (int, error) {
	return 0, nil
}

func (s *stand) PromoteWaitlist(context.Context, activities.PromoteInput) (int, error) { return 0, nil }

// Term windows.

func (s *stand) RecordWindowAnnouncements(context.Context, activities.TermWindowEmailsInput) ([]activities.EmailRef, error) {
	return refs("exec_form_open", 2), nil
}

func (s *stand) RecordWindowReminders(context.Context, activities.TermWindowEmailsInput) ([]activities.EmailRef, error) {
	return refs("exec_form_reminder", 1), nil
}

func (s *stand) RecordWindowClosed(context.Context, activities.TermWindowCloseInput) (int, error) {
	return 1, nil
}

func (s *stand) TermWindowDates(_ context.Context, term uuid.UUID) (activities.TermDates, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return activities.TermDates(s.dates[term]), nil
}

// Hackathon editions.

func (s *stand) ApplicationWindowDates(_ context.Context, edition uuid.UUID) (activities.ApplicationDates, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.appDates[edition], nil
}

func (s *stand) AnnounceApplications(_ context.Context, in activities.AnnounceInput) (activities.Announcement, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.announced[in.HackathonID] {
		return activities.Announcement{}, nil
	}
	return activities.Announcement{BroadcastID: hackathon.AnnouncementID(in.HackathonID), Subject: "Applications are open", Total: 3}, nil
}

func (s *stand) RecordApplicationReminders(context.Context, activities.ApplicationWindowNotice) ([]activities.EmailRef, error) {
	return refs("apply_reminder", 2), nil
}

func (s *stand) RecordApplicationSummary(context.Context, activities.ApplicationWindowNotice) ([]activities.EmailRef, error) {
	return refs("apply_summary", 1), nil
}

func (s *stand) HackathonsWithFutureWindows(context.Context) ([]activities.FutureApplicationWindow, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.future, nil
}

func (s *stand) TermsWithFutureWindows(context.Context) ([]activities.FutureWindowTerm, error) {
	return []activities.FutureWindowTerm{}, nil
}

// Broadcasts.

func (s *stand) SendBroadcastBatch(_ context.Context, in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
	s.mu.Lock()
	cancelled := s.cancelled[in.BroadcastID] && in.First > 1
	s.mu.Unlock()
	if cancelled {
		return activities.BroadcastBatchResult{Cancelled: true}, nil
	}
	return activities.BroadcastBatchResult{Sent: in.Last - in.First + 1}, nil
}

func (s *stand) FinishBroadcast(_ context.Context, in activities.FinishBroadcastInput) (activities.BroadcastCounts, error) {
	return activities.BroadcastCounts{Status: string(in.Status)}, nil
}

// Foundry.

func (s *stand) RecordStep(context.Context, activities.StepUpdate) error { return nil }

func (s *stand) CreateRepository(_ context.Context, in activities.CreateRepositoryInput) (activities.RepoRef, error) {
	return activities.RepoRef{Name: in.Name, FullName: "hackdesk-dev/" + in.Name, URL: "https://github.test/hackdesk-dev/" + in.Name,
		DefaultBranch: "main"}, nil
}

func (s *stand) GrantTeam(context.Context, activities.GrantTeamInput) error { return nil }

func (s *stand) DispatchSetup(context.Context, activities.DispatchInput) error { return nil }

func (s *stand) WatchSetupRun(ctx context.Context, in activities.WatchInput) (activities.RunOutcome, error) {
	s.mu.Lock()
	failing, blocking := s.failing[in.ProjectID], s.blocking[in.ProjectID]
	s.mu.Unlock()
	out := activities.RunOutcome{RunID: 1001, URL: "https://github.test/runs/1001", Conclusion: "success"}
	if blocking {
		activity.RecordHeartbeat(ctx, activities.RunProgress{RunID: out.RunID, URL: out.URL, Status: "in_progress"})
		<-ctx.Done()
		return out, ctx.Err()
	}
	if failing {
		out.Conclusion, out.FailedStep = "failure", "setup / Configure database"
		return out, nil
	}
	activity.RecordHeartbeat(ctx, activities.RunProgress{RunID: out.RunID, URL: out.URL, Status: "completed"})
	return out, nil
}
