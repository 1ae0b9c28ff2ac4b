package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/devstack"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// poolSize is the API's connection pool, the service's default on two
// cores (db.Open: max(16, 8 per core)).
const poolSize = 16

type bench struct {
	a          *app.App
	cfg        config.Config
	root       string
	outDir     string
	pgAdminURL string
	http       *http.Client
	reviewers  []uuid.UUID
	rows       [][2]string // the results table
	headline   []string
	// noopPerS is the no-op workflows completed per second (the receipts'
	// end-to-end rate is compared with it).
	noopPerS float64
	// queuedAtEnd and queuedAfter30s are the load phase's workflow starts
	// still queued at its end and 30 s later.
	queuedAtEnd, queuedAfter30s int64
	// superToken is the leaderboard's caller, made once.
	superToken string
}

func (b *bench) add(what, value string) { b.rows = append(b.rows, [2]string{what, value}) }

func (b *bench) all(ctx context.Context) error {
	b.http = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * clients, DisableCompression: true}, Timeout: 30 * time.Second}
	start := time.Now()
	if err := b.seed(ctx, seedApplications, seedReviewers, seedReviews, "bench"); err != nil {
		return err
	}
	var err error
	if b.reviewers, err = b.reviewerIDs(ctx, "bench.reviewer%"); err != nil {
		return err
	}
	if only != "" {
		var err error
		switch only {
		case "checkin":
			_, _, err = b.checkinDoors(ctx)
		case "queue":
			var rps, tps, reqTPS float64
			if rps, _, err = b.queueHTTP(ctx); err == nil {
				if tps, _, err = b.pgbench(ctx); err == nil {
					if reqTPS, err = b.pgbenchRequest(ctx); err == nil {
						b.add("queue over HTTP vs pgbench, the queue statement alone", fmt.Sprintf("%.2f", rps/tps))
						b.add("queue over HTTP vs pgbench, the request's statements in its transaction (same SQL)", fmt.Sprintf("%.2f", rps/reqTPS))
					}
				}
			}
		case "receipts":
			// Compared with the no-op workflows' rate, as in the whole run.
			if _, _, err = b.workflowsVsNoop(ctx); err == nil {
				b.a.StartDispatcher()
				var processedPerS float64
				if _, _, processedPerS, err = b.receiptWebhooks(ctx); err == nil {
					b.add("receipts processed end to end vs no-op workflows completed, per second", fmt.Sprintf("%.0f / %.0f = %.2f", processedPerS, b.noopPerS, processedPerS/b.noopPerS))
				}
			}
		case "load":
			b.a.StartDispatcher()
			if err = b.settle(ctx); err == nil {
				_, _, err = b.load(ctx)
			}
		case "submit":
			_, err = b.submitVsPgbench(ctx)
		case "explain":
			err = b.explainQueue(ctx)
		case "admin":
			_, err = b.adminTable(ctx)
		default:
			err = fmt.Errorf("-only: no phase %q (admin, checkin, queue, submit, receipts, load, explain)", only)
		}
		for _, r := range b.rows {
			fmt.Printf("| %s | %s |\n", r[0], r[1])
		}
		return err
	}
	if err := b.queuePlan(ctx); err != nil {
		return err
	}
	queueRPS, queueP99, err := b.queueHTTP(ctx)
	if err != nil {
		return err
	}
	pgTPS, naiveTPS, err := b.pgbench(ctx)
	if err != nil {
		return err
	}
	requestTPS, err := b.pgbenchRequest(ctx)
	if err != nil {
		return err
	}
	b.add("queue over HTTP vs pgbench, the queue statement alone", fmt.Sprintf("%.2f", queueRPS/pgTPS))
	b.add("queue over HTTP vs pgbench, the request's statements in its transaction (same SQL)", fmt.Sprintf("%.2f", queueRPS/requestTPS))
	b.add("shipped query vs naive GROUP BY / NOT IN", fmt.Sprintf("%.0f× faster", pgTPS/naiveTPS))
	reviewsPerS, err := b.reviews(ctx)
	if err != nil {
		return err
	}
	submitRatio, err := b.submitVsPgbench(ctx)
	if err != nil {
		return err
	}
	adminP50, err := b.adminTable(ctx) // before the leaderboard tops the edition up
	if err != nil {
		return err
	}
	lbP50, err := b.leaderboard(ctx, func(ctx context.Context, more int) error {
		return b.seed(ctx, seedApplications, seedReviewers, more, "bench2")
	})
	if err != nil {
		return err
	}
	wfP95, wfRatio, err := b.workflowsVsNoop(ctx)
	if err != nil {
		return err
	}
	codecP95, codecRatio, err := b.codecOverhead(ctx)
	if err != nil {
		return err
	}
	hiringWall, hiringEmails, err := b.hiringFinalization(ctx)
	if err != nil {
		return err
	}
	receiptsPerS, receiptP95, processedPerS, err := b.receiptWebhooks(ctx) // after hiringFinalization: needs the dispatcher
	if err != nil {
		return err
	}
	receiptsVsNoop := processedPerS / b.noopPerS
	b.add("membership webhook: receipts processed end to end vs no-op workflows completed, per second", fmt.Sprintf("%.0f / %.0f = %.2f", processedPerS, b.noopPerS, receiptsVsNoop))
	b.broadcasts(ctx) // records its own figures, or its failure, in the table
	checkinRatio, checkinP99, err := b.checkinDoors(ctx)
	if err != nil {
		return err
	}
	// Last: the receipts it posts leave thousands of workflow starts
	// queued, which would slow any phase after it.
	if err := b.settle(ctx); err != nil {
		return err
	}
	loadReviewP99, loadWebhookP99, err := b.load(ctx)
	if err != nil {
		return err
	}
	b.headline = []string{
		fmt.Sprintf("queue_rps=%.0f", queueRPS),
		fmt.Sprintf("queue_p99_ms=%.1f", queueP99),
		fmt.Sprintf("queue_vs_pgbench=%.2f", queueRPS/requestTPS),
		fmt.Sprintf("queue_vs_statement=%.2f", queueRPS/pgTPS),
		fmt.Sprintf("vs_naive=%.0f", pgTPS/naiveTPS),
		fmt.Sprintf("reviews_per_s=%.0f", reviewsPerS),
		fmt.Sprintf("submit_vs_pgbench=%.2f", submitRatio),
		fmt.Sprintf("leaderboard_p50_ms=%.1f", lbP50),
		fmt.Sprintf("wf_p95_ms=%.0f", wfP95),
		fmt.Sprintf("wf_vs_noop=%.2f", wfRatio),
		fmt.Sprintf("codec_p95_ms=%.0f", codecP95),
		fmt.Sprintf("codec_vs_plain=%.2f", codecRatio),
		fmt.Sprintf("hiring_finalize_s=%.1f", hiringWall.Seconds()),
		fmt.Sprintf("hiring_emails_per_s=%.0f", hiringEmails),
		fmt.Sprintf("webhooks_per_s=%.0f", receiptsPerS),
		fmt.Sprintf("webhook_p95_ms=%.1f", receiptP95),
		fmt.Sprintf("receipts_processed_per_s=%.0f", processedPerS),
		fmt.Sprintf("load_review_p99_ms=%.0f", loadReviewP99),
		fmt.Sprintf("load_webhook_p99_ms=%.0f", loadWebhookP99),
		fmt.Sprintf("receipts_vs_noop=%.2f", receiptsVsNoop),
		fmt.Sprintf("admin_table_p50_ms=%.0f", adminP50["default"]),
		fmt.Sprintf("admin_sort_score_p50_ms=%.0f", adminP50["score"]),
		fmt.Sprintf("admin_search_p50_ms=%.0f", adminP50["search"]),
		fmt.Sprintf("admin_export_ms=%.0f", adminP50["export"]),
		fmt.Sprintf("admin_export_heap_mib=%.1f", adminP50["export_heap"]),
		fmt.Sprintf("admin_export_small_heap_mib=%.1f", adminP50["export_small_heap"]),
		fmt.Sprintf("checkin_vs_pgbench=%.2f", checkinRatio),
		fmt.Sprintf("checkin_p99_ms=%.1f", checkinP99),
		fmt.Sprintf("load_starts_queued=%d", b.queuedAtEnd),
		fmt.Sprintf("load_starts_queued_after_30s=%d", b.queuedAfter30s),
	}
	return b.report(ctx, time.Since(start), beginMarker, endMarker)
}

