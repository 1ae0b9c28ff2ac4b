package seed_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"hackdesk/dev/seed"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/auth"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// count runs a query answering one number.
func count(t *testing.T, pool *pgxpool.Pool, query string, args ...any) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func mustRun(t *testing.T, pool *pgxpool.Pool, o seed.Options) (seed.Result, string) {
	t.Helper()
	var progress bytes.Buffer
	res, err := seed.Run(context.Background(), pool, o, &progress)
	if err != nil {
		t.Fatalf("seed.Run(%+v): %v", o, err)
	}
	return res, progress.String()
}

// checkCounters compares the columns the reviews trigger keeps with the
// reviews themselves, for every application and reviewer.
func checkCounters(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	if n := count(t, pool, `SELECT count(*) FROM applications a
		WHERE review_count <> (SELECT count(*) FROM reviews r WHERE r.application_id = a.id)`); n != 0 {
		t.Errorf("%d applications have a review_count unlike their reviews", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM reviewer_stats s FULL JOIN (
			SELECT reviewer_id, count(*) AS n, sum(resume_score) AS resume, sum(links_score) AS links,
			       sum(q1_score) AS q1, sum(q2_score) AS q2
			FROM reviews GROUP BY reviewer_id) g USING (reviewer_id)
		WHERE (s.review_count, s.resume_sum, s.links_sum, s.q1_sum, s.q2_sum)
		      IS DISTINCT FROM (g.n, g.resume, g.links, g.q1, g.q2)`); n != 0 {
		t.Errorf("%d reviewer_stats rows differ from the reviews' aggregates", n)
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	pool := testenv.Store(t).Pool()
	ctx := context.Background()
	res, progress := mustRun(t, pool, seed.Options{Applications: 300, Reviewers: 7, Reviews: 1000, Seed: 42})

	if res.Applications != 300 || res.Reviewers != 7 || res.Reviews != 1000 || len(res.ReviewerEmails) != 7 || res.Took <= 0 {
		t.Fatalf("result = %+v", res)
	}
	for q, want := range map[string]int{
		`SELECT count(*) FROM profiles WHERE role = 'member' AND email_confirmed_at IS NOT NULL AND email LIKE '%.applicant%@seed.hackdesk.test'`: 300,
		`SELECT count(*) FROM profiles WHERE role = 'admin' AND email_confirmed_at IS NOT NULL AND email LIKE '%.reviewer%@seed.hackdesk.test'`:   7,
		`SELECT count(*) FROM profiles`:       307,
		`SELECT count(*) FROM applications`:   300,
		`SELECT count(*) FROM reviews`:        1000,
		`SELECT count(*) FROM reviewer_stats`: 7,
	} {
		if got := count(t, pool, q); got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}

	t.Run("ApplicationsSubmittedAndComplete", func(t *testing.T) {
		// The submit rules (application.RequiredForSubmit) and the PATCH field rules.
		n := count(t, pool, `SELECT count(*) FROM applications a JOIN profiles p ON p.id = a.profile_id
			WHERE a.status <> 'submitted' OR a.submitted_at IS NULL OR a.submitted_at < a.created_at
			   OR a.submitted_at > now() OR a.created_at < now() - interval '30 days'
			   OR a.email IS DISTINCT FROM p.email
			   OR coalesce(a.phone, '') !~ '^\+?[0-9 ().-]{7,25}$'
			   OR coalesce(a.discord, '') !~ '^[A-Za-z0-9_.]{2,32}(#[0-9]{4})?$'
			   OR a.tshirt_size IS NULL OR NOT a.age BETWEEN 17 AND 30 OR a.age IS NULL
			   OR coalesce(a.country, '') = '' OR coalesce(a.university, '') = ''
			   OR coalesce(a.program, '') = '' OR coalesce(a.year_of_study, '') = ''
			   OR coalesce(a.experience_level, '') = '' OR a.hackathons_attended IS NULL
			   OR coalesce(a.github_url, '') !~ '^https://github\.com/[a-z0-9]+$'
			   OR a.resume_key IS DISTINCT FROM a.profile_id::text || '/' || a.resume_name
			   OR coalesce(a.q1_answer, '') = '' OR coalesce(a.q2_answer, '') = ''
			   OR a.team_members <> '' OR NOT a.coc_agreed OR NOT a.info_share_authorized`)
		if n != 0 {
			t.Errorf("%d applications are not complete submitted ones", n)
		}
		// The haiku has three lines.
		if n := count(t, pool, `SELECT count(*) FROM applications WHERE array_length(string_to_array(q2_answer, E'\n'), 1) <> 3`); n != 0 {
			t.Errorf("%d q2 answers are not three lines", n)
		}
		// Optional fields are sometimes set, sometimes not.
		for _, col := range []string{"gender", "ethnicity", "dietary_restrictions", "linkedin_url", "website_url"} {
			set := count(t, pool, "SELECT count(*) FROM applications WHERE "+col+" IS NOT NULL")
			if set == 0 || set == 300 {
				t.Errorf("%s is set in %d of 300 applications", col, set)
			}
		}
	})

	t.Run("Reviews", func(t *testing.T) {
		if n := count(t, pool, `SELECT count(*) FROM (SELECT 1 FROM reviews
			GROUP BY application_id, reviewer_id HAVING count(*) > 1) d`); n != 0 {
			t.Errorf("%d duplicate (application, reviewer) pairs", n)
		}
		if n := count(t, pool, `SELECT count(*) FROM reviews r JOIN applications a ON a.id = r.application_id
			WHERE r.reviewed_at <= a.submitted_at OR r.reviewed_at > now()`); n != 0 {
			t.Errorf("%d reviews are not between submission and now", n)
		}
		if n := count(t, pool, `SELECT count(*) FROM reviews r JOIN profiles p ON p.id = r.reviewer_id
			WHERE p.role <> 'admin'`); n != 0 {
			t.Errorf("%d reviews are by non-admins", n)
		}
		// 1000 = 7 × 142 + 6: six reviewers review 143 applications, one 142.
		rows, err := pool.Query(ctx, `SELECT count(*) FROM reviews GROUP BY reviewer_id ORDER BY 1 DESC`)
		if err != nil {
			t.Fatal(err)
		}
		var per []int
		for rows.Next() {
			var n int
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			per = append(per, n)
		}
		if want := []int{143, 143, 143, 143, 143, 143, 142}; !slices.Equal(per, want) || rows.Err() != nil {
			t.Errorf("reviews per reviewer = %v (%v), want %v", per, rows.Err(), want)
		}
		// Every score value of every range shows up.
		if n := count(t, pool, `SELECT count(DISTINCT resume_score) + count(DISTINCT links_score)
			+ count(DISTINCT q1_score) + count(DISTINCT q2_score) FROM reviews`); n != 4+3+8+4 {
			t.Errorf("%d distinct score values, want %d", n, 4+3+8+4)
		}
	})

	t.Run("Counters", func(t *testing.T) {
		checkCounters(t, pool)
		if n := count(t, pool, `SELECT count(*) FROM pg_trigger
			WHERE tgname = 'reviews_keep_counts' AND tgenabled = 'O'`); n != 1 {
			t.Fatal("reviews_keep_counts is not enabled after seeding")
		}
	})

	t.Run("ReviewerSignsIn", func(t *testing.T) {
		var hash, role string
		if err := pool.QueryRow(ctx, `SELECT password_hash, role FROM profiles WHERE email = $1`,
			res.ReviewerEmails[0]).Scan(&hash, &role); err != nil {
			t.Fatal(err)
		}
		if ok, err := auth.VerifyPassword(context.Background(), seed.DefaultPassword, hash); !ok || err != nil || role != "admin" {
			t.Fatalf("reviewer %s: verify = %v, %v; role %s", res.ReviewerEmails[0], ok, err, role)
		}
	})

	t.Run("Progress", func(t *testing.T) {
		if !strings.HasSuffix(progress, "\n") {
			t.Fatalf("progress does not end with a newline: %q", progress)
		}
		for _, want := range []string{"profiles     307/307", "applications 300/300", "reviews      1000/1000", "counters     2/2", "[" + strings.Repeat("#", 30) + "]"} {
			if !strings.Contains(progress, want) {
				t.Errorf("progress lacks %q:\n%s", want, progress)
			}
		}
	})

	// A second run adds to the counters; repeating a prefix writes nothing.
	t.Run("SecondRun", func(t *testing.T) {
		mustRun(t, pool, seed.Options{Applications: 20, Reviewers: 3, Reviews: 50, Seed: 42, Prefix: "again"})
		checkCounters(t, pool)
		if n := count(t, pool, `SELECT count(*) FROM reviews`); n != 1050 {
			t.Fatalf("%d reviews after the second run", n)
		}
		if _, err := seed.Run(ctx, pool, seed.Options{Applications: 20, Reviewers: 3, Reviews: 50, Prefix: "again"}, nil); err == nil {
			t.Fatal("a repeated prefix was seeded again")
		}
		if n := count(t, pool, `SELECT count(*) FROM profiles`); n != 307+23 {
			t.Fatalf("%d profiles after a failed run", n)
		}
		checkCounters(t, pool)
		// The trigger keeps counting after seeding.
		if _, err := pool.Exec(ctx, `DELETE FROM reviews WHERE id = (SELECT min(id::text)::uuid FROM reviews)`); err != nil {
			t.Fatal(err)
		}
		checkCounters(t, pool)
	})
}

// scores is every review's scores and its application's answers, sorted:
// a multiset that ignores IDs and emails.
func scores(t *testing.T, pool *pgxpool.Pool) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT r.resume_score, r.links_score, r.q1_score, r.q2_score, a.q1_answer, a.q2_answer, a.university
		FROM reviews r JOIN applications a ON a.id = r.application_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s1, s2, s3, s4 int
		var q1, q2, uni string
		if err := rows.Scan(&s1, &s2, &s3, &s4, &q1, &q2, &uni); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(s1, s2, s3, s4, q1, q2, uni))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestRunDeterministic(t *testing.T) {
	t.Parallel()
	o := seed.Options{Applications: 120, Reviewers: 4, Reviews: 300, Seed: 7}
	a, b := testenv.Store(t).Pool(), testenv.Store(t).Pool()
	mustRun(t, a, o)
	mustRun(t, b, o)
	if sa, sb := scores(t, a), scores(t, b); !slices.Equal(sa, sb) || len(sa) != 300 {
		t.Fatalf("the same seed gave different reviews (%d and %d)", len(sa), len(sb))
	}
	c := testenv.Store(t).Pool()
	o.Seed = 8
	mustRun(t, c, o)
	if slices.Equal(scores(t, a), scores(t, c)) {
		t.Fatal("seeds 7 and 8 gave the same reviews")
	}
}

func TestRunInvalid(t *testing.T) {
	t.Parallel()
	pool := testenv.Store(t).Pool()
	for name, o := range map[string]seed.Options{
		"ErrTooManyReviews": {Applications: 10, Reviewers: 3, Reviews: 31},
		"ErrNoReviewers":    {Applications: 10, Reviews: 1},
		"ErrNegative":       {Applications: -1},
		"ErrBadPrefix":      {Applications: 1, Prefix: "Bad Prefix"},
		"ErrShortPassword":  {Applications: 1, Password: "short"},
	} {
		t.Run(name, func(t *testing.T) {
			var progress bytes.Buffer
			if _, err := seed.Run(context.Background(), pool, o, &progress); !errors.Is(err, seed.ErrInvalidOptions) {
				t.Fatalf("Run(%+v) = %v, want ErrInvalidOptions", o, err)
			}
		})
	}
	if n := count(t, pool, `SELECT (SELECT count(*) FROM profiles) + (SELECT count(*) FROM applications) + (SELECT count(*) FROM reviews)`); n != 0 {
		t.Fatalf("refused runs wrote %d rows", n)
	}
	// The boundary itself is fine: every application reviewed by everyone.
	mustRun(t, pool, seed.Options{Applications: 10, Reviewers: 3, Reviews: 30})
	if n := count(t, pool, `SELECT count(*) FROM applications WHERE review_count = 3`); n != 10 {
		t.Fatalf("%d of 10 applications have 3 reviews", n)
	}
	checkCounters(t, pool)
}
