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
// not-null or foreign-key violation ErrInvalid. Other errors, and errors
// already translated, pass through.
//
// Every query of a Store passes its errors through MapError (see mapped),
// so callers test the store's errors with errors.Is and never call this;
// it stays exported for code that reaches the pool directly.
func MapError(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrInvalid) {
		return err
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505", "23P01": // unique_violation, exclusion_violation
			return &ConstraintError{Kind: ErrConflict, Constraint: pgErr.ConstraintName, err: err}
		case "23514", "23502", "23503", "22P02", "22001", "22003", "22021": // check, not null, fk, bad text repr, too long, out of range, NUL in text
			return &ConstraintError{Kind: ErrInvalid, Constraint: pgErr.ConstraintName, err: err}
		}
	}
	return err
}

// mapped is the connection every Queries of a Store runs on: it passes the
// errors of Exec, Query (and of the rows' Scan and Err) and QueryRow's Scan
// through MapError, so that no driver error leaves the package.
type mapped struct{ db DBTX }

func (m mapped) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := m.db.Exec(ctx, sql, args...)
	return tag, MapError(err)
}

func (m mapped) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := m.db.Query(ctx, sql, args...)
	if err != nil {
		return nil, MapError(err)
	}
	return mappedRows{rows}, nil
}

func (m mapped) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return mappedRow{m.db.QueryRow(ctx, sql, args...)}
}

type mappedRows struct{ pgx.Rows }

func (r mappedRows) Scan(dest ...any) error { return MapError(r.Rows.Scan(dest...)) }
func (r mappedRows) Err() error             { return MapError(r.Rows.Err()) }

type mappedRow struct{ row pgx.Row }

func (r mappedRow) Scan(dest ...any) error { return MapError(r.row.Scan(dest...)) }

// Store is the generated queries over a connection pool, plus transactions.
// Every error its queries return has been through MapError.
type Store struct {
	*Queries
	pool *pgxpool.Pool
}

// Open connects a pool to url and checks that the database answers.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	for _, o := range opts {
		o(cfg)
	}
	// pgxpool's default (max(4, cores)) leaves requests queueing for a
	// connection while others wait on commits (a WAL flush each), and the
	// membership webhook's places (WEBHOOK_CONCURRENCY, 6) need room
	// beside the rest of the API; pool_max_conns in the URL overrides this.
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = int32(max(16, 8*runtime.NumCPU()))
	}
	// PostgreSQL compiles a statement it estimates as costly with LLVM
	// (JIT) first: 1.7 s of the admin table's 2.1 s at 100,000 applications,
	// for a statement that then runs in 0.4 s. No statement of the service
	// gains from it; jit in the URL overrides this.
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
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

// Option adjusts the pool's configuration before Open connects.
type Option func(*pgxpool.Config)

// WithTracer traces every statement of the pool's connections.
func WithTracer(t pgx.QueryTracer) Option {
	return func(c *pgxpool.Config) { c.ConnConfig.Tracer = t }
}

// NewStore wraps an existing pool.
func NewStore(pool *pgxpool.Pool) *Store {
	return &Store{Queries: New(mapped{pool}), pool: pool}
}

// Pool returns the underlying pool (for COPY, benchmarks and migrations).
// Errors of queries run on it directly are the driver's, not mapped.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// InTx runs fn inside a transaction. The transaction commits when fn returns
// nil and rolls back otherwise (or when fn panics). The returned error has
// been through MapError.
func (s *Store) InTx(ctx context.Context, fn func(q *Queries) error) error {
	return s.inTx(ctx, pgx.TxOptions{}, true, fn)
}

// InSnapshot runs fn inside a read-only, repeatable-read transaction, so
// that every query of fn reads the same snapshot; the transaction is rolled
// back afterwards. The returned error has been through MapError.
func (s *Store) InSnapshot(ctx context.Context, fn func(q *Queries) error) error {
	return s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, false, fn)
}

// Hot paths whose statements' best plans do not depend on their values
// (primary-key and index look-ups of one reviewer, one application, one
// receipt) spend
// more on planning each call than on running it: PostgreSQL plans a
// prepared statement again for each call's values while it estimates that
// its generic plan costs more. These transactions make every statement in
// them use its cached generic plan (plan_cache_mode), in the same round
// trip as BEGIN.
const beginGeneric = "BEGIN; SET LOCAL plan_cache_mode = force_generic_plan"

// InTxGeneric is InTx with every statement run on its cached generic plan:
// for the hot paths only (the review queue, review submission, the
// membership webhook), whose statements' plans are the same whatever their
// values.
func (s *Store) InTxGeneric(ctx context.Context, fn func(q *Queries) error) error {
	return s.inTx(ctx, pgx.TxOptions{BeginQuery: beginGeneric}, true, fn)
}

func (s *Store) inTx(ctx context.Context, opts pgx.TxOptions, commit bool, fn func(q *Queries) error) error {
	tx, err := s.pool.BeginTx(ctx, opts)
	if err != nil {
		return MapError(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	if err := fn(New(mapped{tx})); err != nil {
		return MapError(err)
	}
	if !commit {
		return nil
	}
	return MapError(tx.Commit(ctx))
}
