package review_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
)

// TestSubmittedCountKept: the statistics' count of an edition's submitted
// applications (hackathon_submitted, kept by triggers) equals a count of
// the applications after each change that moves it: single inserts of
// drafts and submitted ones, a draft submitted, one statement inserting
// several, a move to another edition and back, deletions of one and of
// several rows across both editions, an update that touches status
// without changing it.
func TestSubmittedCountKept(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	last := current(t, s)
	check := func(step string, edition uuid.UUID, want int64) {
		t.Helper()
		var counted int64
		if err := s.Pool().QueryRow(ctx,
			`SELECT count(*) FROM applications WHERE hackathon_id = $1 AND status = 'submitted'`, edition).Scan(&counted); err != nil {
			t.Fatal(err)
		}
		st := review.Board(ctx, s.Queries, testenv.Logger(t), edition).Statistics
		if st.TotalApplications != want || counted != want {
			t.Fatalf("%s: the statistics say %d submitted, a count %d, want %d", step, st.TotalApplications, counted, want)
		}
	}
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := s.Pool().Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	check("no applications", last, 0)
	a := application(t, s, person(t, s, "a@example.com", ""), "submitted", "")
	b := application(t, s, person(t, s, "b@example.com", ""), "draft", "")
	check("one submitted, one draft", last, 1)
	exec(`UPDATE applications SET status = 'submitted', submitted_at = now() WHERE id = $1`, b)
	check("the draft submitted", last, 2)
	exec(`UPDATE applications SET status = status, team_members = 'x' WHERE id = $1`, a)
	check("status set to itself", last, 2)

	// Three at once, two of them submitted: one statement's rows.
	var many []uuid.UUID
	for i := range 3 {
		many = append(many, person(t, s, fmt.Sprintf("m%d@example.com", i), "").ProfileID)
	}
	exec(`INSERT INTO applications (profile_id, status, email, phone, discord, tshirt_size, age, country,
			university, program, year_of_study, experience_level, hackathons_attended,
			resume_key, resume_name, resume_type, q1_answer, q2_answer, coc_agreed, info_share_authorized, submitted_at)
		SELECT p.id, CASE WHEN p.email = 'm0@example.com' THEN 'draft' ELSE 'submitted' END, p.email,
			'+1 613 555 0100', 'handle', 'M', 20, 'Canada', 'uOttawa', 'CS', '2', 'beginner', 1,
			p.id::text || '/cv.pdf', 'cv.pdf', 'pdf', 'q1', 'q2', true, true,
			CASE WHEN p.email = 'm0@example.com' THEN NULL ELSE now() END
		FROM profiles p WHERE p.id = ANY($1::uuid[])`, many)
	check("three inserted in one statement", last, 4)

	this := testenv.Hackathon(t, s, testenv.HackathonOpts{Name: "This year", Current: true}).ID
	check("a new edition", this, 0)
	exec(`UPDATE applications SET hackathon_id = $1 WHERE id = ANY($2::uuid[])`, this, []uuid.UUID{a, b})
	check("two moved out", last, 2)
	check("two moved in", this, 2)
	exec(`UPDATE applications SET hackathon_id = $1 WHERE id = $2`, last, b)
	check("one moved back", last, 3)
	check("one moved back", this, 1)
	exec(`DELETE FROM applications WHERE id = $1`, a)
	check("the moved one deleted", this, 0)
	check("the moved one deleted", last, 3)
	exec(`DELETE FROM applications WHERE profile_id = ANY($1::uuid[])`, many)
	check("the three deleted in one statement", last, 1)
	check("the three deleted in one statement", this, 0)
}
