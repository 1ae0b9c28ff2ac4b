package api

import (
	"context"
	"net/http"
	"runtime/debug"
	"time"

	"go.temporal.io/sdk/client"
)

func debugStack() []byte { return debug.Stack() }

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 only when the database and Temporal both answer
// within two seconds.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]string{"database": "ok", "temporal": "ok"}
	ready := true
	if s.store == nil || s.store.Ping(ctx) != nil {
		checks["database"], ready = "unavailable", false
	}
	if s.temporal == nil {
		checks["temporal"], ready = "unavailable", false
	} else if _, err := s.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		checks["temporal"], ready = "unavailable", false
	}
	if !ready {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": "Service unavailable", "checks": checks})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "checks": checks})
}

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(openAPISpec)
}
