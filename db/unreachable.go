package db

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unreachable reports whether err says that PostgreSQL could not be
// reached or dropped the connection, rather than that the request or the
// code is wrong: the same work may succeed shortly. (The object store's
// errors are storage.Unreachable's; the API asks both.)
func Unreachable(err error) bool {
	var connErr *pgconn.ConnectError
	var netErr *net.OpError
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return false
	case errors.As(err, &connErr), errors.As(err, &netErr):
		return true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF):
		return true
	case errors.As(err, &pgErr):
		// connection_exception, operator intervention (shutdown, too many
		// connections, cannot connect now)
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P") || pgErr.Code == "53300"
	}
	return pgconn.SafeToRetry(err)
}

// Persist runs write until it succeeds, fails for a reason other than an
// unreachable database, or ctx ends, waiting a little longer after each
// failure (from 100 ms up to 2 s). It is for writes that record what has
// already happened outside the database (an email handed to the mail
// provider) and so must not be given up lightly; write must be safe to
// repeat.
func Persist(ctx context.Context, write func(context.Context) error) error {
	wait := 100 * time.Millisecond
	for {
		err := write(ctx)
		if err == nil || !Unreachable(err) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, 2*time.Second)
	}
}
