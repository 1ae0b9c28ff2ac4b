package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// scrape reads the app's /metrics from its metrics listener.
func scrape(t *testing.T, a *app.App) map[string]*dto.MetricFamily {
	t.Helper()
	if a.MetricsURL() == "" {
		t.Fatal("the app serves no metrics")
	}
	resp, err := http.Get(a.MetricsURL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// sample is the value of the series of family name whose labels include
// want (summed over the others), and whether there is one.
func sample(families map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f, ok := families[name]
	if !ok {
		return 0, false
	}
	total, found := 0.0, false
next:
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if labels[k] != v {
				continue next
			}
		}
		found = true
		switch {
		case m.Counter != nil:
			total += m.GetCounter().GetValue()
		case m.Gauge != nil:
			total += m.GetGauge().GetValue()
		case m.Histogram != nil:
			total += float64(m.GetHistogram().GetSampleCount())
		case m.Untyped != nil:
			total += m.GetUntyped().GetValue()
		}
	}
	return total, found
}

// TestMetrics scrapes the metrics listener of a running app: a review
// submit moves its route's counter by exactly one; the pool and outbox
// gauges are there; a sign-up's email workflow shows in the outbox,
// email and Temporal SDK metrics; and no label anywhere holds the email
// address or an id from a path.
func TestMetrics(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.MetricsAddr = "127.0.0.1:0"
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	me := account(t, a, "metrics-reviewer@example.com", "Reviewer", "admin")
	owner := account(t, a, "metrics-owner@example.com", "Owner", "member")
	appID := seedApplication(t, a, owner, "submitted")
	c := as(t, a, anon, me)

	submit := map[string]string{"route": "/api/review/submit", "method": "POST", "code": "200"}
	before, _ := sample(scrape(t, a), "hackdesk_http_requests_total", submit)
	score(t, c, appID, http.StatusOK)
	c.expect(http.StatusOK, "GET", "/api/admin/applications/"+appID.String(), nil)
	families := scrape(t, a)
	after, ok := sample(families, "hackdesk_http_requests_total", submit)
	if !ok || after-before != 1 {
		t.Errorf("POST /api/review/submit 200: %v before, %v after (present %v), want exactly one more", before, after, ok)
	}
	if n, ok := sample(families, "hackdesk_http_request_duration_seconds", map[string]string{"route": "/api/review/submit", "method": "POST"}); !ok || n < 1 {
		t.Errorf("latency histogram of /api/review/submit: %v observations (present %v)", n, ok)
	}
	for _, name := range []string{"hackdesk_db_pool_total_conns", "hackdesk_db_pool_max_conns", "hackdesk_db_pool_acquires_total",
		"hackdesk_outbox_pending", "hackdesk_outbox_lag_seconds", "go_goroutines"} {
		if _, ok := sample(families, name, nil); !ok {
			t.Errorf("%s missing from /metrics", name)
		}
	}
	if n, _ := sample(families, "hackdesk_db_pool_max_conns", nil); n < 1 {
		t.Errorf("hackdesk_db_pool_max_conns = %v", n)
	}

	// A sign-up queues a SendEmail workflow through the outbox; the
	// worker sends it with the log driver.
	const email = "metrics-signup@example.com"
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": email, "password": "analytical-engine-42", "display_name": "Metrics"})
	sendEmail := map[string]string{"workflow_type": "SendEmail"}
	testenv.Eventually(t, 60*time.Second, func() (bool, string) {
		families = scrape(t, a)
		var seen []string
		for _, want := range []struct {
			name   string
			labels map[string]string
		}{
			{"hackdesk_outbox_dispatch_attempts_total", sendEmail},
			{"hackdesk_emails_total", map[string]string{"driver": "log", "outcome": "sent"}},
			{"temporal_workflow_completed_total", sendEmail},
			{"temporal_request_total", nil},
			{"temporal_workflow_endtoend_latency_seconds", sendEmail},
			{"temporal_workflow_task_schedule_to_start_latency_seconds", nil},
		} {
			if n, _ := sample(families, want.name, want.labels); n < 1 {
				seen = append(seen, fmt.Sprintf("%s%v = %v", want.name, want.labels, n))
			}
		}
		return len(seen) == 0, strings.Join(seen, "; ")
	})
	if n, ok := sample(families, "hackdesk_outbox_dispatch_failures_total", sendEmail); ok && n != 0 {
		t.Errorf("outbox failures %v, want none", n)
	}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				v := l.GetValue()
				if strings.Contains(v, "@") || strings.Contains(v, appID.String()) {
					t.Errorf("%s has label %s=%q", name, l.GetName(), v)
				}
			}
		}
	}
}

// TestMetricsAddrTaken: a METRICS_ADDR that cannot be bound stops start-up
// with an error naming it.
func TestMetricsAddrTaken(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.MetricsAddr = "127.0.0.1:0"
	first := testenv.App(t, cfg)
	cfg = testenv.Config(t)
	cfg.MetricsAddr = first.MetricsAddr()
	a, err := app.Open(context.Background(), cfg, testenv.Logger(t), io.Discard)
	if err == nil {
		a.Close()
		t.Fatalf("Open with METRICS_ADDR=%s (taken) succeeded", cfg.MetricsAddr)
	}
	if !strings.Contains(err.Error(), "METRICS_ADDR") {
		t.Errorf("error %q does not name METRICS_ADDR", err)
	}
}

// TestPollersGauge: an API process reports, from the Temporal server, the
// workers polling its task queues: none before any worker runs (the
// alert HackdeskTaskQueueNoPollers), then the worker that starts, on each
// queue it polls.
func TestPollersGauge(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	apiCfg := cfg
	apiCfg.MetricsAddr = "127.0.0.1:0"
	api, err := app.Open(context.Background(), apiCfg, testenv.Logger(t), testenv.Mail)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Close)
	queues := []map[string]string{
		{"task_queue": cfg.TaskQueue, "type": "workflow"},
		{"task_queue": cfg.TaskQueue, "type": "activity"},
		{"task_queue": cfg.TaskQueue + "-broadcast", "type": "activity"},
	}
	families := scrape(t, api)
	for _, q := range queues {
		if n, ok := sample(families, "hackdesk_temporal_pollers", q); !ok || n != 0 {
			t.Errorf("pollers %v before any worker = %v (present %v), want 0", q, n, ok)
		}
	}
	testenv.App(t, cfg) // a worker on the queues
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		families := scrape(t, api)
		for _, q := range queues {
			if n, _ := sample(families, "hackdesk_temporal_pollers", q); n < 1 {
				return false, fmt.Sprintf("pollers %v = %v", q, n)
			}
		}
		return true, ""
	})
}