// seed runs `hackdesk seed` against the bench database (a throw-away
// cluster, not the dev one: hence --force).
func (b *bench) seed(ctx context.Context, apps, reviewers, reviews int, prefix string) error {
	say("seeding %d applications, %d reviewers, %d reviews...", apps, reviewers, reviews)
	cmd := exec.CommandContext(ctx, filepath.Join(b.root, "bin", "hackdesk"), "seed", "--force",
		"--applications", strconv.Itoa(apps), "--reviewers", strconv.Itoa(reviewers),
		"--reviews", strconv.Itoa(reviews), "--prefix", prefix, "--seed", "42")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+b.cfg.DatabaseURL)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("seed: %w\n%s", err, out.String())
	}
	b.add(fmt.Sprintf("seed %d applications / %d reviewers / %d reviews", apps, reviewers, reviews), dur(time.Since(t)))
	return nil
}

func (b *bench) reviewerIDs(ctx context.Context, pattern string) ([]uuid.UUID, error) {
	rows, err := b.a.Store.Pool().Query(ctx, `SELECT id FROM profiles WHERE email LIKE $1 ORDER BY email`, pattern)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// session opens a real session for a profile and returns its token.
func (b *bench) session(ctx context.Context, id uuid.UUID) (string, error) {
	tok, hash, err := auth.NewToken()
	if err != nil {
		return "", err
	}
	_, err = b.a.Store.SessionInsert(ctx, db.SessionInsertParams{TokenHash: hash, ProfileID: id, ExpiresAt: time.Now().Add(time.Hour)})
	return tok, err
}

func (b *bench) get(ctx context.Context, token, path string, out any) (int, error) {
	return b.do(ctx, http.MethodGet, token, path, nil, out)
}

func (b *bench) do(ctx context.Context, method, token, path string, body any, out any) (int, error) {
	var rd *bytes.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.a.URL()+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		return resp.StatusCode, json.NewDecoder(resp.Body).Decode(out)
	}
	var sink bytes.Buffer
	_, _ = sink.ReadFrom(resp.Body)
	return resp.StatusCode, nil
}

