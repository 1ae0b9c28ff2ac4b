package api

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hackdesk/apperr"
)

func TestGateBoundsConcurrency(t *testing.T) {
	g := newGate(3, 10*time.Second)
	var in, most atomic.Int32
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := g.enter(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			n := in.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
			in.Add(-1)
			release()
		}()
	}
	wg.Wait()
	if got := most.Load(); got != 3 {
		t.Fatalf("at most %d inside at once, want 3", got)
	}
}

func TestGateTurnsAwayAfterItsWait(t *testing.T) {
	g := newGate(1, 50*time.Millisecond)
	release, err := g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.enter(context.Background())
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.Unavailable {
		t.Fatalf("second caller got %v, want 503", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.enter(ctx); !errors.Is(err, errGateBusy) {
		t.Fatalf("cancelled caller got %v", err)
	}
	release()
	release2, err := g.enter(context.Background())
	if err != nil {
		t.Fatalf("after the place was given back: %v", err)
	}
	release2()
}
