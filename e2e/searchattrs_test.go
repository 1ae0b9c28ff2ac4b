package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// readiness GETs a /readyz and answers its status and checks.
func readiness(t *testing.T, url string) (int, map[string]string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Checks map[string]string `json:"checks"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body.Checks
}

// TestSearchAttributesChecked: a process whose Temporal namespace lacks
// the workflows' search attributes says so at start-up, in its log (with
// the command that creates them) and on /readyz, the API's and the one on
// the metrics listener a worker is probed on (503, search_attributes
// "missing"), instead of letting every start fail; once they are created
// it is ready again.
func TestSearchAttributesChecked(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	tc := testenv.Temporal(t, cfg)
	ctx := context.Background()
	ns := "bare-" + strings.TrimPrefix(cfg.TaskQueue, "hackdesk-test-")
	if _, err := tc.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace: ns, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		_, err := tc.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
		return err == nil, fmt.Sprintf("the new namespace: %v", err)
	})
	cfg.TemporalNamespace = ns
	cfg.MetricsAddr = "127.0.0.1:0"
	var logs lockedBuffer
	a, err := app.Open(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)), testenv.Mail)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	if out := logs.String(); !strings.Contains(out, "lacks hackdesk's search attributes") ||
		!strings.Contains(out, "HackdeskKind") || !strings.Contains(out, "temporal operator search-attribute create") {
		t.Fatalf("start-up log does not say the attributes are missing:\n%s", out)
	}
	workerReadyz := strings.TrimSuffix(a.MetricsURL(), "/metrics") + "/readyz"
	for _, url := range []string{a.URL() + "/readyz", workerReadyz} {
		if code, checks := readiness(t, url); code != http.StatusServiceUnavailable || checks["search_attributes"] != "missing" ||
			checks["temporal"] != "ok" || checks["database"] != "ok" {
			t.Fatalf("%s = %d %v, want 503 with search_attributes missing", url, code, checks)
		}
	}

	if _, err := tc.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: ns,
		SearchAttributes: map[string]enumspb.IndexedValueType{
			"HackdeskKind": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "HackdeskSubject": enumspb.INDEXED_VALUE_TYPE_KEYWORD}}); err != nil {
		t.Fatal(err)
	}
	for _, url := range []string{a.URL() + "/readyz", workerReadyz} {
		testenv.Eventually(t, 60*time.Second, func() (bool, string) {
			code, checks := readiness(t, url)
			return code == http.StatusOK && checks["search_attributes"] == "ok", fmt.Sprintf("%s = %d %v", url, code, checks)
		})
	}
	if !strings.Contains(logs.String(), "has hackdesk's search attributes now") {
		t.Errorf("the log does not say the attributes appeared:\n%s", logs.String())
	}
}
