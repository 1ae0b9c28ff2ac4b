// Package metrics is hackdesk's Prometheus instrumentation: one registry
// per process (never the global default one, so tests can run several
// apps in one process), built here and handed to the parts that count,
// and the handler that serves it on the metrics listener (METRICS_ADDR).
//
// Every method is safe on a nil *Metrics and then counts nothing: a
// process without METRICS_ADDR builds none.
//
// No label holds a path, an id, an email address or any other value a
// client chooses: HTTP requests are labelled by their chi route pattern,
// the rest by small fixed sets (limiter names, outcomes, drivers,
// workflow types).
package metrics

import (
	"log/slog"
	"net/http"
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric hackdesk defines (the Temporal SDK's
// own start with temporal_).
const Namespace = "hackdesk"

// Unmatched is the route label of a request no route matched, so a
// probe of random paths adds no series.
const Unmatched = "unmatched"

// Metrics holds a process's registry and the instruments its parts count
// with.
type Metrics struct {
	// Registry is the process's registry: everything /metrics shows.
	Registry *prometheus.Registry
	log      *slog.Logger

	httpRequests      *prometheus.CounterVec
	httpDuration      *prometheus.HistogramVec
	outboxAttempts    *prometheus.CounterVec
	outboxFailures    *prometheus.CounterVec
	rateLimitRefusals *prometheus.CounterVec
	webhooks          *prometheus.CounterVec
	emails            *prometheus.CounterVec
	// pool and outbox are read at scrape time, once WatchStore gives
	// them a store.
	pool   *poolCollector
	outbox *outboxCollector
	// pollers is read at scrape time, once WatchPollers gives it a
	// reader.
	pollers *pollersCollector

	mu    sync.Mutex
	names map[string]string // metric name → type, of every metric defined here
}

// New builds a registry with hackdesk's instruments, the Go runtime's and
// the process's collectors. A nil log is slog.Default().
func New(log *slog.Logger) *Metrics {
	if log == nil {
		log = slog.Default()
	}
	m := &Metrics{Registry: prometheus.NewRegistry(), log: log, names: map[string]string{}}
	m.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.httpRequests = m.counter("http_requests_total",
		"HTTP requests answered, by chi route pattern (unmatched: no route), method and status code.",
		"route", "method", "code")
	m.httpDuration = m.histogram("http_request_duration_seconds",
		"Time to answer an HTTP request, by chi route pattern and method.",
		prometheus.DefBuckets, "route", "method")
	m.outboxAttempts = m.counter("outbox_dispatch_attempts_total",
		"Workflow starts the outbox dispatcher attempted, by workflow type.", "workflow_type")
	m.outboxFailures = m.counter("outbox_dispatch_failures_total",
		"Workflow starts that failed and were put back for a retry, by workflow type.", "workflow_type")
	m.rateLimitRefusals = m.counter("ratelimit_refusals_total",
		"Requests a rate limit refused (or, for the forgot-password mail limit, served without mailing), by limiter.", "limiter")
	m.webhooks = m.counter("webhook_requests_total",
		"Posts to an inbound webhook, by webhook and outcome (the receipt's status, or the refusal).", "webhook", "outcome")
	m.emails = m.counter("emails_total",
		"Emails handed to the mail driver, by driver and outcome: sent, failed (permanent, not retried) or error (transient, retried).",
		"driver", "outcome")
	m.pool, m.outbox, m.pollers = newPoolCollector(m), newOutboxCollector(m), newPollersCollector(m)
	return m
}

func (m *Metrics) define(name, kind string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	full := Namespace + "_" + name
	m.names[full] = kind
	return full
}

func (m *Metrics) counter(name, help string, labels ...string) *prometheus.CounterVec {
	v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: m.define(name, "counter"), Help: help}, labels)
	m.Registry.MustRegister(v)
	return v
}

func (m *Metrics) histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	v := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: m.define(name, "histogram"), Help: help, Buckets: buckets}, labels)
	m.Registry.MustRegister(v)
	return v
}

// Defined lists the metrics hackdesk itself defines (not the Go
// runtime's, nor the Temporal SDK's), name → counter, gauge or histogram,
// whether or not they have a series yet.
func (m *Metrics) Defined() map[string]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]string, len(m.names))
	for k, v := range m.names {
		out[k] = v
	}
	return out
}

// DefinedNames is Defined's names, sorted.
func (m *Metrics) DefinedNames() []string {
	var out []string
	for k := range m.Defined() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Handler serves the registry in the Prometheus text (or OpenMetrics)
// format. A collector that fails is logged and left out of that scrape.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(m.log.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError,
		Registry:      m.Registry,
	})
}

// OutboxAttempt counts a workflow start the dispatcher attempted, and a
// failure when ok is false.
func (m *Metrics) OutboxAttempt(workflowType string, ok bool) {
	if m == nil {
		return
	}
	m.outboxAttempts.WithLabelValues(workflowType).Inc()
	if !ok {
		m.outboxFailures.WithLabelValues(workflowType).Inc()
	}
}

// RateLimiter makes a limiter's series exist (at 0) before its first
// refusal, so that rate() sees the first one.
func (m *Metrics) RateLimiter(name string) {
	if m == nil {
		return
	}
	m.rateLimitRefusals.WithLabelValues(name)
}

// RateLimitRefused counts a request the named limiter refused.
func (m *Metrics) RateLimitRefused(name string) {
	if m == nil {
		return
	}
	m.rateLimitRefusals.WithLabelValues(name).Inc()
}

// Webhook counts a post to the named webhook by its outcome.
func (m *Metrics) Webhook(webhook, outcome string) {
	if m == nil {
		return
	}
	m.webhooks.WithLabelValues(webhook, outcome).Inc()
}

// Email counts an email handed to driver by its outcome.
func (m *Metrics) Email(driver, outcome string) {
	if m == nil {
		return
	}
	m.emails.WithLabelValues(driver, outcome).Inc()
}
