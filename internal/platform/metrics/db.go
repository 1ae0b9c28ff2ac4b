package metrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"hackdesk/db"
)

// scrapeTimeout bounds the outbox query a scrape makes.
const scrapeTimeout = 2 * time.Second

// WatchStore registers collectors read at scrape time from store: its
// connection pool's statistics and the outbox backlog (pending workflow
// starts and the age of the oldest, as /readyz reports them). Call it
// once.
func (m *Metrics) WatchStore(store *db.Store) {
	if m == nil || store == nil {
		return
	}
	m.pool.store, m.outbox.store = store, store
	m.Registry.MustRegister(m.pool, m.outbox)
}

type poolCollector struct {
	store *db.Store
	descs []*prometheus.Desc
	// acquired .. constructing are gauges; the rest counters.
	acquired, idle, total, max, constructing                      *prometheus.Desc
	acquires, acquireSeconds, emptyAcquires, canceledAcquires, nc *prometheus.Desc
	emptyWaitSeconds                                              *prometheus.Desc
}

func newPoolCollector(m *Metrics) *poolCollector {
	c := &poolCollector{}
	gauge := func(name, help string) *prometheus.Desc {
		d := prometheus.NewDesc(m.define(name, "gauge"), help, nil, nil)
		c.descs = append(c.descs, d)
		return d
	}
	counter := func(name, help string) *prometheus.Desc {
		d := prometheus.NewDesc(m.define(name, "counter"), help, nil, nil)
		c.descs = append(c.descs, d)
		return d
	}
	c.acquired = gauge("db_pool_acquired_conns", "Database connections in use.")
	c.idle = gauge("db_pool_idle_conns", "Idle database connections in the pool.")
	c.total = gauge("db_pool_total_conns", "Database connections open (in use, idle and being opened).")
	c.max = gauge("db_pool_max_conns", "Most database connections the pool opens.")
	c.constructing = gauge("db_pool_constructing_conns", "Database connections being opened.")
	c.acquires = counter("db_pool_acquires_total", "Connections taken from the pool.")
	c.acquireSeconds = counter("db_pool_acquire_seconds_total", "Time spent taking connections from the pool.")
	c.emptyAcquires = counter("db_pool_empty_acquires_total", "Connections taken that had to wait: the pool had none idle.")
	c.canceledAcquires = counter("db_pool_canceled_acquires_total", "Waits for a connection given up (the caller's context ended).")
	c.nc = counter("db_pool_new_conns_total", "Database connections opened.")
	c.emptyWaitSeconds = counter("db_pool_empty_acquire_wait_seconds_total", "Time spent waiting for a connection when the pool had none idle.")
	return c
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.store.Pool().Stat()
	g := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	n := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	g(c.acquired, float64(s.AcquiredConns()))
	g(c.idle, float64(s.IdleConns()))
	g(c.total, float64(s.TotalConns()))
	g(c.max, float64(s.MaxConns()))
	g(c.constructing, float64(s.ConstructingConns()))
	n(c.acquires, float64(s.AcquireCount()))
	n(c.acquireSeconds, s.AcquireDuration().Seconds())
	n(c.emptyAcquires, float64(s.EmptyAcquireCount()))
	n(c.canceledAcquires, float64(s.CanceledAcquireCount()))
	n(c.nc, float64(s.NewConnsCount()))
	n(c.emptyWaitSeconds, s.EmptyAcquireWaitTime().Seconds())
}

// outboxCollector reads the outbox backlog at scrape time. A query that
// fails leaves both gauges out of that scrape (an absent series, which
// the alert rules treat apart from a zero).
type outboxCollector struct {
	store        *db.Store
	log          *slog.Logger
	pending, lag *prometheus.Desc
}

func newOutboxCollector(m *Metrics) *outboxCollector {
	return &outboxCollector{log: m.log,
		pending: prometheus.NewDesc(m.define("outbox_pending", "gauge"),
			"Workflow starts committed by requests and not yet handed to Temporal.", nil, nil),
		lag: prometheus.NewDesc(m.define("outbox_lag_seconds", "gauge"),
			"Age of the oldest pending workflow start (0 when none is pending).", nil, nil),
	}
}

func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.pending; ch <- c.lag }

func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	row, err := c.store.WorkflowStartLag(ctx)
	if err != nil {
		c.log.Warn("metrics: outbox backlog unreadable; left out of this scrape", "err", err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(row.Pending))
	ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, row.LagSeconds)
}
