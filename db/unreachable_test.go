package db_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"hackdesk/db"
	"hackdesk/dev/testenv"
)

func TestUnreachable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"OKReset", fmt.Errorf("query: %w", syscall.ECONNRESET), true},
		{"OKRefused", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, true},
		{"OKUnexpectedEOF", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{"OKAdminShutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"OKConnectionException", &pgconn.PgError{Code: "08006"}, true},
		{"OKTooManyConnections", &pgconn.PgError{Code: "53300"}, true},
		{"ErrNil", nil, false},
		{"ErrUniqueViolation", &pgconn.PgError{Code: "23505"}, false},
		{"ErrNotFound", db.ErrNotFound, false},
		{"ErrPlain", errors.New("boom"), false},
		{"ErrDeadline", context.DeadlineExceeded, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := db.Unreachable(tc.err); got != tc.want {
				t.Fatalf("Unreachable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestPersist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("OKRetriesWhileUnreachable", func(t *testing.T) {
		calls := 0
		err := db.Persist(ctx, func(context.Context) error {
			if calls++; calls < 3 {
				return syscall.ECONNRESET
			}
			return nil
		})
		if err != nil || calls != 3 {
			t.Fatalf("err %v after %d calls, want nil after 3", err, calls)
		}
	})
	t.Run("ErrOtherErrorsAtOnce", func(t *testing.T) {
		calls := 0
		err := db.Persist(ctx, func(context.Context) error { calls++; return db.ErrInvalid })
		if !errors.Is(err, db.ErrInvalid) || calls != 1 {
			t.Fatalf("err %v after %d calls, want ErrInvalid after 1", err, calls)
		}
	})
	t.Run("ErrGivesUpWhenTheContextEnds", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(ctx, 350*time.Millisecond)
		defer cancel()
		calls := 0
		err := db.Persist(ctx, func(context.Context) error { calls++; return syscall.ECONNRESET })
		if !errors.Is(err, syscall.ECONNRESET) || calls < 2 || calls > 4 {
			t.Fatalf("err %v after %d calls, want the last error after 2 to 4", err, calls)
		}
	})
}

func TestEmailReleaseClaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	if _, err := insertEmail(ctx, s.Queries, "claimed"); err != nil {
		t.Fatal(err)
	}
	e, err := s.EmailGetByKey(ctx, "claimed")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EmailMarkSending(ctx, e.ID); err != nil { // attempt 1
		t.Fatal(err)
	}
	status := func() (string, int32) {
		e, err := s.EmailGetByKey(ctx, "claimed")
		if err != nil {
			t.Fatal(err)
		}
		return e.Status, e.Attempts
	}
	// Another attempt's claim is not given back.
	if err := s.EmailReleaseClaim(ctx, db.EmailReleaseClaimParams{ID: e.ID, Attempts: 2}); err != nil {
		t.Fatal(err)
	}
	if st, n := status(); st != "sending" || n != 1 {
		t.Fatalf("after releasing another attempt's claim: %s at %d, want sending at 1", st, n)
	}
	if err := s.EmailReleaseClaim(ctx, db.EmailReleaseClaimParams{ID: e.ID, Attempts: 1}); err != nil {
		t.Fatal(err)
	}
	if st, n := status(); st != "pending" || n != 1 {
		t.Fatalf("after releasing its own claim: %s at %d, want pending at 1", st, n)
	}
	// A sent email is never made pending again.
	if err := s.EmailMarkSent(ctx, db.EmailMarkSentParams{ID: e.ID}); err != nil {
		t.Fatal(err)
	}
	if err := s.EmailReleaseClaim(ctx, db.EmailReleaseClaimParams{ID: e.ID, Attempts: 1}); err != nil {
		t.Fatal(err)
	}
	if st, _ := status(); st != "sent" {
		t.Fatalf("release of a sent email left it %s", st)
	}
}
