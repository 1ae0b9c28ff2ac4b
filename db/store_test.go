package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func insertEmail(ctx context.Context, q *db.Queries, key string) (int64, error) {
	return q.EmailInsert(ctx, db.EmailInsertParams{
		IdempotencyKey: key, Kind: "notice", ToAddress: "a@example.com", Subject: "s", TextBody: "t",
	})
}

func TestInTx(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)

	t.Run("RollsBackOnError", func(t *testing.T) {
		boom := errors.New("boom")
		err := s.InTx(ctx, func(q *db.Queries) error {
			if _, err := insertEmail(ctx, q, "rollback"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v, want boom", err)
		}
		if _, err := s.EmailGetByKey(ctx, "rollback"); !errors.Is(db.MapError(err), db.ErrNotFound) {
			t.Fatalf("row survived the rollback: err = %v", err)
		}
	})

	t.Run("RollsBackOnPanic", func(t *testing.T) {
		func() {
			defer func() { _ = recover() }()
			_ = s.InTx(ctx, func(q *db.Queries) error {
				if _, err := insertEmail(ctx, q, "panic"); err != nil {
					return err
				}
				panic("boom")
			})
		}()
		if _, err := s.EmailGetByKey(ctx, "panic"); !errors.Is(db.MapError(err), db.ErrNotFound) {
			t.Fatalf("row survived the panic: err = %v", err)
		}
	})

	t.Run("Commits", func(t *testing.T) {
		if err := s.InTx(ctx, func(q *db.Queries) error {
			_, err := insertEmail(ctx, q, "commit")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		e, err := s.EmailGetByKey(ctx, "commit")
		if err != nil || e.Status != "pending" {
			t.Fatalf("got %+v, %v", e, err)
		}
	})

	t.Run("MapsErrors", func(t *testing.T) {
		err := s.InTx(ctx, func(q *db.Queries) error {
			_, err := q.EmailLockByKey(ctx, "missing")
			return err
		})
		if !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("missing row: err = %v, want ErrNotFound", err)
		}
		err = s.InTx(ctx, func(q *db.Queries) error {
			_, err := q.EmailInsert(ctx, db.EmailInsertParams{IdempotencyKey: "bad", Kind: "Not A Kind",
				ToAddress: "a@example.com", Subject: "s"})
			return err
		})
		var ce *db.ConstraintError
		if !errors.Is(err, db.ErrInvalid) || !errors.As(err, &ce) || ce.Constraint != "emails_kind_check" {
			t.Fatalf("check violation: err = %v, want ErrInvalid on emails_kind_check", err)
		}
	})
}

// Queries outside a transaction return the store's errors, not the
// driver's: no caller needs MapError.
func TestQueriesMapErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)

	t.Run("NoRowsIsNotFound", func(t *testing.T) {
		_, err := s.EmailGetByKey(ctx, "missing")
		if !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})

	t.Run("UniqueViolationIsConflict", func(t *testing.T) {
		p := db.ProfileInsertParams{Email: "ada@example.com", PasswordHash: "$argon2id$x", Role: "member"}
		if _, err := s.ProfileInsert(ctx, p); err != nil {
			t.Fatal(err)
		}
		p.Email = "ADA@example.com"
		_, err := s.ProfileInsert(ctx, p)
		var ce *db.ConstraintError
		if !errors.Is(err, db.ErrConflict) || !errors.As(err, &ce) || ce.Constraint != "profiles_email_key" {
			t.Fatalf("err = %v, want ErrConflict on profiles_email_key", err)
		}
	})

	t.Run("ExecForeignKeyIsInvalid", func(t *testing.T) {
		err := s.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
			ApplicationID: uuid.New(), Kind: "rsvp", Detail: []byte(`{}`)})
		if !errors.Is(err, db.ErrInvalid) {
			t.Fatalf("err = %v, want ErrInvalid", err)
		}
	})
}

func TestInSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	err := s.InSnapshot(ctx, func(q *db.Queries) error {
		_, err := insertEmail(ctx, q, "snapshot")
		return err
	})
	if err == nil {
		t.Fatal("a write succeeded in a read-only snapshot")
	}
	if _, err := s.EmailGetByKey(ctx, "snapshot"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("row written in a snapshot: err = %v", err)
	}
}

func TestEmailInsertIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	for i, want := range []int64{1, 0} {
		n, err := insertEmail(ctx, s.Queries, "same-key")
		if err != nil || n != want {
			t.Fatalf("insert %d: rows = %d, %v; want %d", i, n, err, want)
		}
	}
}

func TestMigrateStatus(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	st, err := s.MigrateStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) == 0 {
		t.Fatal("no migrations listed")
	}
	for _, m := range st {
		if !m.Applied {
			t.Errorf("migration %d not applied on a fresh test database", m.Version)
		}
	}
}

func TestWebhookTokensPrune(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	first, second := []byte("first-email-sha256-aaaaaaaaaaaaa"), []byte("second-email-sha256-bbbbbbbbbbbb")
	for _, tok := range []string{"old", "new"} {
		if _, err := s.WebhookTokenUse(ctx, db.WebhookTokenUseParams{Token: tok, BodySha256: first}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Pool().Exec(ctx, `UPDATE webhook_tokens SET received_at = now() - interval '11 minutes' WHERE token = 'old'`); err != nil {
		t.Fatal(err)
	}
	n, err := s.WebhookTokensPrune(ctx, db.WebhookTokensPruneParams{Before: time.Now().Add(-10 * time.Minute), BatchSize: 100})
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v; want 1", n, err)
	}
	// The recent token still holds its first email; the pruned one is free.
	bound, err := s.WebhookTokenUse(ctx, db.WebhookTokenUseParams{Token: "new", BodySha256: second})
	if err != nil || string(bound) != string(first) {
		t.Fatalf("recent token bound to %q, %v; want the first email", bound, err)
	}
	bound, err = s.WebhookTokenUse(ctx, db.WebhookTokenUseParams{Token: "old", BodySha256: second})
	if err != nil || string(bound) != string(second) {
		t.Fatalf("pruned token bound to %q, %v; want the second email", bound, err)
	}
}

func TestIdempotencyKeysPrune(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	actor := testenv.Account(t, s, testenv.AccountOpts{Email: "idem@example.com", NoPassword: true}).ID
	for _, key := range []string{"old", "new"} {
		if _, err := s.IdempotencyKeyClaim(ctx, db.IdempotencyKeyClaimParams{ActorID: actor, Route: "r", Key: key, RequestHash: make([]byte, 32)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Pool().Exec(ctx, `UPDATE idempotency_keys SET created_at = now() - interval '8 days' WHERE key = 'old'`); err != nil {
		t.Fatal(err)
	}
	n, err := s.IdempotencyKeysPrune(ctx, db.IdempotencyKeysPruneParams{Before: time.Now().Add(-7 * 24 * time.Hour), BatchSize: 100})
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v; want 1", n, err)
	}
	if _, err := s.IdempotencyKeyGet(ctx, db.IdempotencyKeyGetParams{ActorID: actor, Route: "r", Key: "new"}); err != nil {
		t.Fatalf("the recent key is gone: %v", err)
	}
	if _, err := s.IdempotencyKeyGet(ctx, db.IdempotencyKeyGetParams{ActorID: actor, Route: "r", Key: "old"}); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("the old key: %v, want ErrNotFound", err)
	}
}
