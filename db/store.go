package db

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Errors the store returns in place of driver errors. Callers test them with
// errors.Is; the api package maps them to status codes.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	ErrInvalid  = errors.New("invalid")
)

// ConstraintError carries the name of the violated constraint so that
// callers can turn it into a field-level message.
type ConstraintError struct {
	Kind       error // ErrConflict or ErrInvalid
	Constraint string
	err        error
}

func (e *ConstraintError) Error() string {
	return fmt.Sprintf("%v: constraint %s", e.Kind, e.Constraint)
}

func (e *ConstraintError) Is(target error) bool { return target == e.Kind }
func (e *ConstraintError) Unwrap() error        { return e.err }

// MapError translates pgx errors into the store's errors: no rows becomes
// ErrNotFound, a unique or exclusion violation ErrConflict, and a check,
// not-null or foreign-key violation ErrInvalid. Other errors pass through.
func MapError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505", "23P01": // unique_violation, exclusion_violation
			return &ConstraintError{Kind: ErrConflict, Constraint: pgErr.ConstraintName, err: err}
		case "23514", "23502", "23503", "22P02", "22001", "22003": // check, not null, fk, bad text repr, too long, out of range
			return &ConstraintError{Kind: ErrInvalid, Constraint: pgErr.ConstraintName, err: err}
		}
	}
	return err
}

// Store is the generated queries over a connection pool, plus transactions.
type Store struct {
	*Queries
	pool *pgxpool.Pool
}

// Open connects a pool to url and checks that the database answers.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	// pgxpool's default (max(4, cores)) leaves requests queueing for a
	// connection while others wait on commits; pool_max_conns in the URL
	// overrides this.
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = int32(max(8, 4*runtime.NumCPU()))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return NewStore(pool), nil
}

// NewStore wraps an existing pool.
func NewStore(pool *pgxpool.Pool) *Store {
	return &Store{Queries: New(pool), pool: pool}
}

// Pool returns the underlying pool (for COPY, benchmarks and migrations).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// InTx runs fn inside a transaction. The transaction commits when fn returns
// nil and rolls back otherwise (or when fn panics). The returned error has
// been through MapError.
func (s *Store) InTx(ctx context.Context, fn func(q *Queries) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return MapError(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	if err := fn(s.Queries.WithTx(tx)); err != nil {
		return MapError(err)
	}
	return MapError(tx.Commit(ctx))
}
