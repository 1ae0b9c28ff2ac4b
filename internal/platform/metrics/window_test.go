package metrics_test

import (
	"testing"
	"time"

	"hackdesk/internal/platform/metrics"
)

// The window counts the last sixty minutes' requests and 5xx answers; a
// minute's slot is reset when the ring comes round to it again.
func TestRequestWindow(t *testing.T) {
	t.Parallel()
	var w metrics.RequestWindow
	t0 := time.Date(2026, 1, 1, 10, 0, 30, 0, time.UTC)
	w.Record(t0, 200)
	w.Record(t0, 503)
	w.Record(t0.Add(30*time.Minute), 404)
	w.Record(t0.Add(30*time.Minute), 500)
	w.Record(t0.Add(30*time.Minute), 0) // nothing written: not an error
	if r, e := w.Sum(t0.Add(30 * time.Minute)); r != 5 || e != 2 {
		t.Fatalf("at +30m: %d requests, %d errors", r, e)
	}
	// An hour later the first minute has left the window.
	if r, e := w.Sum(t0.Add(60 * time.Minute)); r != 3 || e != 1 {
		t.Fatalf("at +60m: %d requests, %d errors", r, e)
	}
	// The same slot, a lap later, starts from zero.
	w.Record(t0.Add(60*time.Minute), 200)
	if r, e := w.Sum(t0.Add(60 * time.Minute)); r != 4 || e != 1 {
		t.Fatalf("after a lap: %d requests, %d errors", r, e)
	}
	if r, e := w.Sum(t0.Add(3 * time.Hour)); r != 0 || e != 0 {
		t.Fatalf("hours later: %d requests, %d errors", r, e)
	}
}
