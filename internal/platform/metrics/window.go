package metrics

import (
	"sync"
	"time"
)

// RequestWindow counts the requests a server answered, and its 5xx
// answers, per minute over the last hour: a ring of sixty minutes, each
// slot reset when a new minute reuses it. (Cumulative counters cannot
// answer "in the last hour" without a store of their own.) The zero value
// is ready; it is safe for concurrent use. The API's operator page reads
// it; it knows nothing of Prometheus.
type RequestWindow struct {
	mu    sync.Mutex
	slots [60]windowSlot
}

type windowSlot struct {
	minute   int64 // Unix minute the counts are of
	requests int64
	errors   int64
}

// Record counts one request answered at with status (0: nothing written,
// which is not an error).
func (w *RequestWindow) Record(at time.Time, status int) {
	m := at.Unix() / 60
	w.mu.Lock()
	defer w.mu.Unlock()
	s := &w.slots[m%60]
	if s.minute != m {
		*s = windowSlot{minute: m}
	}
	s.requests++
	if status >= 500 {
		s.errors++
	}
}

// Sum adds up the sixty minutes up to and including now's.
func (w *RequestWindow) Sum(now time.Time) (requests, errors int64) {
	m := now.Unix() / 60
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.slots {
		if s.minute > m-60 && s.minute <= m {
			requests += s.requests
			errors += s.errors
		}
	}
	return requests, errors
}
