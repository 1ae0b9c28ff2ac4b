package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// HTTP counts and times the requests next answers. It goes on a chi
// router (first, so that it times everything after it): the route label
// is the pattern chi matched (/api/admin/applications/{id}), read once
// the request is answered, and Unmatched when no route matched. The raw
// path never becomes a label. On a nil Metrics it is next unchanged.
func (m *Metrics) HTTP(next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		defer func() {
			// A panic that gets here (the API turns its own into 500s) is
			// passed on to the server, counted as a 500.
			if v := recover(); v != nil {
				m.observe(r, http.StatusInternalServerError, start)
				panic(v)
			}
		}()
		next.ServeHTTP(ww, r)
		status := ww.Status()
		if status == 0 { // nothing written: net/http answers 200
			status = http.StatusOK
		}
		m.observe(r, status, start)
	})
}

func (m *Metrics) observe(r *http.Request, status int, start time.Time) {
	route, method := RouteOf(r), methodLabel(r.Method)
	m.httpRequests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.httpDuration.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
}

// RouteOf is the chi route pattern r matched, or Unmatched. A request
// answered by a middleware before routing (a policy refusal) has no
// pattern yet: it is looked up in the router.
func RouteOf(r *http.Request) string {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return Unmatched
	}
	p := rc.RoutePattern()
	if p == "" && rc.Routes != nil {
		path := r.URL.RawPath
		if path == "" {
			path = r.URL.Path
		}
		p = rc.Routes.Find(chi.NewRouteContext(), r.Method, path)
	}
	if p == "" {
		return Unmatched
	}
	return p
}

// methodLabel keeps the method label to the standard methods: a client
// can send any token as a method.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}
