package tracing_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"hackdesk/internal/platform/tracing"
)

func TestStatementName(t *testing.T) {
	for sql, want := range map[string]string{
		"-- name: WorkflowStartInsert :execrows\nINSERT INTO workflow_starts VALUES ($1)": "WorkflowStartInsert",
		"  --name: ReceiptLock :one\nSELECT 1":                                            "ReceiptLock",
		"LISTEN workflow_starts":                                                          "LISTEN",
		"\n  -- a comment\n  select id FROM profiles WHERE email = 'x@y.z'":               "SELECT",
		"'quoted' nonsense":                                                               "query",
		"":                                                                                "query",
	} {
		if got := tracing.StatementName(sql); got != want {
			t.Errorf("StatementName(%q) = %q, want %q", sql, got, want)
		}
	}
}

func newProvider(t *testing.T) (*sdktrace.TracerProvider, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp, err := tracing.NewProvider(context.Background(), sdktrace.WithSyncer(exp))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, exp
}

func TestTraceParentRoundTrip(t *testing.T) {
	if got := tracing.TraceParent(context.Background()); got != "" {
		t.Fatalf("TraceParent without a span = %q, want empty", got)
	}
	tp, exp := newProvider(t)
	ctx, span := tp.Tracer("test").Start(context.Background(), "request")
	parent := tracing.TraceParent(ctx)
	if !strings.HasPrefix(parent, "00-"+span.SpanContext().TraceID().String()+"-") {
		t.Fatalf("traceparent %q does not carry trace %s", parent, span.SpanContext().TraceID())
	}
	span.End()

	// Restored in another process's context, a new span joins the trace
	// as the request span's child.
	restored := tracing.WithTraceParent(context.Background(), parent)
	_, child := tp.Tracer("test").Start(restored, "dispatch")
	child.End()
	spans := exp.GetSpans()
	if len(spans) != 2 || spans[1].SpanContext.TraceID() != spans[0].SpanContext.TraceID() ||
		spans[1].Parent.SpanID() != spans[0].SpanContext.SpanID() {
		t.Fatalf("restored span is not the request's child: %+v", spans)
	}
	if ctx := tracing.WithTraceParent(context.Background(), "garbage"); trace.SpanContextFromContext(ctx).IsValid() {
		t.Fatal("a malformed traceparent gave a span context")
	}
}

func TestLogHandlerAddsTraceID(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(tracing.LogHandler(slog.NewTextHandler(&buf, nil))).With("component", "x")
	log.InfoContext(context.Background(), "no span")
	if strings.Contains(buf.String(), "trace_id") {
		t.Fatalf("trace_id without a span: %s", buf.String())
	}
	tp, _ := newProvider(t)
	ctx, span := tp.Tracer("test").Start(context.Background(), "request")
	defer span.End()
	buf.Reset()
	log.InfoContext(ctx, "in a span")
	if !strings.Contains(buf.String(), "trace_id="+span.SpanContext().TraceID().String()) ||
		!strings.Contains(buf.String(), "component=x") {
		t.Fatalf("log line %q lacks the span's trace_id or the logger's attributes", buf.String())
	}
}
