package testenv

import (
	"testing"
	"time"
)

// PollInterval is how often Eventually asks again.
const PollInterval = 50 * time.Millisecond

// Eventually calls cond until it reports true, and fails the test if it has
// not within timeout. cond returns whether it holds and, when it does not,
// what it saw: the last of these is the failure message. cond may end the
// test itself (t.Fatal) when it finds something that cannot change.
func Eventually(t testing.TB, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, seen := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s: %s", timeout, seen)
		}
		time.Sleep(PollInterval)
	}
}
