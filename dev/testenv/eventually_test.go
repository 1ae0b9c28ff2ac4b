package testenv_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"hackdesk/dev/testenv"
)

// stubTB records a failure and ends the goroutine, as t.Fatalf does.
type stubTB struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (s *stubTB) Helper() {}

func (s *stubTB) Fatalf(format string, args ...any) {
	s.mu.Lock()
	s.msg = fmt.Sprintf(format, args...)
	s.mu.Unlock()
	runtime.Goexit()
}

// fatalOf runs f with a stub and returns the message f failed with, or "".
func fatalOf(f func(t testing.TB)) string {
	s := &stubTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(s)
	}()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.msg
}

func TestEventuallyHolds(t *testing.T) {
	t.Parallel()
	calls := 0
	msg := fatalOf(func(tb testing.TB) {
		testenv.Eventually(tb, 5*time.Second, func() (bool, string) {
			calls++
			return calls == 3, fmt.Sprintf("call %d", calls)
		})
	})
	if msg != "" || calls != 3 {
		t.Fatalf("failed with %q after %d calls, want success at the third", msg, calls)
	}
}

func TestEventuallyTimesOut(t *testing.T) {
	t.Parallel()
	calls := 0
	start := time.Now()
	msg := fatalOf(func(tb testing.TB) {
		testenv.Eventually(tb, 200*time.Millisecond, func() (bool, string) {
			calls++
			return false, fmt.Sprintf("%d rows", calls)
		})
	})
	if took := time.Since(start); took < 200*time.Millisecond || took > 5*time.Second {
		t.Errorf("gave up after %s, want just over 200ms", took)
	}
	// The message names the timeout and the last thing seen.
	if !strings.Contains(msg, "200ms") || !strings.HasSuffix(msg, fmt.Sprintf(": %d rows", calls)) || calls < 2 {
		t.Fatalf("message %q after %d calls", msg, calls)
	}
}
