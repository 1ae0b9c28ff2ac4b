package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/devstack"
)

// limitStore starts a private PostgreSQL cluster for the test and returns
// a migrated store on it (skipped without the PostgreSQL binaries).
func limitStore(t *testing.T) *db.Store {
	t.Helper()
	if _, err := devstack.PgBinary("initdb"); err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp("", "hackdesk-ratelimit-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { // the PostgreSQL account must reach its cluster
		t.Fatal(err)
	}
	ctx := context.Background()
	pg, err := devstack.StartPostgres(ctx, devstack.PostgresOptions{Dir: dir + "/pg", Database: "limits", Fast: true,
		LogPath: dir + "/postgres.log"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Stop)
	store, err := db.Open(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	if _, err := store.MigrateUp(ctx); err != nil {
		t.Fatal(err)
	}
	return store
}

func limitedStatus(err error) int {
	if e, ok := apperr.As(err); ok {
		return statusOf[e.Code]
	}
	if err != nil {
		return http.StatusInternalServerError
	}
	return http.StatusOK
}

// TestRateLimitsShared: two replicas (two servers' limiters) on one
// database share each counter, concurrently too, and keep Retry-After.
func TestRateLimitsShared(t *testing.T) {
	t.Parallel()
	store := limitStore(t)
	limits := RateLimits{LoginPerIP: RateLimit{Requests: 5, Window: time.Hour},
		LoginPerEmail: RateLimit{Requests: 3, Window: time.Hour}}
	replicas := []limiters{newLimiters(limits, store, nil), newLimiters(limits, store, nil)}
	r := httptest.NewRequest(http.MethodPost, "/api/auth/login", nil)

	t.Run("SpreadOverReplicas", func(t *testing.T) {
		var got []int
		for i := 0; i < 8; i++ {
			w := httptest.NewRecorder()
			err := allow(replicas[i%2].loginIP.over(w, r, "198.51.100.1"))
			got = append(got, limitedStatus(err))
			if err != nil && w.Header().Get("Retry-After") != "3600" {
				t.Errorf("request %d: Retry-After %q, want 3600", i+1, w.Header().Get("Retry-After"))
			}
		}
		want := []int{200, 200, 200, 200, 200, 429, 429, 429}
		if !slices.Equal(got, want) {
			t.Fatalf("answers %v, want %v", got, want)
		}
		// Another key is not affected.
		if err := allow(replicas[1].loginIP.over(httptest.NewRecorder(), r, "203.0.113.9")); err != nil {
			t.Fatalf("another client: %v", err)
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			allowed int
		)
		for i := 0; i < 40; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				err := allow(replicas[i%2].loginIP.over(httptest.NewRecorder(), r, "192.0.2.50"))
				if err != nil && limitedStatus(err) != http.StatusTooManyRequests {
					t.Errorf("request %d: %v", i, err)
				}
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					allowed++
				}
			}(i)
		}
		wg.Wait()
		if allowed != 5 {
			t.Fatalf("%d of 40 concurrent requests allowed, want 5", allowed)
		}
	})
	t.Run("FailuresCountedOnEitherReplica", func(t *testing.T) {
		const key = "victim@example.com\x00198.51.100.2"
		for i := 0; i < 3; i++ {
			if err := allow(replicas[i%2].loginFailures.full(httptest.NewRecorder(), key)); err != nil {
				t.Fatalf("failure %d refused before the limit: %v", i+1, err)
			}
			replicas[i%2].loginFailures.fail(r, key)
		}
		w := httptest.NewRecorder()
		if err := allow(replicas[0].loginFailures.full(w, key)); limitedStatus(err) != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
			t.Fatalf("after 3 failures: %v, Retry-After %q; want 429 with Retry-After", err, w.Header().Get("Retry-After"))
		}
	})
	t.Run("SlidingWindow", func(t *testing.T) {
		// A full previous window still counts almost whole just after the
		// window turns.
		l := replicas[0].loginIP
		if _, err := store.Pool().Exec(context.Background(), `
			INSERT INTO rate_limit_hits (key, window_start, count, expires_at)
			VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600) - interval '1 hour', 5, now() + interval '1 hour')`,
			l.key("198.51.100.3")); err != nil {
			t.Fatal(err)
		}
		var prevWeight float64
		if err := store.Pool().QueryRow(context.Background(),
			`SELECT 1 - extract(epoch FROM now() - to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600)) / 3600`).Scan(&prevWeight); err != nil {
			t.Fatal(err)
		}
		allowed := 0
		for i := 0; i < 6; i++ {
			if allow(l.over(httptest.NewRecorder(), r, "198.51.100.3")) == nil {
				allowed++
			}
		}
		if want := 5 - int(5*prevWeight+0.5); allowed != want {
			t.Fatalf("%d allowed with the previous window full (weight %.3f), want %d", allowed, prevWeight, want)
		}
	})
	t.Run("FailsClosed", func(t *testing.T) {
		closed, err := db.Open(context.Background(), store.Pool().Config().ConnString())
		if err != nil {
			t.Fatal(err)
		}
		closed.Close() // every query now fails, as with the database unreachable
		broken := newLimiters(limits, closed, slog.New(slog.DiscardHandler))
		w := httptest.NewRecorder()
		err = allow(broken.loginIP.over(w, r, "198.51.100.4"))
		if limitedStatus(err) != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Fatalf("with the database unreachable: %v, Retry-After %q; want 503 with Retry-After", err, w.Header().Get("Retry-After"))
		}
		if errors.Is(err, errRateLimited) {
			t.Fatal("a database error answered as a rate limit")
		}
	})
}
