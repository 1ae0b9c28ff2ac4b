package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/metrics"
	"hackdesk/internal/platform/searchattrs"
	"hackdesk/workflows"
)

// appMetrics is what an App keeps of its metrics: the listener serving
// them and the Temporal SDK's reporter.
type appMetrics struct {
	server   *http.Server
	mux      *http.ServeMux
	ln       net.Listener
	served   chan struct{}
	temporal client.MetricsHandler
	closer   io.Closer
}

// openMetrics builds the process's registry and serves GET /metrics on
// METRICS_ADDR, when it is set; else a.Metrics stays nil and nothing is
// counted. It runs before Temporal is dialled: the client (and the workers
// built on it) report through the registry.
func (a *App) openMetrics() error {
	addr := a.Config.MetricsAddr
	if addr == "" {
		return nil
	}
	if err := config.CheckMetricsAddr(addr); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("METRICS_ADDR: listen on %s: %w", addr, err)
	}
	m := metrics.New(a.Log.With("component", "metrics"))
	m.WatchStore(a.Store)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	a.Metrics = m
	a.metrics.ln, a.metrics.mux = ln, mux
	a.metrics.temporal, a.metrics.closer = m.TemporalHandler()
	a.metrics.server = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      time.Minute,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
	a.metrics.served = make(chan struct{})
	go func() {
		defer close(a.metrics.served)
		_ = a.metrics.server.Serve(ln)
	}()
	return nil
}

// MetricsAddr is the metrics listener's bound address, or "" without
// METRICS_ADDR.
func (a *App) MetricsAddr() string {
	if a.metrics.ln == nil {
		return ""
	}
	return a.metrics.ln.Addr().String()
}

// MetricsURL is the metrics page's address, or "" without METRICS_ADDR.
func (a *App) MetricsURL() string {
	if a.metrics.ln == nil {
		return ""
	}
	return "http://" + a.MetricsAddr() + "/metrics"
}

// closeMetrics stops the metrics listener and the Temporal SDK's
// reporter (after the client is closed).
func (a *App) closeMetrics() {
	if a.metrics.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = a.metrics.server.Shutdown(ctx)
		cancel()
		<-a.metrics.served
	}
	if a.metrics.closer != nil {
		_ = a.metrics.closer.Close()
	}
}

// readPollers reads, from the Temporal server, how many workers polled
// each of the app's task queues recently: the workflow and activity tasks
// of TEMPORAL_TASK_QUEUE, the activity tasks of its broadcast queue.
func (a *App) readPollers(ctx context.Context) ([]metrics.QueuePollers, error) {
	queues := []struct {
		name string
		typ  enumspb.TaskQueueType
		kind string
	}{
		{a.Config.TaskQueue, enumspb.TASK_QUEUE_TYPE_WORKFLOW, "workflow"},
		{a.Config.TaskQueue, enumspb.TASK_QUEUE_TYPE_ACTIVITY, "activity"},
		{workflows.BroadcastTaskQueue(a.Config.TaskQueue), enumspb.TASK_QUEUE_TYPE_ACTIVITY, "activity"},
	}
	out := make([]metrics.QueuePollers, 0, len(queues))
	for _, q := range queues {
		d, err := a.Temporal.DescribeTaskQueue(ctx, q.name, q.typ)
		if err != nil {
			return nil, err
		}
		out = append(out, metrics.QueuePollers{TaskQueue: q.name, Type: q.kind, Pollers: len(d.GetPollers())})
	}
	return out, nil
}

// serveReadyz adds GET /readyz to the metrics listener, once Temporal is
// dialled: a worker serves no API, and its orchestrator probes it there.
// It answers as the API's /readyz does, without the outbox: 200 when
// PostgreSQL and Temporal answer within two seconds and the namespace has
// the workflows' search attributes, else 503, with each check.
func (a *App) serveReadyz() {
	if a.metrics.mux == nil {
		return
	}
	a.metrics.mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := map[string]string{"database": "ok", "temporal": "ok"}
		ready := true
		if err := a.Store.Pool().Ping(ctx); err != nil {
			checks["database"], ready = "unavailable", false
		}
		if _, err := a.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
			checks["temporal"], ready = "unavailable", false
		}
		sa := a.SearchAttributes.Check(ctx)
		checks["search_attributes"] = sa.Status
		if sa.Status == searchattrs.Missing {
			ready = false
		}
		body := map[string]any{"status": "ready", "checks": checks}
		status := http.StatusOK
		if !ready {
			body["status"], status = "unavailable", http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	})
}
