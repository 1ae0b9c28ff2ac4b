package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"hackdesk/internal/platform/metrics"
)

// BenchmarkHTTPMiddleware is the cost the request metrics add to one
// request, apart from the rest of the stack: a chi router with one
// parameterised route, without (off) and with (on) Metrics.HTTP.
func BenchmarkHTTPMiddleware(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		r := chi.NewRouter()
		if on {
			name = "on"
			r.Use(metrics.New(nil).HTTP)
		}
		r.Get("/api/admin/applications/{id}", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
		})
		b.Run(name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/api/admin/applications/0b6c4a5e-4bb5-4d43-9a3f-1f2b1e0c9d11", nil)
			b.ReportAllocs()
			for b.Loop() {
				r.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
