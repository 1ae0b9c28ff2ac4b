package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The large run's sizes: three editions of seedApplications applications
// each, every one with seedReviews reviews by its own seedReviewers; the
// current edition is then topped up to largeReviews reviews for the
// leaderboard.
const (
	// largeLeaderboardReviews is where the current edition is topped up
	// to, by COPY, for the leaderboard's last measurement.
	largeLeaderboardReviews = 10_000_000
	// largeCopyReviewers review the COPY top-up, each at most every
	// submitted application once.
	largeCopyReviewers = 1000
	largeEditions      = 3
	largeReviews       = 1_000_000
)

// allLarge is `make bench-large`: two earlier editions and the current
// one, 100,000 applications each, and the review queue, review submission
// and the leaderboard measured as `make bench` measures them, each against
// pgbench running its own SQL in the same run. The figures go to their own
// section of docs/performance.md.
func (b *bench) allLarge(ctx context.Context) error {
	b.http = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * clients, DisableCompression: true}, Timeout: 30 * time.Second}
	start := time.Now()
	loadBefore := loadAverage()
	for i := 1; i < largeEditions; i++ {
		id, err := b.pastEdition(ctx, i)
		if err != nil {
			return err
		}
		if err := b.seedInto(ctx, id, seedApplications, seedReviewers, seedReviews, fmt.Sprintf("benchp%d", i)); err != nil {
			return err
		}
	}
	if err := b.seed(ctx, seedApplications, seedReviewers, seedReviews, "bench"); err != nil {
		return err
	}
	var editions, apps, reviews int64
	if err := b.a.Store.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM hackathons), (SELECT count(*) FROM applications),
		(SELECT count(*) FROM reviews)`).Scan(&editions, &apps, &reviews); err != nil {
		return err
	}
	b.add("editions / applications / reviews in all", fmt.Sprintf("%d / %d / %d", editions, apps, reviews))
	var err error
	if b.reviewers, err = b.reviewerIDs(ctx, "bench.reviewer%"); err != nil {
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
	reviewsPerS, err := b.reviews(ctx)
	if err != nil {
		return err
	}
	submitRatio, err := b.submitVsPgbench(ctx)
	if err != nil {
		return err
	}
	lbP50, err := b.leaderboard(ctx, b.topUpReviews)
	if err != nil {
		return err
	}
	lb10mP50, err := b.leaderboardAt(ctx, largeLeaderboardReviews, b.topUpCopy)
	if err != nil {
		return err
	}
	loadAfter := loadAverage()
	b.add("load average (1, 5, 15 min) before / after the run", loadBefore+" / "+loadAfter)
	b.headline = []string{
		"large=1",
		fmt.Sprintf("editions=%d", editions),
		fmt.Sprintf("applications=%d", apps),
		fmt.Sprintf("queue_rps=%.0f", queueRPS),
		fmt.Sprintf("queue_p99_ms=%.1f", queueP99),
		fmt.Sprintf("queue_vs_pgbench=%.2f", queueRPS/requestTPS),
		fmt.Sprintf("queue_vs_statement=%.2f", queueRPS/pgTPS),
		fmt.Sprintf("vs_naive=%.0f", pgTPS/naiveTPS),
		fmt.Sprintf("reviews_per_s=%.0f", reviewsPerS),
		fmt.Sprintf("submit_vs_pgbench=%.2f", submitRatio),
		fmt.Sprintf("leaderboard_p50_ms=%.1f", lbP50),
		fmt.Sprintf("leaderboard_10m_p50_ms=%.1f", lb10mP50),
		"load_before=" + strings.ReplaceAll(loadBefore, " ", ","),
	}
	return b.report(ctx, time.Since(start), beginLargeMarker, endLargeMarker)
}

// pastEdition makes the i-th earlier edition: closed, not current.
func (b *bench) pastEdition(ctx context.Context, i int) (uuid.UUID, error) {
	var id uuid.UUID
	years := largeEditions - i
	err := b.a.Store.Pool().QueryRow(ctx, `
		INSERT INTO hackathons (name, applications_open_at, applications_close_at, starts_at, ends_at, capacity)
		VALUES ($1, now() - make_interval(days => 365 * $2 + 60), now() - make_interval(days => 365 * $2 + 30),
		        now() - make_interval(days => 365 * $2 + 20), now() - make_interval(days => 365 * $2 + 18), 400)
		RETURNING id`, fmt.Sprintf("Bench edition -%d", years), years).Scan(&id)
	return id, err
}

// seedInto runs `hackdesk seed` into an edition.
func (b *bench) seedInto(ctx context.Context, edition uuid.UUID, apps, reviewers, reviews int, prefix string) error {
	say("seeding edition %s: %d applications, %d reviewers, %d reviews...", edition, apps, reviewers, reviews)
	cmd := exec.CommandContext(ctx, filepath.Join(b.root, "bin", "hackdesk"), "seed", "--force", "--hackathon", edition.String(),
		"--applications", strconv.Itoa(apps), "--reviewers", strconv.Itoa(reviewers),
		"--reviews", strconv.Itoa(reviews), "--prefix", prefix, "--seed", "42")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+b.cfg.DatabaseURL)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("seed: %w\n%s", err, out.String())
	}
	b.add(fmt.Sprintf("seed an earlier edition: %d applications / %d reviewers / %d reviews", apps, reviewers, reviews), dur(time.Since(t)))
	return nil
}

// topUpReviews adds more reviews to the current edition's applications,
// by 500 new reviewers, in one transaction of set-wise SQL: the counting
// triggers are off for the insert (as `hackdesk seed` does) and the
// counters brought up to date after it. Reviewer r's j-th review is of the
// application numbered (r*7919 + j) mod N, distinct for each reviewer.
func (b *bench) topUpReviews(ctx context.Context, more int) error {
	say("topping the current edition up with %d reviews...", more)
	t := time.Now()
	tx, err := b.a.Store.Pool().Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)                                  //nolint:errcheck // a no-op after commit
	const hash = "$argon2id$v=19$m=8,t=1,p=1$c2VlZA$c2VlZA" // never matches a password
	for _, st := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO profiles (email, display_name, password_hash, role, email_confirmed_at)
		  SELECT 'benchtop.reviewer' || g || '@seed.hackdesk.test', 'Top reviewer ' || g, $1, 'admin', now()
		  FROM generate_series(0, $2::int - 1) g`, []any{hash, seedReviewers}},
		{`CREATE TEMP TABLE top_apps ON COMMIT DROP AS
		  SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id FROM applications
		  WHERE hackathon_id = hackathon_current_id() AND status = 'submitted'`, nil},
		{`CREATE TEMP TABLE top_reviewers ON COMMIT DROP AS
		  SELECT (row_number() OVER (ORDER BY id) - 1)::int AS k, id FROM profiles WHERE email LIKE 'benchtop.reviewer%'`, nil},
		{`ALTER TABLE top_apps ADD PRIMARY KEY (n)`, nil},
		{`ALTER TABLE reviews DISABLE TRIGGER reviews_keep_counts, DISABLE TRIGGER reviews_set_hackathon`, nil},
		{`INSERT INTO reviews (application_id, hackathon_id, reviewer_id, resume_score, links_score, q1_score, q2_score)
		  SELECT a.id, hackathon_current_id(), r.id, i % 4, i % 3, (i * 7) % 8, (i / 3) % 4
		  FROM generate_series(0, $1::int - 1) i
		  JOIN top_reviewers r ON r.k = i % $2::int
		  JOIN top_apps a ON a.n = (r.k * 7919 + i / $2::int) % (SELECT count(*) FROM top_apps)`, []any{more, seedReviewers}},
		{`ALTER TABLE reviews ENABLE TRIGGER reviews_keep_counts, ENABLE TRIGGER reviews_set_hackathon`, nil},
		{`UPDATE applications a SET review_count = a.review_count + c.n
		  FROM (SELECT application_id, count(*)::int AS n FROM reviews
		        WHERE reviewer_id IN (SELECT id FROM top_reviewers) GROUP BY application_id) c
		  WHERE a.id = c.application_id`, nil},
		{`INSERT INTO reviewer_stats (hackathon_id, reviewer_id, review_count, resume_sum, links_sum, q1_sum, q2_sum)
		  SELECT hackathon_id, reviewer_id, count(*), sum(resume_score), sum(links_score), sum(q1_score), sum(q2_score)
		  FROM reviews WHERE reviewer_id IN (SELECT id FROM top_reviewers) GROUP BY hackathon_id, reviewer_id`, nil},
	} {
		if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
			return fmt.Errorf("top up: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	if _, err := b.a.Store.Pool().Exec(ctx, "VACUUM (ANALYZE) applications, reviews, reviewer_stats"); err != nil {
		return err
	}
	b.add(fmt.Sprintf("top the current edition up with %d reviews by %d new reviewers (SQL)", more, seedReviewers), dur(time.Since(t)))
	return nil
}

