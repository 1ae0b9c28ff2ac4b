package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
)

// traced wraps the router in one span per request when tracing is on (tp
// not nil); without it the router is served as it is. The site is a
// public endpoint: a client's traceparent is linked, never joined, so no
// caller picks the trace its requests land in.
func traced(tp trace.TracerProvider, router http.Handler) http.Handler {
	if tp == nil {
		return router
	}
	return otelhttp.NewHandler(router, "http",
		otelhttp.WithTracerProvider(tp),
		otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()),
		otelhttp.WithPublicEndpointFn(func(*http.Request) bool { return true }),
		// Until routing names it (routeSpanName): the method alone, never
		// the raw path (it may hold ids of anything).
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }),
	)
}

// routeSpanName names the request's span by the chi route pattern once
// the router has matched it ("GET /api/applications/random"); a request
// no route matched keeps the method alone. The router's first middleware
// when tracing is on.
func routeSpanName(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		span := trace.SpanFromContext(r.Context())
		if !span.IsRecording() {
			return
		}
		if rc := chi.RouteContext(r.Context()); rc != nil {
			if p := rc.RoutePattern(); p != "" && p != "/*" {
				span.SetName(r.Method + " " + p)
				span.SetAttributes(attribute.String("http.route", p))
			}
		}
	})
}
