package e2e

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"hackdesk/app"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/tracing"
	"hackdesk/workflows"
)

// tracedApp is a running App whose spans land, as each ends, in the
// returned in-memory exporter.
func tracedApp(t testing.TB) (*app.App, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp, err := tracing.NewProvider(context.Background(), sdktrace.WithSyncer(exp))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) }) // after the app's Close
	return testenv.AppWith(t, testenv.Config(t), app.WithTracerProvider(tp)), exp
}

// spansOf are the ended spans of one trace.
func spansOf(exp *tracetest.InMemoryExporter, id trace.TraceID) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range exp.GetSpans() {
		if s.SpanContext.TraceID() == id {
			out = append(out, s)
		}
	}
	return out
}

// awaitRun waits for a workflow's latest run to finish.
func awaitRun(t testing.TB, a *app.App, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := a.Temporal.GetWorkflow(ctx, id, "").Get(ctx, nil); err != nil {
		t.Fatalf("workflow %s: %v", id, err)
	}
}

func spanNames(spans tracetest.SpanStubs) []string {
	names := make([]string, 0, len(spans))
	for _, s := range spans {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return names
}

// TestTraceWebhookToEmail follows one membership receipt from the webhook
// post to the confirmation email's delivery: the request's span, the
// outbox's start of ReceiptProcessing under the request's traceparent, the
// workflow, its activities, the SendEmail child and its delivery, and the
// queries, all in one trace; no span attribute holds an email address or
// the webhook's token.
func TestTraceWebhookToEmail(t *testing.T) {
	t.Parallel()
	a, exp := tracedApp(t)
	f := memberFixtureOn(t, a, &client{t: t, base: a.URL()})
	jane, _ := decAccount(t, f.a, f.anon, "jane@x.test", "member")
	jane.expect(201, "POST", "/api/membership", nil)

	// A transaction of this run's own: the Temporal server outlives a run
	// (-count), and a receipt's workflow ID is its transaction's.
	tx := "TX-TRACE-" + uuid.NewString()[:8]
	raw := signedReceipt(t, receipttest.Sample{Email: "jane@x.test", TermName: f.term, TransactionID: tx})
	form := webhookForm(raw)
	exp.Reset() // the fixture's requests are other traces
	if r := postReceipt(f.anon, form); r.Status != 200 {
		t.Fatalf("post = %d %s", r.Status, r.Body)
	}
	var post tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == "POST /api/webhooks/membership" {
			post = s
		}
	}
	if !post.SpanContext.IsValid() {
		t.Fatalf("no span named by the webhook's route; spans: %v", spanNames(exp.GetSpans()))
	}
	if post.SpanKind != trace.SpanKindServer || post.Parent.IsValid() {
		t.Fatalf("webhook span kind %v parent %v, want a server root", post.SpanKind, post.Parent)
	}
	sentEmail(t, a, "jane@x.test", membership.ConfirmationKind)
	awaitRun(t, a, workflows.ReceiptProcessingID(receipttest.DevShopDomain, tx))

	// Every step, in the webhook's trace. Spans are exported as they end;
	// the last ones end just after the workflows finish.
	want := []string{
		"POST /api/webhooks/membership",
		"ReceiptTransactionClaim", // the request's queries, by sqlc name
		"WorkflowStartInsert",
		"StartWorkflow:ReceiptProcessing",
		"RunWorkflow:ReceiptProcessing",
		"StartActivity:ApplyReceipt",
		"RunActivity:ApplyReceipt",
		"StartActivity:DeliverEmail", // the run delivers its confirmation itself
		"RunActivity:DeliverEmail",
	}
	var spans tracetest.SpanStubs
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		spans = spansOf(exp, post.SpanContext.TraceID())
		have := map[string]bool{}
		for _, s := range spans {
			have[s.Name] = true
		}
		var missing []string
		for _, w := range want {
			if !have[w] {
				missing = append(missing, w)
			}
		}
		return len(missing) == 0, fmt.Sprintf("missing %v in the webhook's trace %v", missing, spanNames(spans))
	})
	t.Logf("trace %s: %d spans: %v", post.SpanContext.TraceID(), len(spans), spanNames(spans))
	// Queries are traced only within a span: the dispatcher's polls make
	// no traces of their own.
	for _, s := range exp.GetSpans() {
		if strings.Contains(s.InstrumentationScope.Name, "otelpgx") && !s.Parent.IsValid() {
			t.Errorf("query span %s is a root", s.Name)
		}
	}

	// A route with a parameter is named by its pattern, never the path;
	// a path no route matches by its method alone.
	exp.Reset()
	plain := &client{t: t, base: a.URL(), token: f.exec.token, offSpec: true}
	missing := uuid.New()
	plain.do("GET", "/api/admin/memberships/"+missing.String(), nil)
	plain.do("GET", "/api/no-such-route/"+missing.String(), nil)
	var names []string
	for _, s := range exp.GetSpans() {
		if s.SpanKind == trace.SpanKindServer {
			names = append(names, s.Name)
		}
	}
	if !slices.Equal(names, []string{"GET /api/admin/memberships/{id}", "GET"}) {
		t.Fatalf("request spans %q, want the route pattern and the bare method", names)
	}

	// Secrets stay out of attributes: the customer's address, the
	// webhook's token and signature.
	forbidden := []string{"jane@x.test", form.Get("token"), form.Get("signature")}
	for _, s := range exp.GetSpans() {
		for _, kv := range s.Attributes {
			v := kv.Value.String()
			for _, bad := range forbidden {
				if bad != "" && strings.Contains(strings.ToLower(v), strings.ToLower(bad)) {
					t.Errorf("span %s attribute %s = %q holds a secret", s.Name, kv.Key, v)
				}
			}
			if strings.Contains(v, "@") {
				t.Errorf("span %s attribute %s = %q looks like an email address", s.Name, kv.Key, v)
			}
		}
	}
}