// queuePlan checks that the review queue's statement is planned as a walk
// of applications_queue_idx (the index that leads with the edition), with
// a bench reviewer, and records the plan's first lines.
func (b *bench) queuePlan(ctx context.Context) error {
	rows, err := b.a.Store.Pool().Query(ctx, `EXPLAIN
		WITH mine AS MATERIALIZED (
		    SELECT coalesce((SELECT m.team_members FROM applications m
		                     WHERE m.profile_id = $1 AND m.hackathon_id = hackathon_current_id()), '')::text AS team)
		SELECT n.id FROM applications n CROSS JOIN mine
		WHERE n.hackathon_id = hackathon_current_id() AND n.status = 'submitted' AND n.erased_at IS NULL
		  AND application_conflict($1, $2::text, mine.team, n.profile_id,
		          (SELECT p.email FROM profiles p WHERE p.id = n.profile_id), n.team_members) = ''
		  AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.application_id = n.id AND r.reviewer_id = $1)
		ORDER BY n.review_count, n.id LIMIT 1`, b.reviewers[0], "bench.reviewer0@seed.hackdesk.test")
	if err != nil {
		return err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		plan = append(plan, strings.TrimSpace(line))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "Index Scan using applications_queue_idx") {
		return fmt.Errorf("the review queue is not an index scan of applications_queue_idx:\n%s", text)
	}
	b.add("review queue plan", "index scan of applications_queue_idx (hackathon_id, review_count, id), stops at the first fit")
	return nil
}

