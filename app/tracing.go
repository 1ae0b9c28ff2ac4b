package app

import (
	"context"
	"log/slog"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/interceptor"

	"hackdesk/db"
	"hackdesk/internal/platform/tracing"
)

// Option adjusts Open.
type Option func(*openOptions)

type openOptions struct {
	tracer          trace.TracerProvider
	stopTimeout     time.Duration
	ensureSchedules ScheduleEnsurer
}

// WithWorkerStopTimeout gives running activities d instead of
// worker.StopTimeout when the workers stop (tests).
func WithWorkerStopTimeout(d time.Duration) Option {
	return func(o *openOptions) { o.stopTimeout = d }
}

// WithTracerProvider traces the app on tp (tests: an in-memory exporter)
// whatever OTEL_EXPORTER_OTLP_ENDPOINT says. The caller shuts tp down.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *openOptions) { o.tracer = tp }
}

// openTracing picks the tracer provider: the option's, else an OTLP one
// when OTEL_EXPORTER_OTLP_ENDPOINT is set (shut down, and so flushed, by
// Close), else none. With one, the logger adds trace_id to lines logged
// within a span.
func (a *App) openTracing(ctx context.Context) error {
	a.Tracer = a.opts.tracer
	if a.Tracer == nil && a.Config.OTLPEndpoint != "" {
		tp, err := tracing.OTLP(ctx, a.Config.OTLPEndpoint)
		if err != nil {
			return err
		}
		a.Tracer, a.shutdownTracing = tp, func() { shutdownProvider(tp) }
	}
	if a.Tracer != nil {
		a.Log = slog.New(tracing.LogHandler(a.Log.Handler()))
	}
	return nil
}

func shutdownProvider(tp *sdktrace.TracerProvider) {
	ctx, cancel := context.WithTimeout(context.Background(), tracingFlushTimeout)
	defer cancel()
	_ = tp.Shutdown(ctx)
}

// dbOptions trace the pool's statements when tracing is on.
func (a *App) dbOptions() []db.Option {
	if a.Tracer == nil {
		return nil
	}
	return []db.Option{db.WithTracer(tracing.PGXTracer(a.Tracer))}
}

// temporalInterceptors trace workflow starts, workflows and activities
// when tracing is on.
func (a *App) temporalInterceptors() ([]interceptor.ClientInterceptor, error) {
	if a.Tracer == nil {
		return nil, nil
	}
	i, err := tracing.TemporalInterceptor(a.Tracer)
	if err != nil {
		return nil, err
	}
	return []interceptor.ClientInterceptor{i}, nil
}
