package api

import (
	"context"
	"math"
	"net/http"
	"runtime/debug"
	"time"

	"go.temporal.io/sdk/client"

	"hackdesk/internal/platform/searchattrs"
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

// readiness is what /readyz and the operator's page report: each check
// (database, temporal) "ok" or "unavailable", search_attributes "ok",
// "missing" (not ready: every workflow start would fail) or "unknown"
// (could not be read; Temporal's own check says whether it answers), and
// the outbox's backlog (nil when the database did not answer).
type readiness struct {
	Ready  bool
	Checks map[string]string
	Outbox *outboxLag
}

// checkReadiness asks the database and Temporal, each within two seconds.
func (s *Server) checkReadiness(ctx context.Context) readiness {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	rd := readiness{Ready: true, Checks: map[string]string{"database": "ok", "temporal": "ok"}}
	// The database's check is a direct query (one of the adapters' few): it
	// probes the database itself, and its answer (the outbox's backlog) is
	// only reported, never a rule's input.
	if s.store == nil {
		rd.Checks["database"], rd.Ready = "unavailable", false
	} else if row, err := s.store.WorkflowStartLag(ctx); err != nil {
		rd.Checks["database"], rd.Ready = "unavailable", false
	} else {
		rd.Outbox = &outboxLag{Pending: row.Pending, LagSeconds: math.Round(row.LagSeconds*1000) / 1000}
	}
	if s.temporal == nil {
		rd.Checks["temporal"], rd.Ready = "unavailable", false
	} else if _, err := s.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		rd.Checks["temporal"], rd.Ready = "unavailable", false
	}
	if s.searchAttrs != nil {
		r := s.searchAttrs.Check(ctx)
		rd.Checks["search_attributes"] = r.Status
		if r.Status == searchattrs.Missing {
			rd.Ready = false
		}
	}
	return rd
}

// readyz answers 200 only when the database and Temporal both answer
// within two seconds and the namespace has the workflows' search
// attributes. It also reports the outbox's backlog (pending starts
// and the age of the oldest), which is never a reason for 503: a backlog
// drains once Temporal is back.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	rd := s.checkReadiness(r.Context())
	body := map[string]any{"status": "ready", "checks": rd.Checks}
	status := http.StatusOK
	if !rd.Ready {
		body = map[string]any{"status": "unavailable", "error": "Service unavailable", "checks": rd.Checks}
		status = http.StatusServiceUnavailable
	}
	if rd.Outbox != nil {
		body["outbox"] = rd.Outbox
	}
	writeJSON(w, status, body)
	return nil
}

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(openAPISpec)
	return nil
}
