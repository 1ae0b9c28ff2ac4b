package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/tracing"
)

// metricsRounds is how many times each (endpoint, observability on/off) pair is
// measured, interleaved, so that load from elsewhere on the machine falls
// on both sides alike; the medians are logged.
const metricsRounds = 7

// BenchmarkObservabilityOverhead measures GET /api/applications/random
// (the review queue) and POST /api/review/submit through the whole HTTP
// stack, on one seeded database, against two apps: one with neither
// METRICS_ADDR nor tracing, and one with both: the request counter and
// histogram, the Temporal SDK's reporter and a scrape of /metrics before
// each round, and every request traced (request, query and workflow
// spans) into an in-process OTLP/HTTP collector, batched as in
// production (the collector reads and drops what it gets). It prints each
// side's median ns/op over the rounds and the overhead:
//
//	go test -count=1 -run '^$' -bench BenchmarkObservabilityOverhead -benchtime 2s ./e2e/
func BenchmarkObservabilityOverhead(b *testing.B) {
	ctx := context.Background()
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
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

	off, reviewers := benchApp(b)
	cfg := off.Config
	cfg.MetricsAddr = "127.0.0.1:0"
	on := testenv.AppWith(b, cfg, app.WithTracerProvider(tp)) // the same database, task queue and seed
	apps := submittedApps(b, off)
	tokens := make([]string, len(reviewers))
	for i, r := range reviewers {
		tokens[i] = newSession(b, off.Store, r)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var pair atomic.Int64 // (application, reviewer) pairs, shared so none repeats
	type side struct {
		name string
		app  *app.App
	}
	sides := []side{{"off", off}, {"on", on}}
	results := map[string][]float64{} // "queue/on" → ns/op of each round
	for round := 1; round <= metricsRounds; round++ {
		// Alternate which side goes first: the reviews table grows as
		// the rounds go, and neither side should always run on the
		// bigger one.
		order := sides
		if round%2 == 0 {
			order = []side{sides[1], sides[0]}
		}
		for _, s := range order {
			if s.app.MetricsURL() != "" {
				scrapeBench(b, s.app)
			}
			for _, ep := range []string{"queue", "submit"} {
				key := ep + "/" + s.name
				var last float64
				b.Run(fmt.Sprintf("%s/round%d", key, round), func(b *testing.B) {
					var i atomic.Int64
					b.ResetTimer()
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							var req *http.Request
							if ep == "queue" {
								req, _ = http.NewRequest(http.MethodGet, s.app.URL()+"/api/applications/random", nil)
								req.Header.Set("Authorization", "Bearer "+tokens[int(i.Add(1))%len(tokens)])
							} else {
								// Reviewer by reviewer, so none runs out of
								// applications for the queue.
								k := int(pair.Add(1))
								j := k % len(reviewers)
								body, _ := json.Marshal(map[string]any{"application_id": apps[(k/len(reviewers))%len(apps)],
									"resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2})
								req, _ = http.NewRequest(http.MethodPost, s.app.URL()+"/api/review/submit", bytes.NewReader(body))
								req.Header.Set("Content-Type", "application/json")
								req.Header.Set("Authorization", "Bearer "+tokens[j])
							}
							resp, err := client.Do(req)
							if err != nil {
								b.Error(err)
								return
							}
							_, _ = io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
							// A pair the seed reviewed already (409) or a
							// conflict of interest (403) is a full answer too.
							if st := resp.StatusCode; st != http.StatusOK && st != http.StatusConflict && st != http.StatusForbidden {
								b.Errorf("%s: status %d", ep, st)
								return
							}
						}
					})
					// The last call is the one reported (the largest b.N).
					last = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				})
				results[key] = append(results[key], last)
			}
		}
	}
	for _, ep := range []string{"queue", "submit"} {
		offMed, onMed := median(results[ep+"/off"]), median(results[ep+"/on"])
		// Printed, not logged: a parent benchmark's log is dropped.
		fmt.Printf("metrics and tracing overhead %s: median %.0f ns/op off, %.0f ns/op on (%d rounds): %+.1f%%\n",
			ep, offMed, onMed, metricsRounds, 100*(onMed-offMed)/offMed)
	}
}

// submittedApps are the seeded submitted applications' ids.
func submittedApps(b *testing.B, a *app.App) []uuid.UUID {
	b.Helper()
	rows, err := a.Store.Pool().Query(context.Background(), `SELECT id FROM applications WHERE status = 'submitted' ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var apps []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		apps = append(apps, id)
	}
	return apps
}

// scrapeBench reads /metrics once, as Prometheus would between rounds.
func scrapeBench(b *testing.B, a *app.App) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.MetricsURL(), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
