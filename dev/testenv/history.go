package testenv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
)

// RecordHistory writes the history of a finished workflow run to
// <repo>/workflows/testdata/<name>.json when RECORD_HISTORIES=1, for the
// replay tests.
func RecordHistory(t testing.TB, c client.Client, workflowID, name string) {
	t.Helper()
	RecordHistoryRun(t, c, workflowID, "", name)
}

// RecordHistoryRun is RecordHistory for one run of the workflow ("" for the
// latest).
func RecordHistoryRun(t testing.TB, c client.Client, workflowID, runID, name string) {
	t.Helper()
	if os.Getenv("RECORD_HISTORIES") != "1" {
		return
	}
	iter := c.GetWorkflowHistory(context.Background(), workflowID, runID, false, 0)
	h := &historypb.History{}
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatalf("testenv: read history: %v", err)
		}
		h.Events = append(h.Events, ev)
	}
	data, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(RepoRoot(), "workflows", "testdata", name+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded history %s", path)
}
