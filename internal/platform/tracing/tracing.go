// Package tracing is hackdesk's OpenTelemetry tracing: the OTLP exporter
// when OTEL_EXPORTER_OTLP_ENDPOINT is set, and the pieces every role
// shares (the Temporal interceptor, the pgx query tracer, the outbox's
// traceparent, the log handler adding trace_id).
//
// Without an endpoint there is no provider at all (a nil
// trace.TracerProvider): nothing is wrapped, nothing is recorded, and the
// log handler only looks for a span that is never there.
//
// Span attributes carry ids, route patterns and statement names only:
// never an email address, a token, a query's arguments or a secret.
package tracing

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
)

// ServiceName is the service.name of hackdesk's spans unless
// OTEL_SERVICE_NAME says otherwise.
const ServiceName = "hackdesk"

// Name is the instrumentation name of hackdesk's own spans.
const Name = "hackdesk"

// OTLP returns a tracer provider exporting over OTLP/HTTP to endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://collector:4318), batched. The
// exporter reads the rest of the standard OTEL_EXPORTER_OTLP_* variables
// (headers, timeout, a traces-only endpoint) and the provider
// OTEL_TRACES_SAMPLER; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name
// the service. The caller shuts it down (which flushes).
func OTLP(ctx context.Context, endpoint string) (*sdktrace.TracerProvider, error) {
	if endpoint == "" {
		return nil, fmt.Errorf("tracing: no OTLP endpoint")
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	return NewProvider(ctx, sdktrace.WithBatcher(exp))
}

// NewProvider is a tracer provider with hackdesk's resource and the given
// span processors (tests pass a syncer over an in-memory exporter).
func NewProvider(ctx context.Context, opts ...sdktrace.TracerProviderOption) (*sdktrace.TracerProvider, error) {
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", ServiceName)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("tracing: resource: %w", err)
	}
	return sdktrace.NewTracerProvider(append([]sdktrace.TracerProviderOption{sdktrace.WithResource(res)}, opts...)...), nil
}

// propagator is the W3C trace context: the traceparent header.
var propagator = propagation.TraceContext{}

// TraceParent is the W3C traceparent of ctx's span; empty when ctx has
// no sampled span (tracing off, or a request without one).
func TraceParent(ctx context.Context) string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	propagator.Inject(ctx, c)
	return c.Get("traceparent")
}

// WithTraceParent is ctx carrying traceparent's span as its remote parent
// (ctx itself when traceparent is empty or malformed), so that spans
// started from it join that trace.
func WithTraceParent(ctx context.Context, traceparent string) context.Context {
	if traceparent == "" {
		return ctx
	}
	return propagator.Extract(ctx, propagation.MapCarrier{"traceparent": traceparent})
}

// TemporalInterceptor is Temporal's OpenTelemetry tracing interceptor on
// tp: set on the client, it traces starts and signals, and the workers
// made from that client trace workflows and activities, each span a child
// of the one that started it (through the workflow's headers).
// Workflow and activity log lines carry trace_id and span_id, as the
// service's own do.
func TemporalInterceptor(tp trace.TracerProvider) (interceptor.Interceptor, error) {
	t, err := temporalotel.NewTracer(temporalotel.TracerOptions{
		Tracer: tp.Tracer("temporal-sdk-go"),
		// Queries are the UI's and the pages' progress polls: noise.
		DisableQueryTracing: true,
	})
	if err != nil {
		return nil, err
	}
	return interceptor.NewTracingInterceptor(temporalTracer{t}), nil
}

// temporalTracer is the contrib tracer with the service's log keys.
type temporalTracer struct{ interceptor.Tracer }

func (t temporalTracer) GetLogger(logger sdklog.Logger, ref interceptor.TracerSpanRef) sdklog.Logger {
	s, ok := ref.(interface{ SpanContext() trace.SpanContext })
	if !ok || !s.SpanContext().IsValid() {
		return logger
	}
	return sdklog.With(logger, "trace_id", s.SpanContext().TraceID().String(), "span_id", s.SpanContext().SpanID().String())
}

// PGXTracer traces the statements run within a span on tp (a request, an
// activity): one span each, named by the query's sqlc name
// (StatementName), with neither the SQL text nor its arguments among the
// attributes. Statements outside any span (the outbox dispatcher's polls)
// are not traced: each would be a trace of its own, every few seconds.
func PGXTracer(tp trace.TracerProvider) pgx.QueryTracer {
	return childOnly{otelpgx.NewTracer(
		otelpgx.WithTracerProvider(tp),
		otelpgx.WithMeterProvider(metricnoop.NewMeterProvider()),
		otelpgx.WithSpanNameFunc(StatementName),
		otelpgx.WithDisableSQLStatementInAttributes(),
		otelpgx.WithDisableConnectionDetailsInAttributes(),
		otelpgx.WithDisableAcquireTracer(),
	)}
}

// childOnly passes statements with a span in their context to the pgx
// tracer. The ends need no test: without a span started, the context's
// span is the no-op one, and ending it does nothing.
type childOnly struct{ t *otelpgx.Tracer }

func inSpan(ctx context.Context) bool { return trace.SpanContextFromContext(ctx).IsValid() }

func (c childOnly) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if !inSpan(ctx) {
		return ctx
	}
	return c.t.TraceQueryStart(ctx, conn, data)
}

func (c childOnly) TraceQueryEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryEndData) {
	c.t.TraceQueryEnd(ctx, conn, data)
}

func (c childOnly) TraceBatchStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	if !inSpan(ctx) {
		return ctx
	}
	return c.t.TraceBatchStart(ctx, conn, data)
}

func (c childOnly) TraceBatchQuery(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchQueryData) {
	if inSpan(ctx) {
		c.t.TraceBatchQuery(ctx, conn, data)
	}
}

func (c childOnly) TraceBatchEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchEndData) {
	c.t.TraceBatchEnd(ctx, conn, data)
}

func (c childOnly) TraceCopyFromStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceCopyFromStartData) context.Context {
	if !inSpan(ctx) {
		return ctx
	}
	return c.t.TraceCopyFromStart(ctx, conn, data)
}

func (c childOnly) TraceCopyFromEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceCopyFromEndData) {
	c.t.TraceCopyFromEnd(ctx, conn, data)
}

// sqlcName is sqlc's header of a generated query: "-- name: X :one".
var sqlcName = regexp.MustCompile(`^\s*--\s*name:\s*([A-Za-z0-9_]+)`)

// StatementName names a statement for its span: the sqlc query name, else
// the statement's first keyword (SELECT, LISTEN, ...), never its text.
func StatementName(sql string) string {
	if m := sqlcName.FindStringSubmatch(sql); m != nil {
		return m[1]
	}
	for _, line := range strings.Split(sql, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "--") {
			continue
		}
		word, _, _ := strings.Cut(line, " ")
		word = strings.ToUpper(strings.TrimRight(word, ";("))
		if isKeyword(word) {
			return word
		}
		break
	}
	return "query"
}

func isKeyword(w string) bool {
	if w == "" || len(w) > 16 {
		return false
	}
	for _, r := range w {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// LogHandler wraps h so that a record logged with a context holding a
// span carries its trace_id (and span_id): a log line leads to its trace.
func LogHandler(h slog.Handler) slog.Handler { return logHandler{h} }

type logHandler struct{ slog.Handler }

func (l logHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return l.Handler.Handle(ctx, r)
}

func (l logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return logHandler{l.Handler.WithAttrs(as)}
}

func (l logHandler) WithGroup(name string) slog.Handler {
	return logHandler{l.Handler.WithGroup(name)}
}
