package api

import (
	"context"
	"math"
	"net/http"
	"runtime/debug"
	"time"

	"go.temporal.io/sdk/client"
)

func debugStack() []byte { return debug.Stack() }

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// outboxLag is the outbox's backlog as /readyz reports it.
type outboxLag struct {
	Pending    int64   `json:"pending"`
	LagSeconds float64 `json:"lag_seconds"`
}

// readyz answers 200 only when the database and Temporal both answer
// within two seconds. It also reports the outbox's backlog (pending starts
// and the age of the oldest), which is never a reason for 503: a backlog
// drains once Temporal is back.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]string{"database": "ok", "temporal": "ok"}
	ready := true
	var lag *outboxLag
	if s.store == nil {
		checks["database"], ready = "unavailable", false
	} else if row, err := s.store.WorkflowStartLag(ctx); err != nil {
		checks["database"], ready = "unavailable", false
	} else {
		lag = &outboxLag{Pending: row.Pending, LagSeconds: math.Round(row.LagSeconds*1000) / 1000}
	}
	if s.temporal == nil {
		checks["temporal"], ready = "unavailable", false
	} else if _, err := s.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		checks["temporal"], ready = "unavailable", false
	}
	body := map[string]any{"status": "ready", "checks": checks}
	status := http.StatusOK
	if !ready {
		body = map[string]any{"status": "unavailable", "error": "Service unavailable", "checks": checks}
		status = http.StatusServiceUnavailable
	}
	if lag != nil {
		body["outbox"] = lag
	}
	writeJSON(w, status, body)
	return nil
}

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(openAPISpec)
	return nil
}
