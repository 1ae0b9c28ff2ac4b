package idempotency_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/idempotency"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestValid(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]bool{
		"":                                      false,
		"a":                                     true,
		"retry-7f3a_2025.01":                    true,
		"~!\"#$%&'()*+,-./:;<=":                 true,
		"with space":                            false,
		"tab\t":                                 false,
		"é":                                     false,
		strings.Repeat("k", idempotency.MaxKey): true,
		strings.Repeat("k", idempotency.MaxKey+1): false,
	} {
		if got := idempotency.Valid(k); got != want {
			t.Errorf("Valid(%q) = %v, want %v", k, got, want)
		}
	}
}

type body struct {
	Subject string `json:"subject"`
}

// TestRun: without a key every request runs; with one, the first runs and
// a retry gets its stored answer without running, the same key with
// another body is ErrKeyReused, a failed request stores nothing, and a
// malformed key runs nothing.
func TestRun(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	p, err := store.ProfileInsert(ctx, db.ProfileInsertParams{Email: "ada@example.com", PasswordHash: "$argon2id$test", Role: "superadmin"})
	if err != nil {
		t.Fatal(err)
	}
	keys := idempotency.New(store, nil)
	runs := 0
	run := func(key, subject string, fail error) (idempotency.Answer, error) {
		req := idempotency.Request{Actor: p.ID, Route: "POST /api/things", Key: key, Body: body{subject}}
		return keys.Run(ctx, req, func(q *db.Queries) (idempotency.Answer, error) {
			runs++
			if fail != nil {
				return idempotency.Answer{}, fail
			}
			return idempotency.Answer{Status: 202, Body: map[string]any{"run": runs, "subject": subject}}, nil
		})
	}
	decoded := func(a idempotency.Answer) map[string]any {
		t.Helper()
		raw, err := json.Marshal(a.Body)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}

	for range 2 {
		if _, err := run("", "s", nil); err != nil {
			t.Fatal(err)
		}
	}
	if runs != 2 {
		t.Fatalf("%d runs without a key, want 2", runs)
	}

	first, err := run("k1", "s", nil)
	if err != nil || first.Status != 202 || runs != 3 {
		t.Fatalf("first with k1: %+v, %v (%d runs)", first, err, runs)
	}
	again, err := run("k1", "s", nil)
	if err != nil || again.Status != 202 || runs != 3 || decoded(again)["run"] != float64(3) {
		t.Fatalf("retry with k1: %+v, %v (%d runs); want the stored answer", decoded(again), err, runs)
	}
	if _, err := run("k1", "other", nil); !errors.Is(err, idempotency.ErrKeyReused) || runs != 3 {
		t.Fatalf("k1 with another body: %v (%d runs), want ErrKeyReused", err, runs)
	}

	boom := errors.New("boom")
	if _, err := run("k2", "s", boom); !errors.Is(err, boom) {
		t.Fatalf("failing with k2: %v", err)
	}
	if out, err := run("k2", "s", nil); err != nil || decoded(out)["run"] != float64(5) {
		t.Fatalf("k2 after a failure: %+v, %v; want a fresh run", out, err)
	}

	if _, err := run("bad key", "s", nil); !errors.Is(err, idempotency.ErrBadKey) || runs != 5 {
		t.Fatalf("malformed key: %v (%d runs), want ErrBadKey", err, runs)
	}

	// The key is the caller's and the route's own.
	other := idempotency.Request{Actor: uuid.New(), Route: "POST /api/things", Key: "k1", Body: body{"s"}}
	if _, err := keys.Run(ctx, other, func(*db.Queries) (idempotency.Answer, error) {
		return idempotency.Answer{Status: 200, Body: nil}, nil
	}); err == nil {
		t.Fatal("k1 of an unknown actor was stored") // actor_id references profiles
	}
}
