package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// submitVsPgbench is review submission over HTTP against pgbench running
// the statement the handler runs (ReviewInsertChecked, whose trigger moves
// both counters), each with 32 clients for 20 s on the same data: 32
// reviewers submitting reviews of random submitted applications. Both
// sides commit durably; both count a review already given (no row
// inserted) as a finished call.
func (b *bench) submitVsPgbench(ctx context.Context) (ratio float64, err error) {
	reviewers := b.reviewers[2*clients : 3*clients]
	pool := b.a.Store.Pool()
	ids := make([]string, len(reviewers))
	for i, id := range reviewers {
		ids[i] = "'" + id.String() + "'"
	}
	in := "(" + strings.Join(ids, ",") + ")"
	if _, err := pool.Exec(ctx, `DROP TABLE IF EXISTS bench_submitters, bench_apps;
		CREATE TABLE bench_submitters AS
		  SELECT row_number() OVER (ORDER BY p.id)::int AS n, p.id, p.email FROM profiles p WHERE p.id IN `+in+`;
		ALTER TABLE bench_submitters ADD PRIMARY KEY (n);
		CREATE TABLE bench_apps AS
		  SELECT row_number() OVER (ORDER BY a.id)::int AS n, a.id FROM applications a
		  WHERE a.hackathon_id = hackathon_current_id() AND a.status = 'submitted' AND a.profile_id NOT IN `+in+`;
		ALTER TABLE bench_apps ADD PRIMARY KEY (n); ANALYZE bench_submitters, bench_apps`); err != nil {
		return 0, err
	}
	var apps []uuid.UUID
	rows, err := pool.Query(ctx, `SELECT id FROM bench_apps ORDER BY n`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return 0, err
		}
		apps = append(apps, id)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}

	tokens := make([]string, clients)
	for i := range tokens {
		if tokens[i], err = b.session(ctx, reviewers[i]); err != nil {
			return 0, err
		}
	}
	script, err := b.submitScript(len(apps))
	if err != nil {
		return 0, err
	}
	// Two halves each, in the order HTTP, pgbench, pgbench, HTTP, so that
	// a machine getting busier or quieter meanwhile weighs on both sides.
	var (
		already atomic.Int64
		lat     []time.Duration
		errs    int64
		took    time.Duration
		pgTx    float64
	)
	half := runFor / 2
	submits := func() {
		say("review submit over HTTP: %d reviewers submitting random applications for %s...", clients, half)
		l, e, t := loop(ctx, clients, half, func(ctx context.Context, w int) error {
			status, err := b.do(ctx, http.MethodPost, tokens[w], "/api/review/submit", map[string]any{
				"application_id": apps[rand.IntN(len(apps))], "resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2,
			}, nil)
			switch {
			case err != nil:
				return err
			case status == http.StatusConflict:
				already.Add(1)
			case status != http.StatusOK:
				return fmt.Errorf("submit: %d", status)
			}
			return nil
		})
		lat, errs, took = append(lat, l...), errs+e, took+t
	}
	pgbench := func() error {
		say("pgbench: the review insert statement, %d clients for %s...", clients, half)
		tps, err := b.runPgbenchFor(ctx, "submit", script, half, "PGOPTIONS=-c plan_cache_mode=force_generic_plan")
		pgTx += tps * half.Seconds()
		return err
	}
	submits()
	if err := pgbench(); err != nil {
		return 0, err
	}
	if err := pgbench(); err != nil {
		return 0, err
	}
	submits()
	httpRate := float64(len(lat)) / took.Seconds()
	pgTPS := pgTx / (2 * half.Seconds())
	ratio = httpRate / pgTPS
	b.add("review submit over HTTP: reviews/s (32 reviewers, random applications, 20 s)", fmt.Sprintf("%.0f", httpRate))
	b.add("review submit over HTTP: p50 / p99", fmt.Sprintf("%.1f ms / %.1f ms", ms(percentile(lat, 0.5)), ms(percentile(lat, 0.99))))
	b.add("review submit over HTTP: errors / already reviewed", fmt.Sprintf("%d / %d", errs, already.Load()))
	b.add("pgbench, review insert statement: transactions/s (32 clients)", fmt.Sprintf("%.0f", pgTPS))
	b.add("review submit over HTTP vs pgbench (same statement)", fmt.Sprintf("%.2f", ratio))
	return ratio, nil
}

// namedQuery is how sqlc query files start each query.
var namedQuery = regexp.MustCompile(`(?m)^-- name: (\w+) :\w+\n`)

// submitScript is a pgbench script running ReviewInsertChecked as written
// in db/queries/reviews.sql, so that the comparison follows the query:
// its parameters become a random bench reviewer and application and the
// scores the HTTP side sends.
func (b *bench) submitScript(apps int) (string, error) {
	sql, err := b.queryText("reviews.sql", "ReviewInsertChecked")
	if err != nil {
		return "", err
	}
	sql = strings.NewReplacer(
		"@reviewer_id", "(SELECT id FROM bench_submitters WHERE n = :r)",
		"@reviewer_email", "(SELECT email FROM bench_submitters WHERE n = :r)",
		"@application_id", "(SELECT id FROM bench_apps WHERE n = :a)",
		"@resume_score", "2", "@links_score", "1", "@q1_score", "5", "@q2_score", "2",
		"sqlc.narg('note')", "NULL", // the HTTP side sends no note
	).Replace(sql)
	if unfilled.MatchString(sql) {
		return "", fmt.Errorf("ReviewInsertChecked has a parameter the bench does not fill:\n%s", sql)
	}
	// In a transaction whose statements use their generic plans, as the
	// API runs it (db.Store.InTxGeneric; PGOPTIONS sets the plans).
	return fmt.Sprintf("\\set r random(1, %d)\n\\set a random(1, %d)\nBEGIN;\n%s;\nCOMMIT;\n", clients, apps, sql), nil
}

// queryText is the text of the named query in db/queries/file as sqlc
// reads it, without its comments and blank lines: a pgbench script built
// from it follows the query as it changes.
func (b *bench) queryText(file, name string) (string, error) {
	src, err := os.ReadFile(filepath.Join(b.root, "db", "queries", file))
	if err != nil {
		return "", err
	}
	text := string(src)
	var sql string
	locs := namedQuery.FindAllStringSubmatchIndex(text, -1)
	for i, m := range locs {
		if text[m[2]:m[3]] != name {
			continue
		}
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		sql = text[m[1]:end]
	}
	if sql == "" {
		return "", fmt.Errorf("db/queries/%s has no %s", file, name)
	}
	var lines []string
	for _, l := range strings.Split(sql, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") && strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.TrimSuffix(strings.TrimSpace(strings.Join(lines, "\n")), ";"), nil
}
