package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"hackdesk/app"
	"hackdesk/testenv"
	"hackdesk/tracing"
)

// BenchmarkTracingOverhead measures the review queue (GET
// /api/applications/random) and the review submit (POST
// /api/review/submit) through the whole HTTP stack, on two apps over one
// seeded database: one without tracing and one tracing every request into
// an in-process OTLP/HTTP collector (batched, as in production; the
// collector reads and drops what it gets). After a warm-up, the pair runs
// BENCH_ROUNDS times (default 5), alternating which goes first; quote
// the medians of the rounds. Allocations (B/op, allocs/op) are the whole
// process's, client and server: on a busy machine they show the cost
// more steadily than the times.
func BenchmarkTracingOverhead(b *testing.B) {
	ctx := context.Background()
	cfg := testenv.Config(b)

	var exported atomic.Int64
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		exported.Add(n)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	b.Cleanup(collector.Close)
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(collector.URL+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	tp, err := tracing.NewProvider(ctx, sdktrace.WithBatcher(exp))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })

	off := testenv.AppWith(b, cfg)
	reviewers := benchSeed(b, off)
	on := testenv.AppWith(b, cfg, app.WithTracerProvider(tp))
	tokens := make([]string, len(reviewers))
	byReviewer := map[uuid.UUID]string{}
	for i, r := range reviewers {
		tokens[i] = newSession(b, off.Store, r)
		byReviewer[r] = tokens[i]
	}
	pairs := reviewPairs(b, off, byReviewer)
	var next atomic.Int64 // the next unused pair, across every run

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	do := func(b *testing.B, req *http.Request) {
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Errorf("%s %s: status %d", req.Method, req.URL.Path, resp.StatusCode)
		}
	}
	queue := func(a *app.App) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			var i atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest(http.MethodGet, a.URL()+"/api/applications/random", nil)
					req.Header.Set("Authorization", "Bearer "+tokens[int(i.Add(1))%len(tokens)])
					do(b, req)
				}
			})
		}
	}
	submit := func(a *app.App) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					k := int(next.Add(1)) - 1
					if k >= len(pairs) {
						b.Error("out of unreviewed pairs")
						return
					}
					p := pairs[k]
					req, _ := http.NewRequest(http.MethodPost, a.URL()+"/api/review/submit", bytes.NewReader(p.body))
					req.Header.Set("Authorization", "Bearer "+p.token)
					req.Header.Set("Content-Type", "application/json")
					do(b, req)
				}
			})
		}
	}
	rounds := 5
	if n, err := strconv.Atoi(os.Getenv("BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	// A first pass warms both apps (connections, caches) and is not
	// counted.
	b.Run("warmup/queue/tracing=off", queue(off))
	b.Run("warmup/queue/tracing=on", queue(on))
	for round := range rounds {
		modes := []struct {
			name string
			a    *app.App
		}{{"off", off}, {"on", on}}
		if round%2 == 1 {
			modes[0], modes[1] = modes[1], modes[0]
		}
		for _, m := range modes {
			b.Run("queue/tracing="+m.name, queue(m.a))
		}
		for _, m := range modes {
			b.Run("submit/tracing="+m.name, submit(m.a))
		}
	}
	_ = tp.ForceFlush(ctx)
	b.Logf("collector received %d bytes of spans", exported.Load())
}

type reviewPair struct {
	token string
	body  []byte
}

// reviewPairs are the (application, reviewer) pairs a submit succeeds on:
// submitted, not the reviewer's own or team's, not yet reviewed; in a
// scattered order.
func reviewPairs(b *testing.B, a *app.App, tokens map[uuid.UUID]string) []reviewPair {
	b.Helper()
	rows, err := a.Store.Pool().Query(context.Background(), `
		SELECT a.id, p.id FROM applications a JOIN profiles p ON p.role = 'admin'
		WHERE a.status = 'submitted' AND a.profile_id <> p.id AND NOT team_lists_email(a.team_members, p.email)
		  AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.application_id = a.id AND r.reviewer_id = p.id)
		ORDER BY md5(a.id::text || p.id::text)`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out []reviewPair
	for rows.Next() {
		var app, reviewer uuid.UUID
		if err := rows.Scan(&app, &reviewer); err != nil {
			b.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"application_id": app, "resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2})
		if tok, ok := tokens[reviewer]; ok {
			out = append(out, reviewPair{token: tok, body: body})
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	if len(out) == 0 {
		b.Fatal(fmt.Errorf("no unreviewed pairs"))
	}
	return out
}