// loop runs fn on n workers until d has passed and returns every call's
// latency and the number of failed calls.
func loop(ctx context.Context, n int, d time.Duration, fn func(ctx context.Context, worker int) error) ([]time.Duration, int64, time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu     sync.Mutex
		all    []time.Duration
		errs   atomic.Int64
		wg     sync.WaitGroup
		start  = time.Now()
		logged atomic.Bool
	)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var mine []time.Duration
			for ctx.Err() == nil {
				t := time.Now()
				err := fn(ctx, w)
				if ctx.Err() != nil {
					break
				}
				if err != nil {
					errs.Add(1)
					if !logged.Swap(true) {
						say("first error: %v", err)
					}
					continue
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	return all, errs.Load(), time.Since(start)
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(float64(len(s)-1) * p)
	return s[i]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func dur(d time.Duration) string { return d.Round(100 * time.Millisecond).String() }

// queueHTTP is 32 reviewers calling GET /api/applications/random for 20 s,
// with CPU and allocation profiles of the whole process taken meanwhile.
func (b *bench) queueHTTP(ctx context.Context) (rps, p99 float64, err error) {
	say("queue over HTTP: %d reviewers for %s (profiling)...", clients, runFor)
	tokens := make([]string, clients)
	for i := range tokens {
		if tokens[i], err = b.session(ctx, b.reviewers[i]); err != nil {
			return 0, 0, err
		}
	}
	cpu, err := os.Create(filepath.Join(b.outDir, "queue.cpu.prof"))
	if err != nil {
		return 0, 0, err
	}
	defer cpu.Close()
	runtime.GC()
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return 0, 0, err
	}
	lat, errs, took := loop(ctx, clients, runFor, func(ctx context.Context, w int) error {
		status, err := b.get(ctx, tokens[w], "/api/applications/random", nil)
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("status %d", status)
		}
		return err
	})
	pprof.StopCPUProfile()
	if f, err := os.Create(filepath.Join(b.outDir, "queue.allocs.prof")); err == nil {
		_ = pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	rps = float64(len(lat)) / took.Seconds()
	p50, p99d := percentile(lat, 0.50), percentile(lat, 0.99)
	b.add("queue over HTTP: requests/s (32 reviewers, 20 s)", fmt.Sprintf("%.0f", rps))
	b.add("queue over HTTP: p50 / p99", fmt.Sprintf("%.1f ms / %.1f ms", ms(p50), ms(p99d)))
	b.add("queue over HTTP: errors", strconv.FormatInt(errs, 10))
	return rps, ms(p99d), nil
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// pgbench runs the shipped queue SQL and the naive form straight against
// PostgreSQL at 32 clients with random reviewers.
func (b *bench) pgbench(ctx context.Context) (shipped, naive float64, err error) {
	pool := b.a.Store.Pool()
	if _, err := pool.Exec(ctx, `DROP TABLE IF EXISTS bench_reviewers;
		CREATE TABLE bench_reviewers AS
		  SELECT row_number() OVER (ORDER BY id)::int AS n, id, email FROM profiles WHERE email LIKE 'bench.reviewer%';
		ALTER TABLE bench_reviewers ADD PRIMARY KEY (n); ANALYZE bench_reviewers`); err != nil {
		return 0, 0, err
	}
	// The reviewer comes from a primary-key look-up, an InitPlan evaluated
	// once per statement; the rest is the shipped query text.
	const who = `(SELECT id FROM bench_reviewers WHERE n = :n)`
	const whoEmail = `(SELECT email FROM bench_reviewers WHERE n = :n)`
	// Both statements select one application and return it in the reviewer
	// view; the shipped one is ApplicationNextForReviewerView as
	// db/queries/applications.sql has it (so the comparison follows the
	// query), the naive one the same rule with a GROUP BY count and NOT IN.
	text, err := b.queryText("applications.sql", "ApplicationNextForReviewerView")
	if err != nil {
		return 0, 0, err
	}
	// No review cap: the seeded settings have none, as the HTTP side reads them.
	params := strings.NewReplacer("sqlc.embed(a)", "a.*", "@reviewer_id", who, "@reviewer_email", whoEmail,
		"sqlc.narg('cap')", "NULL")
	shippedSQL := fmt.Sprintf("\\set n random(1, %d)\n%s;\n", seedReviewers, params.Replace(text))
	naiveSQL := fmt.Sprintf(`\set n random(1, %d)
SELECT a.*, application_team_names(a.team_members)::jsonb FROM applications a WHERE a.id = (
  SELECT n.id FROM applications n LEFT JOIN reviews r ON r.application_id = n.id
  WHERE n.hackathon_id = hackathon_current_id() AND n.status = 'submitted' AND n.erased_at IS NULL
    AND application_conflict(%s, %s::text,
          coalesce((SELECT m.team_members FROM applications m WHERE m.profile_id = %s AND m.hackathon_id = hackathon_current_id()), ''),
          n.profile_id, (SELECT p.email FROM profiles p WHERE p.id = n.profile_id), n.team_members) = ''
    AND n.id NOT IN (SELECT application_id FROM reviews WHERE reviewer_id = %s)
  GROUP BY n.id ORDER BY count(r.id), n.id LIMIT 1);
`, seedReviewers, who, whoEmail, who, who)
	if unfilled.MatchString(shippedSQL) {
		return 0, 0, fmt.Errorf("ApplicationNextForReviewerView has a parameter the bench does not fill:\n%s", shippedSQL)
	}
	say("pgbench: shipped queue SQL, %d clients for %s...", clients, runFor)
	if shipped, err = b.runPgbench(ctx, "shipped", shippedSQL); err != nil {
		return 0, 0, err
	}
	say("pgbench: naive GROUP BY / NOT IN, %d clients for %s...", clients, runFor)
	if naive, err = b.runPgbench(ctx, "naive", naiveSQL); err != nil {
		return 0, 0, err
	}
	b.add("pgbench, shipped queue SQL: transactions/s (32 clients)", fmt.Sprintf("%.0f", shipped))
	b.add("pgbench, naive GROUP BY / NOT IN: transactions/s", fmt.Sprintf("%.1f", naive))
	return shipped, naive, nil
}

// pgbenchRequest runs, as pgbench's transaction, every statement GET
// /api/applications/random runs on the database, as db/queries has them,
// in its transaction: the review settings, the queue, the chosen
// application's answers and the reviewer's part of the count of what is left (the edition's queue
// size is kept by the API while the queue's generation stands, and no
// generation moves during the phase). The same reviewers as the HTTP side.
func (b *bench) pgbenchRequest(ctx context.Context) (float64, error) {
	const who = `(SELECT id FROM bench_reviewers WHERE n = :n)`
	const whoEmail = `(SELECT email FROM bench_reviewers WHERE n = :n)`
	params := strings.NewReplacer("sqlc.embed(a)", "a.id AS queued_id, a.*", "@reviewer_id", who, "@reviewer_email", whoEmail,
		"sqlc.narg('cap')", "NULL", "@application_ids::uuid[]", "ARRAY[:queued_id::uuid]")
	var steps []string
	statements := [][2]string{
		{"review_settings.sql", "ReviewSettingsGet"},
		{"applications.sql", "ApplicationNextForReviewerView"},
		{"application_answers.sql", "AnswersOfApplications"},
		{"applications.sql", "ApplicationQueueNotMine"},
	}
	for _, q := range statements {
		text, err := b.queryText(q[0], q[1])
		if err != nil {
			return 0, err
		}
		end := ";"
		if q[1] == "ApplicationNextForReviewerView" {
			end = "\\gset" // the chosen application's id for the answers
		}
		steps = append(steps, params.Replace(text)+end)
	}
	// In one transaction whose statements use their generic plans, as the
	// API runs them (db.Store.InTxGeneric; runPgbenchGeneric sets the plans).
	script := fmt.Sprintf("\\set n random(1, %d)\nBEGIN;\n%s\nCOMMIT;\n", seedReviewers, strings.Join(steps, "\n"))
	if unfilled.MatchString(script) {
		return 0, fmt.Errorf("the queue request's statements have a parameter the bench does not fill:\n%s", script)
	}
	if only == "queue" {
		// Each statement on its own, for finding the costly one.
		for i, q := range statements {
			one := fmt.Sprintf("\\set n random(1, %d)\n%s\n", seedReviewers, strings.Join(steps[:i+1], "\n"))
			tps, err := b.runPgbenchFor(ctx, "request-"+q[1], one, 5*time.Second)
			if err != nil {
				return 0, err
			}
			b.add("pgbench, the request's statements up to "+q[1]+": transactions/s", fmt.Sprintf("%.0f", tps))
		}
	}
	say("pgbench: the queue request's statements, %d clients for %s...", clients, runFor)
	tps, err := b.runPgbenchGeneric(ctx, "request", script)
	if err != nil {
		return 0, err
	}
	b.add("pgbench, the queue request's statements (settings, queue, answers, the reviewer's part of the count): transactions/s (32 clients)", fmt.Sprintf("%.0f", tps))
	return tps, nil
}

// unfilled finds a query parameter (@name) or sqlc macro left in a
// pgbench script (the @> operator is not one).
var unfilled = regexp.MustCompile(`@[a-z_]|sqlc\.`)

func (b *bench) runPgbench(ctx context.Context, name, script string) (float64, error) {
	return b.runPgbenchFor(ctx, name, script, runFor)
}

// runPgbenchGeneric is runPgbench with every statement on its generic plan
// (plan_cache_mode for pgbench's sessions), as db.Store.InTxGeneric has the
// API's in the transactions its script mirrors; the API sets it in the
// round trip of its BEGIN.
func (b *bench) runPgbenchGeneric(ctx context.Context, name, script string) (float64, error) {
	return b.runPgbenchFor(ctx, name, script, runFor, "PGOPTIONS=-c plan_cache_mode=force_generic_plan")
}

// runPgbenchFor runs script with 32 clients for d (whole seconds) and
// answers pgbench's transactions per second; env is added to pgbench's
// environment.
func (b *bench) runPgbenchFor(ctx context.Context, name, script string, d time.Duration, env ...string) (float64, error) {
	bin, err := devstack.PgBinary("pgbench")
	if err != nil {
		return 0, err
	}
	file := filepath.Join(b.outDir, name+".pgbench.sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		return 0, err
	}
	// pgbench's libpq does not know pgx's pool parameter.
	dbURL, _, _ := strings.Cut(b.cfg.DatabaseURL, "&pool_max_conns")
	cmd := exec.CommandContext(ctx, bin, "-n", "-M", "prepared", "-c", strconv.Itoa(clients), "-j", "2",
		"-T", strconv.Itoa(int(d.Seconds())), "-f", file, "-d", dbURL)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench %s: %w\n%s", name, err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pgbench %s: no tps in output:\n%s", name, out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// reviews is 32 reviewers looping random → submit for 20 s, then a check
// that no duplicate exists and every counter agrees with the rows.
func (b *bench) reviews(ctx context.Context) (float64, error) {
	say("review throughput: %d reviewers looping random -> submit for %s...", clients, runFor)
	tokens := make([]string, clients)
	for i := range tokens {
		var err error
		if tokens[i], err = b.session(ctx, b.reviewers[clients+i]); err != nil {
			return 0, err
		}
	}
	var submitLat []time.Duration
	var mu sync.Mutex
	lat, errs, took := loop(ctx, clients, runFor, func(ctx context.Context, w int) error {
		var next struct {
			Application struct {
				ID uuid.UUID `json:"id"`
			} `json:"application"`
		}
		status, err := b.get(ctx, tokens[w], "/api/applications/random", &next)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("random: %d %v", status, err)
		}
		t := time.Now()
		status, err = b.do(ctx, http.MethodPost, tokens[w], "/api/review/submit", map[string]any{
			"application_id": next.Application.ID, "resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2,
		}, nil)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("submit: %d %v", status, err)
		}
		d := time.Since(t)
		mu.Lock()
		submitLat = append(submitLat, d)
		mu.Unlock()
		return nil
	})
	perS := float64(len(lat)) / took.Seconds()
	var dupes, badApps, badStats int64
	err := b.a.Store.Pool().QueryRow(ctx, `
		SELECT (SELECT count(*) FROM reviews) - (SELECT count(*) FROM (SELECT DISTINCT application_id, reviewer_id FROM reviews) d),
		       (SELECT count(*) FROM applications a LEFT JOIN (SELECT application_id, count(*) n FROM reviews GROUP BY 1) c
		          ON c.application_id = a.id WHERE a.review_count <> coalesce(c.n, 0)),
		       (SELECT count(*) FROM reviewer_stats s LEFT JOIN (SELECT hackathon_id, reviewer_id, count(*) n FROM reviews GROUP BY 1, 2) c
		          ON c.hackathon_id = s.hackathon_id AND c.reviewer_id = s.reviewer_id WHERE s.review_count <> coalesce(c.n, 0))`).Scan(&dupes, &badApps, &badStats)
	if err != nil {
		return 0, err
	}
	b.add("reviews/s (32 reviewers looping random → submit, 20 s)", fmt.Sprintf("%.0f", perS))
	b.add("review cycle p50 / p99 (random + submit)", fmt.Sprintf("%.1f ms / %.1f ms", ms(percentile(lat, 0.5)), ms(percentile(lat, 0.99))))
	b.add("submit alone p50 / p99", fmt.Sprintf("%.1f ms / %.1f ms", ms(percentile(submitLat, 0.5)), ms(percentile(submitLat, 0.99))))
	b.add("review errors / duplicates / counters off", fmt.Sprintf("%d / %d / %d", errs, dupes, badApps+badStats))
	if dupes != 0 || badApps != 0 || badStats != 0 {
		return perS, fmt.Errorf("after the review run: %d duplicates, %d applications and %d reviewers with wrong counts", dupes, badApps, badStats)
	}
	return perS, nil
}

// currentReviews counts the reviews of the current edition.
const currentReviews = `SELECT count(*) FROM reviews WHERE hackathon_id = hackathon_current_id()`

// leaderboard tops the current edition up to 1,000,000 reviews (topUp)
// and times 50 calls.
func (b *bench) leaderboard(ctx context.Context, topUp func(ctx context.Context, more int) error) (float64, error) {
	return b.leaderboardAt(ctx, 1_000_000, topUp)
}

// leaderboardAt tops the current edition up to target reviews with topUp
// and times leaderboardCalls calls of the leaderboard with its statistics.
func (b *bench) leaderboardAt(ctx context.Context, target int, topUp func(ctx context.Context, more int) error) (float64, error) {
	var have int64
	if err := b.a.Store.Pool().QueryRow(ctx, currentReviews).Scan(&have); err != nil {
		return 0, err
	}
	if more := target - int(have); more > 0 {
		if err := topUp(ctx, more); err != nil {
			return 0, err
		}
	}
	if err := b.a.Store.Pool().QueryRow(ctx, currentReviews).Scan(&have); err != nil {
		return 0, err
	}
	if b.superToken == "" {
		p, err := account.Create(ctx, b.a.Store.Queries, "bench.super@seed.hackdesk.test", "Bench", "bench-super-password", "superadmin")
		if err != nil {
			return 0, err
		}
		if b.superToken, err = b.session(ctx, p.ID); err != nil {
			return 0, err
		}
	}
	tok := b.superToken
	say("leaderboard + statistics at %d reviews: %d calls...", have, leaderboardCalls)
	var lat []time.Duration
	for i := 0; i < leaderboardCalls; i++ {
		t := time.Now()
		var body struct {
			Leaderboard []json.RawMessage `json:"leaderboard"`
			Statistics  struct {
				TotalReviews int64 `json:"total_reviews"`
			} `json:"statistics"`
		}
		status, err := b.get(ctx, tok, "/api/admin/leaderboard", &body)
		if err != nil || status != http.StatusOK || body.Statistics.TotalReviews != have {
			return 0, fmt.Errorf("leaderboard: %d %v (total_reviews %d, want %d)", status, err, body.Statistics.TotalReviews, have)
		}
		lat = append(lat, time.Since(t))
	}
	p50, p99 := percentile(lat, 0.5), percentile(lat, 0.99)
	b.add(fmt.Sprintf("leaderboard + statistics at %d reviews: p50 / p99 of %d calls", have, leaderboardCalls),
		fmt.Sprintf("%.1f ms / %.1f ms", ms(p50), ms(p99)))
	return ms(p50), nil
}

// runWorkflows starts the workflows of keys first+1 to first+n through the
// client (as the outbox dispatcher does), workflowInFlight at a time, each
// awaited, and returns how long each took from start to result and the
// wall time.
func (b *bench) runWorkflows(ctx context.Context, first, n int, request func(workflows.SendEmailInput) workflows.Request) ([]time.Duration, time.Duration, error) {
	return b.runWorkflowsOn(ctx, b.a.Temporal, "bench", first, n, request)
}

// runWorkflowsOn is runWorkflows through client c, with email keys
// prefix:<i>.
func (b *bench) runWorkflowsOn(ctx context.Context, c client.Client, prefix string, first, n int, request func(workflows.SendEmailInput) workflows.Request) ([]time.Duration, time.Duration, error) {
	// SendEmail runs as the service starts it: on an email recorded
	// beforehand (a request records it in its own transaction), its input
	// naming the key and kind only. The no-op gets the same input.
	key := func(i int) string { return fmt.Sprintf("%s:%d", prefix, i) }
	if request(workflows.SendEmailInput{Key: key(first + 1), Kind: "notice"}).Type == "SendEmail" {
		for i := first + 1; i <= first+n; i++ {
			if _, err := mail.Record(ctx, b.a.Store.Queries, key(i), "notice", fmt.Sprintf("bench%d@seed.hackdesk.test", i),
				map[string]string{"subject": "Bench", "body": "Hello"}); err != nil {
				return nil, 0, err
			}
		}
	}
	var next atomic.Int64
	next.Store(int64(first))
	var mu sync.Mutex
	var lat []time.Duration
	var failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workflowInFlight; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(first+n) {
					return
				}
				t := time.Now()
				run, err := outbox.Start(ctx, c, b.cfg.TaskQueue, request(workflows.SendEmailInput{Key: key(int(i)), Kind: "notice"}))
				var res workflows.SendEmailResult
				if err == nil {
					err = run.Get(ctx, &res)
				}
				if err != nil || res.Status != string(mail.StatusSent) {
					failed.Add(1)
					continue
				}
				d := time.Since(t)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		return nil, 0, fmt.Errorf("%d workflows failed", f)
	}
	return lat, time.Since(start), nil
}

