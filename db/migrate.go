package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// MigrationStatus is one migration and whether it has been applied.
type MigrationStatus struct {
	Version int64
	Source  string
	Applied bool
}

func (s *Store) provider() (*goose.Provider, func() error, error) {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, nil, err
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return nil, nil, err
	}
	sqlDB := stdlib.OpenDBFromPool(s.pool)
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, sub, goose.WithSessionLocker(locker))
	if err != nil {
		sqlDB.Close()
		return nil, nil, err
	}
	return p, sqlDB.Close, nil
}

// MigrateUp applies every pending migration. Concurrent callers are
// serialised by a PostgreSQL advisory lock. It returns how many ran.
func (s *Store) MigrateUp(ctx context.Context) (int, error) {
	p, closeDB, err := s.provider()
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	defer closeDB() //nolint:errcheck
	res, err := p.Up(ctx)
	if err != nil {
		return len(res), fmt.Errorf("migrate up: %w", err)
	}
	return len(res), nil
}

// MigrateStatus lists every known migration.
func (s *Store) MigrateStatus(ctx context.Context) ([]MigrationStatus, error) {
	p, closeDB, err := s.provider()
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	defer closeDB() //nolint:errcheck
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	out := make([]MigrationStatus, 0, len(st))
	for _, m := range st {
		out = append(out, MigrationStatus{
			Version: m.Source.Version,
			Source:  m.Source.Path,
			Applied: m.State == goose.StateApplied,
		})
	}
	return out, nil
}
