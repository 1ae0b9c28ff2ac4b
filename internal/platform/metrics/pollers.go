package metrics

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
)

// QueuePollers is how many workers polled one task queue recently, for
// one kind of task, as the Temporal server reports it.
type QueuePollers struct {
	TaskQueue string
	Type      string // workflow or activity
	Pollers   int
}

// PollersFunc reads the pollers of the task queues a process knows of.
type PollersFunc func(ctx context.Context) ([]QueuePollers, error)

// WatchPollers registers a gauge read at scrape time from read: the
// workers polling each task queue, as Temporal sees them. Every process
// reports the same numbers (the server's view, not its own workers'), so
// a fleet whose workers are all gone still shows 0 from its API processes:
// the alert HackdeskTaskQueueNoPollers. Call it once.
func (m *Metrics) WatchPollers(read PollersFunc) {
	if m == nil || read == nil {
		return
	}
	m.pollers.read = read
	m.Registry.MustRegister(m.pollers)
}

type pollersCollector struct {
	read PollersFunc
	m    *Metrics
	desc *prometheus.Desc
}

func newPollersCollector(m *Metrics) *pollersCollector {
	return &pollersCollector{m: m, desc: prometheus.NewDesc(m.define("temporal_pollers", "gauge"),
		"Workers that polled the task queue recently for this type of task (workflow or activity), as the Temporal server reports them.",
		[]string{"task_queue", "type"}, nil)}
}

func (c *pollersCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect leaves the gauge out of a scrape whose reading failed (Temporal
// out of reach), rather than report no pollers.
func (c *pollersCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	qs, err := c.read(ctx)
	if err != nil {
		c.m.log.Warn("metrics: task queue pollers unreadable; left out of this scrape", "err", err)
		return
	}
	for _, q := range qs {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(q.Pollers), q.TaskQueue, q.Type)
	}
}
