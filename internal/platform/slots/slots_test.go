package slots

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestSlotsBoundConcurrency(t *testing.T) {
	t.Parallel()
	s := New(3, 10*time.Second)
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Do(context.Background(), func() { time.Sleep(20 * time.Millisecond) }); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := s.Peak(); got != 3 {
		t.Fatalf("at most %d inside at once, want 3", got)
	}
}

func TestSlotsTurnAwayAfterTheirWait(t *testing.T) {
	t.Parallel()
	s := New(1, 50*time.Millisecond)
	release, err := s.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Acquire(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("second caller got %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled caller got %v, want its context's error", err)
	}
	release()
	release2, err := s.Acquire(context.Background())
	if err != nil {
		t.Fatalf("after the place was given back: %v", err)
	}
	release2()
}

func TestNewHasAtLeastOnePlace(t *testing.T) {
	t.Parallel()
	release, err := New(0, time.Millisecond).Acquire(context.Background())
	if err != nil {
		t.Fatalf("New(0) has no place: %v", err)
	}
	release()
}
