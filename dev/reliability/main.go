// Command reliability is `make reliability`: it starts PostgreSQL, the
// Temporal dev server on its SQLite file and versitygw (package devstack),
// puts toxiproxy in front of PostgreSQL and Temporal, runs the API and the
// worker as separate bin/hackdesk processes, and injects faults: latency,
// connection resets, a database outage, processes SIGKILLed, S3 down, two
// replicas of each process. Each scenario checks values afterwards (every
// counter equals its rows, every workflow completed, no email delivered
// twice). The table goes to stdout and to docs/reliability.md between its
// markers; the last line is `reliability: N passed, M failed`, and the exit
// status is 1 when M > 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
	"time"
)

// scenario is one row of the table.
type scenario struct {
	name    string
	run     func(ctx context.Context, s *Suite, r *Result) error
	timeout time.Duration
}

var scenarios = []scenario{
	{"PostgreSQL latency during review load", scenarioLatency, 2 * time.Minute},
	{"PostgreSQL connections reset during review load", scenarioResets, 2 * time.Minute},
	{"PostgreSQL unreachable during hiring finalization", scenarioOutage, 3 * time.Minute},
	{"Worker SIGKILLed inside every workflow kind", scenarioWorkerKill, 4 * time.Minute},
	{"Temporal dev server SIGKILLed while workflows run", scenarioTemporalKill, 3 * time.Minute},
	{"API SIGKILLed between commit and outbox dispatch", scenarioAPIKill, 2 * time.Minute},
	{"S3 down during a resume upload", scenarioS3Down, 2 * time.Minute},
	{"Scale-out: two APIs and two workers", scenarioScaleOut, 3 * time.Minute},
	{"Webhook storm under PostgreSQL resets", scenarioWebhookStorm, 3 * time.Minute},
	{"Upgrade: roll out, roll back, roll out again", scenarioUpgrade, 12 * time.Minute},
}

func main() {
	os.Exit(run())
}

func run() int {
	only := flag.String("run", "", "run only the scenarios whose name matches this regular expression")
	doc := flag.String("doc", "docs/reliability.md", "file whose marked section gets the table (empty: none)")
	keep := flag.Bool("keep", false, "keep the data directory (logs, databases) afterwards")
	if v := os.Getenv("RELIABILITY_UPGRADE_FROM"); v != "" {
		upgradeFrom = v
	}
	flag.StringVar(&upgradeFrom, "upgrade-from", upgradeFrom,
		"the earlier commit the upgrade scenario builds and rolls from (env RELIABILITY_UPGRADE_FROM)")
	flag.Parse()
	match, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reliability: -run:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root, err := os.Getwd()
	if err != nil {
		fmt.Println("reliability:", err)
		return 1
	}

	start := time.Now()
	say("starting PostgreSQL, Temporal (SQLite file), versitygw and toxiproxy...")
	startCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	s, err := StartSuite(startCtx, root)
	cancel()
	if err != nil {
		fmt.Println("reliability: the stack did not start:", err)
		fmt.Println("reliability: 0 passed, 1 failed")
		return 1
	}
	say("stack up in %s; data and logs in %s", time.Since(start).Round(time.Second), s.dataDir)

	var results []*Result
	for _, sc := range scenarios {
		if !match.MatchString(sc.name) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		say("%s...", sc.name)
		r := &Result{Name: sc.name, Answers: NewTally()}
		t := time.Now()
		sctx, cancel := context.WithTimeout(ctx, sc.timeout)
		r.Err = sc.run(sctx, s, r)
		cancel()
		r.Took = time.Since(t)
		if err := s.ResetFaults(); err != nil {
			say("reset the faults: %v", err)
		}
		verdict := "pass"
		if !r.Passed() {
			verdict = "FAIL"
		}
		say("%s: %s in %s", sc.name, verdict, r.Took.Round(time.Second))
		for _, c := range r.Checks {
			if !c.OK {
				say("  failed check %s: %s", c.What, c.Got)
			}
		}
		if r.Err != nil {
			say("  error: %v", r.Err)
		}
		results = append(results, r)
	}
	s.Close()
	if *keep {
		say("kept %s", s.dataDir)
	} else {
		s.RemoveData()
	}

	passed, failed := 0, 0
	for _, r := range results {
		if r.Passed() {
			passed++
		} else {
			failed++
		}
	}
	table := Table(results)
	fmt.Println()
	fmt.Print(table)
	fmt.Println()
	if *doc != "" && *only == "" {
		generated := fmt.Sprintf("Last run: %s, %s on this machine, %d passed, %d failed.\n\n%s",
			time.Now().UTC().Format("2006-01-02 15:04 UTC"), time.Since(start).Round(time.Second), passed, failed, table)
		if err := writeDoc(filepath.Join(root, *doc), generated); err != nil {
			fmt.Println("reliability: write the table:", err)
			failed++
		}
	}
	fmt.Printf("reliability: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// say reports progress on stderr.
func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "reliability: "+format+"\n", args...)
}
