package ratelimit_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/ratelimit"
)

func TestMain(m *testing.M) { testenv.Main(m) }

var limits = ratelimit.Limits{LoginPerIP: ratelimit.Limit{Requests: 5, Window: time.Hour},
	LoginPerEmail: ratelimit.Limit{Requests: 3, Window: time.Hour}}

// replicas are two servers' limiters on one database.
func replicas(t *testing.T) (*db.Store, []ratelimit.Limiters) {
	store := testenv.Store(t)
	return store, []ratelimit.Limiters{ratelimit.New(limits, store, nil), ratelimit.New(limits, store, nil)}
}

// TestDefaults: a zero limit takes its default.
func TestDefaults(t *testing.T) {
	t.Parallel()
	l := ratelimit.New(ratelimit.Limits{LoginPerIP: ratelimit.Limit{Requests: 5, Window: time.Hour},
		SignupPerIP: ratelimit.Limit{Requests: 5}}, nil, nil)
	if l.LoginIP.Window() != time.Hour || l.SignupIP.Window() != ratelimit.Defaults.SignupPerIP.Window ||
		l.Search.Window() != ratelimit.Defaults.SearchPerCaller.Window {
		t.Fatalf("windows %v %v %v", l.LoginIP.Window(), l.SignupIP.Window(), l.Search.Window())
	}
}

// TestSpreadOverReplicas: the replicas share each counter.
func TestSpreadOverReplicas(t *testing.T) {
	t.Parallel()
	_, rs := replicas(t)
	ctx := context.Background()
	var got []bool
	for i := range 8 {
		ok, err := rs[i%2].LoginIP.Take(ctx, "198.51.100.1")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ok)
	}
	if want := []bool{true, true, true, true, true, false, false, false}; !slices.Equal(got, want) {
		t.Fatalf("taken %v, want %v", got, want)
	}
	// Another key is not affected.
	if ok, err := rs[1].LoginIP.Take(ctx, "203.0.113.9"); !ok || err != nil {
		t.Fatalf("another client: %v, %v", ok, err)
	}
}

// TestConcurrent: concurrent requests on both replicas take exactly the
// limit.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	_, rs := replicas(t)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		allowed int
	)
	for i := range 40 {
		wg.Go(func() {
			ok, err := rs[i%2].LoginIP.Take(context.Background(), "192.0.2.50")
			if err != nil {
				t.Errorf("request %d: %v", i, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if ok {
				allowed++
			}
		})
	}
	wg.Wait()
	if allowed != 5 {
		t.Fatalf("%d of 40 concurrent requests allowed, want 5", allowed)
	}
}

// TestFailures: failures counted on either replica fill the limit; Full
// counts nothing itself.
func TestFailures(t *testing.T) {
	t.Parallel()
	_, rs := replicas(t)
	const key = "victim@example.com\x00198.51.100.2"
	for i := range 3 {
		if used, err := rs[i%2].LoginFailures.Full(key); used || err != nil {
			t.Fatalf("failure %d refused before the limit: %v, %v", i+1, used, err)
		}
		rs[i%2].LoginFailures.Fail(context.Background(), key)
	}
	if used, err := rs[0].LoginFailures.Full(key); !used || err != nil {
		t.Fatalf("after 3 failures: %v, %v; want full", used, err)
	}
}

// TestSlidingWindow: a full previous window still counts almost whole
// just after the window turns.
func TestSlidingWindow(t *testing.T) {
	t.Parallel()
	store, rs := replicas(t)
	ctx := context.Background()
	l := rs[0].LoginIP
	if _, err := store.Pool().Exec(ctx, `
		INSERT INTO rate_limit_hits (key, window_start, count, expires_at)
		VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600) - interval '1 hour', 5, now() + interval '1 hour')`,
		ratelimit.KeyOf(l, "198.51.100.3")); err != nil {
		t.Fatal(err)
	}
	var prevWeight float64
	if err := store.Pool().QueryRow(ctx,
		`SELECT 1 - extract(epoch FROM now() - to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600)) / 3600`).Scan(&prevWeight); err != nil {
		t.Fatal(err)
	}
	allowed := 0
	for range 6 {
		if ok, err := l.Take(ctx, "198.51.100.3"); err != nil {
			t.Fatal(err)
		} else if ok {
			allowed++
		}
	}
	if want := 5 - int(5*prevWeight+0.5); allowed != want {
		t.Fatalf("%d allowed with the previous window full (weight %.3f), want %d", allowed, prevWeight, want)
	}
}

// TestFailsClosed: with the database out of reach, Take and Full return
// the error (the API answers 503), never a verdict.
func TestFailsClosed(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	closed, err := db.Open(context.Background(), store.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	closed.Close() // every query now fails, as with the database unreachable
	broken := ratelimit.New(limits, closed, slog.New(slog.DiscardHandler))
	if ok, err := broken.LoginIP.Take(context.Background(), "198.51.100.4"); ok || err == nil {
		t.Fatalf("Take with the database unreachable: %v, %v; want an error", ok, err)
	}
	if used, err := broken.LoginFailures.Full("198.51.100.4"); used || err == nil {
		t.Fatalf("Full with the database unreachable: %v, %v; want an error", used, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ratelimit.New(limits, store, nil).LoginIP.Take(ctx, "198.51.100.5"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Take of a cancelled request: %v, want context.Canceled", err)
	}
}