var errNoMarkers = errors.New("docs/performance.md lacks the bench markers")

// explainQueue prints EXPLAIN (ANALYZE, BUFFERS) of the queue request's
// statements for the first reviewer of the HTTP phase, run as the API runs
// them (parameters bound).
func (b *bench) explainQueue(ctx context.Context) error {
	var email string
	if err := b.a.Store.Pool().QueryRow(ctx, `SELECT email FROM profiles WHERE id = $1`, b.reviewers[0]).Scan(&email); err != nil {
		return err
	}
	for _, q := range [][2]string{
		{"applications.sql", "ApplicationNextForReviewerView"},
		{"applications.sql", "ApplicationQueueNotMine"},
		{"applications.sql", "ApplicationQueueSize"},
	} {
		text, err := b.queryText(q[0], q[1])
		if err != nil {
			return err
		}
		// Each parameter the statement has, bound as the API binds it (no cap).
		text = strings.ReplaceAll(text, "sqlc.embed(a)", "a.*")
		var args []any
		for _, p := range []struct {
			name, cast string
			value      any
		}{{"@reviewer_id", "::uuid", b.reviewers[0]}, {"@reviewer_email", "::text", email}, {"sqlc.narg('cap')", "::integer", nil}} {
			if strings.Contains(text, p.name) {
				args = append(args, p.value)
				text = strings.ReplaceAll(text, p.name, fmt.Sprintf("$%d%s", len(args), p.cast))
			}
		}
		if unfilled.MatchString(text) {
			return fmt.Errorf("%s has a parameter the bench does not fill:\n%s", q[1], text)
		}
		for range 3 {
			rows, err := b.a.Store.Pool().Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+text, args...)
			if err != nil {
				return fmt.Errorf("%s: %w", q[1], err)
			}
			fmt.Println("==", q[1])
			for rows.Next() {
				var line string
				if err := rows.Scan(&line); err != nil {
					return err
				}
				fmt.Println(line)
			}
			rows.Close()
		}
	}
	return nil
}
