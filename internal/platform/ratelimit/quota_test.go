package ratelimit

import (
	"testing"
	"time"
)

// TestLeft: a quota of 100 a day under the sliding estimate.
func TestLeft(t *testing.T) {
	t.Parallel()
	day := Limit{Requests: 100, Window: 24 * time.Hour}
	for _, c := range []struct {
		name      string
		prev, cur int
		elapsed   time.Duration
		left      int
		wait      time.Duration
	}{
		{"Fresh", 0, 0, time.Hour, 100, 0},
		{"SomeSpent", 0, 96, time.Hour, 4, 0},
		{"PreviousWeighsHalf", 100, 30, 12 * time.Hour, 20, 0},
		{"FullNow", 0, 100, 6 * time.Hour, 0, 18*time.Hour + 432*time.Second},        // 100(1-x) < 99.5: x > 0.005 of the next day
		{"OverNow", 0, 107, 0, 0, 24*time.Hour + 6057*time.Second},                   // x > 1 - 99.5/107 of the next day, rounded up
		{"PreviousFillsIt", 200, 0, 6 * time.Hour, 0, 6*time.Hour + 216*time.Second}, // 200(1-x) < 99.5: x > 0.5025
		{"BothFillIt", 100, 50, 12 * time.Hour, 0, 432 * time.Second},                // 100(1-x) < 49.5: x > 0.505
		{"PreviousAndCurrentFull", 100, 100, 23 * time.Hour, 0, time.Hour + 432*time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, wait := left(day, c.prev, c.cur, c.elapsed)
			if n != c.left || wait != c.wait {
				t.Errorf("left(%d, %d, %v) = %d, %v; want %d, %v", c.prev, c.cur, c.elapsed, n, wait, c.left, c.wait)
			}
		})
	}
}