// loadAverage is the machine's load average (1, 5 and 15 minutes).
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// topUpCopy adds more reviews to the current edition with COPY, by
// largeCopyReviewers new admins, each reviewing a run of distinct submitted
// applications (reviewer k starts at k*7919), with the counting triggers
// off while copying; then sets the applications' counters and the new
// reviewers' stats set-wise, as the triggers would have, and VACUUMs.
func (b *bench) topUpCopy(ctx context.Context, more int) error {
	say("topping the current edition up with %d reviews by COPY...", more)
	t := time.Now()
	pool := b.a.Store.Pool()
	var hackathon uuid.UUID
	if err := pool.QueryRow(ctx, `SELECT hackathon_current_id()`).Scan(&hackathon); err != nil {
		return err
	}
	var apps []uuid.UUID
	rows, err := pool.Query(ctx, `SELECT id FROM applications WHERE hackathon_id = $1 AND status = 'submitted' ORDER BY id`, hackathon)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		apps = append(apps, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	per := (more + largeCopyReviewers - 1) / largeCopyReviewers
	if per > len(apps) {
		return fmt.Errorf("top up: %d reviews each is more than the %d submitted applications", per, len(apps))
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)                                  //nolint:errcheck // a no-op after commit
	const hash = "$argon2id$v=19$m=8,t=1,p=1$c2VlZA$c2VlZA" // never matches a password
	var reviewers []uuid.UUID
	rrows, err := tx.Query(ctx, `INSERT INTO profiles (email, display_name, password_hash, role, email_confirmed_at)
		SELECT 'benchcopy.reviewer' || g || '@seed.hackdesk.test', 'Copy reviewer ' || g, $1, 'admin', now()
		FROM generate_series(0, $2::int - 1) g RETURNING id`, hash, largeCopyReviewers)
	if err != nil {
		return err
	}
	for rrows.Next() {
		var id uuid.UUID
		if err := rrows.Scan(&id); err != nil {
			rrows.Close()
			return err
		}
		reviewers = append(reviewers, id)
	}
	rrows.Close()
	if err := rrows.Err(); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `ALTER TABLE reviews DISABLE TRIGGER reviews_keep_counts, DISABLE TRIGGER reviews_set_hackathon`); err != nil {
		return err
	}
	i := 0
	vals := make([]any, 7)
	copied, err := tx.CopyFrom(ctx, pgx.Identifier{"reviews"},
		[]string{"application_id", "hackathon_id", "reviewer_id", "resume_score", "links_score", "q1_score", "q2_score"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i >= more {
				return nil, nil
			}
			k, j := i/per, i%per
			vals[0], vals[1], vals[2] = apps[(k*7919+j)%len(apps)], hackathon, reviewers[k]
			vals[3], vals[4], vals[5], vals[6] = i%4, i%3, (i*7)%8, (i/3)%4
			i++
			return vals, nil
		}))
	if err != nil {
		return fmt.Errorf("top up: copy: %w", err)
	}
	for _, st := range []string{
		`ALTER TABLE reviews ENABLE TRIGGER reviews_keep_counts, ENABLE TRIGGER reviews_set_hackathon`,
		`UPDATE applications a SET review_count = a.review_count + c.n
		 FROM (SELECT application_id, count(*)::int AS n FROM reviews
		       WHERE reviewer_id IN (SELECT id FROM profiles WHERE email LIKE 'benchcopy.reviewer%') GROUP BY application_id) c
		 WHERE a.id = c.application_id`,
		`INSERT INTO reviewer_stats (hackathon_id, reviewer_id, review_count, resume_sum, links_sum, q1_sum, q2_sum)
		 SELECT hackathon_id, reviewer_id, count(*), sum(resume_score), sum(links_score), sum(q1_score), sum(q2_score)
		 FROM reviews WHERE reviewer_id IN (SELECT id FROM profiles WHERE email LIKE 'benchcopy.reviewer%')
		 GROUP BY hackathon_id, reviewer_id`,
	} {
		if _, err := tx.Exec(ctx, st); err != nil {
			return fmt.Errorf("top up: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) applications, reviews, reviewer_stats"); err != nil {
		return err
	}
	b.add(fmt.Sprintf("top the current edition up with %d reviews by %d new reviewers (COPY)", copied, largeCopyReviewers), dur(time.Since(t)))
	return nil
}
