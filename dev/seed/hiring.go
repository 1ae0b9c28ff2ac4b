package seed

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"hackdesk/db"
)

// HiringRound is a ready-to-finalize exec hiring round for load tests: a
// past term whose execs (previous execs, the first of them a superadmin)
// hold active exec roles, and a new term whose hires each have an
// accepted offer for one of three positions (one per grant). Accounts are
// <prefix>.hire<n>@example.com and <prefix>.prev<n>@example.com and cannot
// sign in.
type HiringRound struct {
	OldTerm, NewTerm uuid.UUID
}

// SeedHiringRound writes a HiringRound in one transaction.
func SeedHiringRound(ctx context.Context, store *db.Store, prefix string, hires, previous int) (HiringRound, error) {
	var r HiringRound
	const hash = "$argon2id$v=19$m=8,t=1,p=1$c2VlZA$c2VlZA" // never matches a password
	conn, err := store.Pool().Begin(ctx)
	if err != nil {
		return r, err
	}
	defer conn.Rollback(ctx) //nolint:errcheck // after Commit, a no-op
	steps := []struct {
		sql  string
		args []any
		into *uuid.UUID
	}{
		{`INSERT INTO terms (name, starts_on, ends_on) VALUES ($1 || ' old', '2025-09-01', '2026-08-31') RETURNING id`, []any{prefix}, &r.OldTerm},
		{`INSERT INTO terms (name, starts_on, ends_on) VALUES ($1 || ' new', '2026-09-01', '2027-08-31') RETURNING id`, []any{prefix}, &r.NewTerm},
	}
	for _, s := range steps {
		if err := conn.QueryRow(ctx, s.sql, s.args...).Scan(s.into); err != nil {
			return r, fmt.Errorf("seed hiring: %w", err)
		}
	}
	for _, s := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO positions (term_id, title, subteam, grants)
		  VALUES ($1, 'President', 'Board', 'president'), ($1, 'VP Tech', 'Tech', 'vp'), ($1, 'Developer', 'Tech', 'exec')`,
			[]any{r.NewTerm}},
		{`INSERT INTO profiles (email, display_name, password_hash, role, email_confirmed_at)
		  SELECT $1 || '.hire' || g || '@example.com', 'Hire ' || g, $3, 'member', now()
		  FROM generate_series(1, $2::int) g`, []any{prefix, hires, hash}},
		{`INSERT INTO applications (profile_id, status, email, resume_key, resume_name, resume_type, q1_answer, q2_answer,
		      coc_agreed, info_share_authorized, submitted_at)
		  SELECT p.id, 'submitted', p.email, p.id::text || '/cv.pdf', 'cv.pdf', 'pdf', 'q1', 'q2', true, true, now()
		  FROM profiles p WHERE p.email LIKE $1 || '.hire%@example.com'`, []any{prefix}},
		// Hire n takes the president position for n = 1, VP Tech for n = 2,
		// Developer otherwise.
		{`INSERT INTO selections (application_id, position_id, term_id, status)
		  SELECT a.id, pos.id, pos.term_id, 'accepted_offer'
		  FROM applications a JOIN profiles p ON p.id = a.profile_id
		  JOIN positions pos ON pos.term_id = $2 AND pos.grants = CASE
		      WHEN p.email = $1 || '.hire1@example.com' THEN 'president'
		      WHEN p.email = $1 || '.hire2@example.com' THEN 'vp' ELSE 'exec' END
		  WHERE p.email LIKE $1 || '.hire%@example.com'`, []any{prefix, r.NewTerm}},
		{`INSERT INTO profiles (email, display_name, password_hash, role, email_confirmed_at)
		  SELECT $1 || '.prev' || g || '@example.com', 'Previous ' || g, $3,
		         CASE WHEN g = 1 THEN 'superadmin' ELSE 'admin' END, now()
		  FROM generate_series(1, $2::int) g`, []any{prefix, previous, hash}},
		{`INSERT INTO exec_roles (profile_id, position, subteam, term_id)
		  SELECT p.id, 'Exec', 'Tech', $2 FROM profiles p WHERE p.email LIKE $1 || '.prev%@example.com'`, []any{prefix, r.OldTerm}},
	} {
		if _, err := conn.Exec(ctx, s.sql, s.args...); err != nil {
			return r, fmt.Errorf("seed hiring: %w", err)
		}
	}
	return r, conn.Commit(ctx)
}
