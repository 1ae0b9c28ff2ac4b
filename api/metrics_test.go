package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"
	dto "github.com/prometheus/client_model/go"

	"hackdesk/internal/platform/metrics"
)

// TestMetricsRouteLabels sends requests that carry an id, an unknown path
// and a method no route has through the real router, and checks that the
// request counter is labelled by route pattern (or "unmatched") and that
// no label value anywhere in the registry holds the id or the path.
func TestMetricsRouteLabels(t *testing.T) {
	m := metrics.New(nil)
	s := New(Deps{Auth: fixedAuth{}, Metrics: m})
	id := uuid.New().String()
	secret := "no-such-page-" + uuid.New().String()
	reqs := []struct {
		method, path string
		route        string
	}{
		{"GET", "/api/admin/applications/" + id, "/api/admin/applications/{id}"},
		{"GET", "/api/admin/applications/" + id, "/api/admin/applications/{id}"},
		{"GET", "/api/" + secret, metrics.Unmatched},
		{"GET", "/" + secret + "/" + id, metrics.Unmatched},
		{"PROPFIND", "/api/admin/applications/" + id, metrics.Unmatched},
		{"GET", "/healthz", "/healthz"},
	}
	codes := map[string]string{}
	for _, rq := range reqs {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(rq.method, rq.path, nil))
		codes[rq.method+" "+rq.path] = http.StatusText(w.Code)
	}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]float64{} // route|method → requests
	for _, f := range families {
		for _, mt := range f.GetMetric() {
			for _, l := range mt.GetLabel() {
				if v := l.GetValue(); strings.Contains(v, id) || strings.Contains(v, secret) {
					t.Errorf("%s has label %s=%q: a raw path or id", f.GetName(), l.GetName(), v)
				}
			}
			if f.GetName() == "hackdesk_http_requests_total" {
				counts[label(mt, "route")+"|"+label(mt, "method")] += mt.GetCounter().GetValue()
			}
		}
	}
	want := map[string]float64{}
	for _, rq := range reqs {
		method := rq.method
		if method == "PROPFIND" {
			method = "other"
		}
		want[rq.route+"|"+method]++
	}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("requests{route|method=%s} = %v, want %v (all: %v; answers %v)", k, counts[k], n, counts, codes)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("series %v, want exactly %v", counts, want)
	}
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
