package review_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
)

// applications inserts n submitted applications, each of its own
// applicant.
func applications(t *testing.T, s *db.Store, n int) []uuid.UUID {
	t.Helper()
	out := make([]uuid.UUID, n)
	for i := range out {
		out[i] = application(t, s, person(t, s, fmt.Sprintf("applicant%d-%s@example.com", i, uuid.NewString()[:8]), ""), "submitted", "")
	}
	return out
}

// reviewTotal submits r's review of app with the given total (0-15),
// spread over the four scores.
func reviewTotal(t *testing.T, s *db.Store, r review.Reviewer, app uuid.UUID, total int32) {
	t.Helper()
	var sc [4]int32
	for i, c := range review.Criteria {
		sc[i] = min(total, c.Max)
		total -= sc[i]
	}
	if _, err := submit(s, r, scores(app, sc[0], sc[1], sc[2], sc[3])); err != nil {
		t.Fatal(err)
	}
}

// zOf is the z-score of v among vs (population standard deviation).
func zOf(v float64, vs ...float64) float64 {
	var sum, sq float64
	for _, x := range vs {
		sum += x
	}
	mean := sum / float64(len(vs))
	for _, x := range vs {
		sq += (x - mean) * (x - mean)
	}
	return (v - mean) / math.Sqrt(sq/float64(len(vs)))
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// reviewZ is the normalized score of r's review of app, from the admin
// details.
func reviewZ(t *testing.T, s *db.Store, by review.Reviewer, app uuid.UUID, r review.Reviewer) (total int32, z float64) {
	t.Helper()
	reviews, _, err := review.ReviewsOf(context.Background(), s.Queries, by, app)
	if err != nil {
		t.Fatal(err)
	}
	for _, rv := range reviews {
		if rv.ReviewerID == r.ProfileID {
			return rv.Total, rv.NormalizedScore
		}
	}
	t.Fatalf("no review of %v by %s", app, r.Email)
	return 0, 0
}

// sorted is the admin table sorted by a column.
func sorted(t *testing.T, s *db.Store, sort, order string) []review.AdminRow {
	t.Helper()
	lq := review.ListQuery{Sort: sort, Order: order, Status: "submitted"}
	if f := lq.Validate(); len(f) != 0 {
		t.Fatal(f)
	}
	rows, _, err := review.List(context.Background(), s.Queries, nobody, lq, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A harsh and a generous reviewer who rank the same applications the same
// give them the same normalized scores.
func TestNormalizedScoresHarshAndGenerous(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	generous := person(t, s, "generous@example.com", "")
	harsh := person(t, s, "harsh@example.com", "")
	boss := person(t, s, "boss@example.com", "")
	apps := applications(t, s, 5)
	for i, app := range apps {
		reviewTotal(t, s, generous, app, 15-int32(i)) // 15, 14, 13, 12, 11
		reviewTotal(t, s, harsh, app, 5-int32(i))     // 5, 4, 3, 2, 1
	}
	unreviewed := applications(t, s, 1)[0]

	for i, app := range apps {
		gt, gz := reviewZ(t, s, boss, app, generous)
		ht, hz := reviewZ(t, s, boss, app, harsh)
		want := zOf(float64(15-i), 15, 14, 13, 12, 11)
		if gt != 15-int32(i) || ht != 5-int32(i) || gz != hz || !near(gz, want) {
			t.Errorf("application %d: generous %d z %v, harsh %d z %v; want equal z %v", i, gt, gz, ht, hz, want)
		}
	}

	rows := sorted(t, s, "normalized_score", "desc")
	if len(rows) != 6 || rows[5].ID != unreviewed || rows[5].Score != nil || rows[5].NormalizedScore != nil {
		t.Fatalf("unreviewed row %+v, want last with null scores", rows[len(rows)-1])
	}
	for i, app := range apps {
		r := rows[i]
		if r.ID != app || r.Score == nil || *r.Score != float64(20-2*i)/2 || r.NormalizedScore == nil ||
			!near(*r.NormalizedScore, zOf(float64(15-i), 15, 14, 13, 12, 11)) {
			t.Errorf("row %d: %v score %v normalized %v, want %v", i, r.ID, r.Score, r.NormalizedScore, app)
		}
	}
	// Ascending, the unreviewed application is still last.
	asc := sorted(t, s, "normalized_score", "asc")
	if asc[0].ID != apps[4] || asc[4].ID != apps[0] || asc[5].ID != unreviewed {
		t.Errorf("ascending order %v", []uuid.UUID{asc[0].ID, asc[4].ID, asc[5].ID})
	}
	if bys := sorted(t, s, "score", "desc"); bys[0].ID != apps[0] || bys[4].ID != apps[4] {
		t.Errorf("by score: %v first, %v fifth", bys[0].ID, bys[4].ID)
	}

	sc, err := review.ScoresOf(ctx, s.Queries, current(t, s), generous.ProfileID)
	if err != nil || sc.TotalReviews != 5 || sc.MeanTotal != 13 || sc.StddevTotal != 1.41 {
		t.Fatalf("generous reviewer's scores %+v (%v), want mean 13, deviation 1.41", sc, err)
	}
	if sc, err := review.ScoresOf(ctx, s.Queries, current(t, s), harsh.ProfileID); err != nil || sc.MeanTotal != 3 || sc.StddevTotal != 1.41 {
		t.Fatalf("harsh reviewer's scores %+v (%v)", sc, err)
	}
}

// A reviewer with fewer than 5 reviews contributes their totals' z over
// every review.
func TestNormalizedScoresFewReviews(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	steady := person(t, s, "steady@example.com", "")
	newcomer := person(t, s, "newcomer@example.com", "")
	boss := person(t, s, "boss@example.com", "")
	apps := applications(t, s, 5)
	for i, app := range apps {
		reviewTotal(t, s, steady, app, 15-int32(i))
	}
	reviewTotal(t, s, newcomer, apps[0], 4)
	reviewTotal(t, s, newcomer, apps[1], 10)

	all := []float64{15, 14, 13, 12, 11, 4, 10}
	if _, z := reviewZ(t, s, boss, apps[0], newcomer); !near(z, zOf(4, all...)) {
		t.Errorf("newcomer's 4: z %v, want %v over every review", z, zOf(4, all...))
	}
	if _, z := reviewZ(t, s, boss, apps[1], newcomer); !near(z, zOf(10, all...)) {
		t.Errorf("newcomer's 10: z %v, want %v over every review", z, zOf(10, all...))
	}
	// The steady reviewer has 5: their own mean and deviation.
	if _, z := reviewZ(t, s, boss, apps[0], steady); !near(z, zOf(15, 15, 14, 13, 12, 11)) {
		t.Errorf("steady's 15: z %v, want %v within their reviews", z, zOf(15, 15, 14, 13, 12, 11))
	}
	// An application's normalized score is the mean of its reviews' z.
	row := sorted(t, s, "normalized_score", "desc")
	want := (zOf(15, 15, 14, 13, 12, 11) + zOf(4, all...)) / 2
	for _, r := range row {
		if r.ID == apps[0] && (r.NormalizedScore == nil || !near(*r.NormalizedScore, want) || *r.Score != 9.5) {
			t.Errorf("application 0: score %v normalized %v, want 9.5 and %v", r.Score, r.NormalizedScore, want)
		}
	}
}

// A reviewer whose totals are all equal contributes their z over every
// review; when every review is equal, z is 0.
func TestNormalizedScoresNoDeviation(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	flat := person(t, s, "flat@example.com", "")
	other := person(t, s, "other@example.com", "")
	boss := person(t, s, "boss@example.com", "")
	apps := applications(t, s, 5)
	for _, app := range apps {
		reviewTotal(t, s, flat, app, 10)
	}
	for _, app := range apps {
		if _, z := reviewZ(t, s, boss, app, flat); z != 0 {
			t.Fatalf("every review equal: z %v, want 0", z)
		}
	}
	reviewTotal(t, s, other, apps[0], 4)
	all := []float64{10, 10, 10, 10, 10, 4}
	if _, z := reviewZ(t, s, boss, apps[1], flat); !near(z, zOf(10, all...)) || z <= 0 {
		t.Errorf("flat reviewer's 10: z %v, want %v over every review", z, zOf(10, all...))
	}
	if _, z := reviewZ(t, s, boss, apps[0], other); !near(z, zOf(4, all...)) || z >= 0 {
		t.Errorf("other's 4: z %v, want %v over every review", z, zOf(4, all...))
	}
}
