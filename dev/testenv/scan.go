package testenv

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"hackdesk/db"
)

// Column is a table column that can hold text: text, character varying,
// jsonb, json, bytea or an array.
type Column struct {
	Table, Name, Type string
}

func (c Column) String() string { return c.Table + "." + c.Name }

// TextColumns lists every column of the public schema's tables (views
// left out) that can hold text, by table and column. The privacy map's
// test compares it with docs/privacy.md; the erasure scan reads them all.
func TextColumns(ctx context.Context, s *db.Store) ([]Column, error) {
	rows, err := s.Pool().Query(ctx, `
		SELECT c.table_name, c.column_name, c.data_type
		FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
		  AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea', 'ARRAY')
		  AND c.table_name <> 'goose_db_version'
		ORDER BY c.table_name, c.column_name`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Column, error) {
		var c Column
		err := r.Scan(&c.Table, &c.Name, &c.Type)
		return c, err
	})
}

// ScanDatabase searches every text-holding column of every row (TextColumns;
// bytea read as escaped text, so printable bytes compare as they are) for
// each needle, case-insensitively, and returns one line per column and
// needle found: "table.column holds needle (n rows)".
func ScanDatabase(t testing.TB, s *db.Store, needles ...string) []string {
	t.Helper()
	ctx := context.Background()
	cols, err := TextColumns(ctx, s)
	if err != nil {
		t.Fatalf("testenv: scan: %v", err)
	}
	var hits []string
	for _, c := range cols {
		expr := pgx.Identifier{c.Name}.Sanitize() + "::text"
		if c.Type == "bytea" {
			expr = "encode(" + pgx.Identifier{c.Name}.Sanitize() + ", 'escape')"
		}
		for _, n := range needles {
			if strings.TrimSpace(n) == "" {
				continue
			}
			var count int
			q := fmt.Sprintf(`SELECT count(*) FROM %s WHERE strpos(lower(%s), lower($1)) > 0`, pgx.Identifier{c.Table}.Sanitize(), expr)
			if err := s.Pool().QueryRow(ctx, q, n).Scan(&count); err != nil {
				t.Fatalf("testenv: scan %s: %v", c, err)
			}
			if count > 0 {
				hits = append(hits, fmt.Sprintf("%s holds %q (%d rows)", c, n, count))
			}
		}
	}
	sort.Strings(hits)
	return hits
}
