package seed

import (
	"context"
	"fmt"

	"hackdesk/db"
)

// The demo's hackathon editions: last year's, closed and decided, and this
// year's, open and current.
const (
	DemoPastHackathon    = "Demo Hackathon: last year"
	DemoCurrentHackathon = "Demo Hackathon: this year"
)

// demoApplicants is how many extra applicant accounts the demo editions
// are made of (they cannot sign in); the demo applicant (Ada) applied last
// year and has not started this year's application.
const demoApplicants = 12

// demoEditions makes, in one transaction, the demo's two editions unless
// they exist: last year's (closed, with a capacity, every application
// reviewed and decided, RSVPs answered) and this year's (open for two
// more weeks, some applications submitted and reviewed, some drafts),
// which becomes the current edition. The applicants of both are the same
// people where they applied twice, so a returning applicant can be seen.
// It reports whether it made them.
func demoEditions(ctx context.Context, store *db.Store) (bool, error) {
	tx, err := store.Pool().Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM hackathons WHERE lower(name) IN (lower($1), lower($2)))`,
		DemoPastHackathon, DemoCurrentHackathon).Scan(&exists); err != nil {
		return false, err
	}
	if exists {
		return false, nil
	}
	const hash = "$argon2id$v=19$m=8,t=1,p=1$c2VlZA$c2VlZA" // never matches a password
	for _, st := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO hackathons (name, applications_open_at, applications_close_at, starts_at, ends_at, capacity)
		  VALUES ($1, now() - interval '400 days', now() - interval '370 days', now() - interval '365 days',
		          now() - interval '363 days', 6)`, []any{DemoPastHackathon}},
		{`INSERT INTO hackathons (name, applications_open_at, applications_close_at, starts_at, ends_at, capacity)
		  VALUES ($1, now() - interval '7 days', now() + interval '14 days', now() + interval '21 days',
		          now() + interval '23 days', 40)`, []any{DemoCurrentHackathon}},
		{`INSERT INTO profiles (email, display_name, password_hash, role, email_confirmed_at, created_at)
		  SELECT 'applicant' || g || '@' || $1, (ARRAY['Ana','Ben','Chidi','Dana','Emeka','Farah','Gus','Hana','Ivan','Jia','Kofi','Lena'])[g]
		         || ' ' || (ARRAY['Okafor','Silva','Tremblay','Nguyen','Patel','Khan','Murphy','Ito','Novak','Wang','Mensah','Rossi'])[g],
		         $2, 'member', now() - interval '420 days', now() - interval '420 days'
		  FROM generate_series(1, $3::int) g
		  ON CONFLICT DO NOTHING`, []any{DemoDomain, hash, demoApplicants}},
		// Last year: every demo applicant and Ada applied and submitted.
		{`INSERT INTO applications (profile_id, hackathon_id, status, email, phone, discord, tshirt_size, age, country,
		      university, program, year_of_study, experience_level, hackathons_attended, github_url,
		      resume_key, resume_name, resume_type, q1_answer, q2_answer, coc_agreed, info_share_authorized,
		      created_at, updated_at, submitted_at)
		  SELECT p.id, h.id, 'submitted', p.email, '+1 709 555 01' || lpad((row_number() OVER (ORDER BY p.email))::text, 2, '0'),
		         split_part(p.email, '@', 1), 'M', 21, 'Canada', 'Memorial University of Newfoundland', 'Computer Science',
		         '3rd year', 'Intermediate', 2, 'https://github.com/' || split_part(p.email, '@', 1),
		         p.id::text || '/cv.pdf', 'cv.pdf', 'pdf',
		         'Last year I built a bus tracker for St. John''s that predicts late arrivals.',
		         'Cold coffee at dawn' || chr(10) || 'a stack trace scrolls past my eyes' || chr(10) || 'we ship it anyway',
		         true, true, h.applications_open_at + interval '2 days', h.applications_open_at + interval '3 days',
		         h.applications_open_at + interval '3 days'
		  FROM profiles p, hackathons h
		  WHERE h.name = $1 AND (p.email LIKE 'applicant%@' || $2)`, []any{DemoPastHackathon, DemoDomain}},
		// This year: the first eight came back (five submitted), Ada has
		// not started.
		{`INSERT INTO applications (profile_id, hackathon_id, status, email, phone, discord, tshirt_size, age, country,
		      university, program, year_of_study, experience_level, hackathons_attended, github_url,
		      resume_key, resume_name, resume_type, q1_answer, q2_answer, coc_agreed, info_share_authorized,
		      created_at, updated_at, submitted_at)
		  SELECT a.profile_id, h.id, CASE WHEN n <= 5 THEN 'submitted' ELSE 'draft' END, a.email, a.phone, a.discord,
		         a.tshirt_size, a.age + 1, a.country, a.university, a.program, '4th year', 'Advanced', 3, a.github_url,
		         a.profile_id::text || '/cv-2.pdf', 'cv.pdf', 'pdf', a.q1_answer,
		         CASE WHEN n <= 5 THEN a.q2_answer END, n <= 5, n <= 5,
		         now() - interval '6 days', now() - interval '5 days', CASE WHEN n <= 5 THEN now() - interval '5 days' END
		  FROM (SELECT a.*, row_number() OVER (ORDER BY p.email) AS n
		        FROM applications a JOIN profiles p ON p.id = a.profile_id JOIN hackathons ph ON ph.id = a.hackathon_id
		        WHERE ph.name = $1 AND p.email LIKE 'applicant%@' || $3 AND p.email <> 'applicant@' || $3) a,
		       hackathons h
		  WHERE h.name = $2 AND n <= 8`, []any{DemoPastHackathon, DemoCurrentHackathon, DemoDomain}},
		// Reviews: the demo reviewer and superadmin reviewed every one of
		// last year's, the reviewer three of this year's.
		{`INSERT INTO reviews (application_id, reviewer_id, resume_score, links_score, q1_score, q2_score, reviewed_at)
		  SELECT a.id, r.id, (hashtext(a.id::text || r.email) & 3), (hashtext(r.email || a.id::text) & 1) + 1,
		         (hashtext(a.id::text) & 7), (hashtext(r.email) & 3), a.submitted_at + interval '1 day'
		  FROM applications a JOIN hackathons h ON h.id = a.hackathon_id,
		       profiles r
		  WHERE h.name = $1 AND r.email IN ('reviewer@' || $2, 'superadmin@' || $2)`, []any{DemoPastHackathon, DemoDomain}},
		{`INSERT INTO reviews (application_id, reviewer_id, resume_score, links_score, q1_score, q2_score)
		  SELECT a.id, r.id, 2, 1, 5, 2
		  FROM applications a JOIN hackathons h ON h.id = a.hackathon_id JOIN profiles p ON p.id = a.profile_id,
		       profiles r
		  WHERE h.name = $1 AND a.status = 'submitted' AND r.email = 'reviewer@' || $2
		    AND p.email IN ('applicant1@' || $2, 'applicant2@' || $2, 'applicant3@' || $2)`, []any{DemoCurrentHackathon, DemoDomain}},
		// Last year's decisions, by rank of the mean review total: six
		// offers (four attending, one declined, one expired), three on the
		// waitlist, the rest rejected. Ada was offered a place and came.
		{`WITH ranked AS (
		      SELECT a.id, p.email, row_number() OVER (ORDER BY (p.email = 'applicant@' || $2) DESC, avg(r.resume_score + r.links_score + r.q1_score + r.q2_score) DESC, a.id) AS n
		      FROM applications a JOIN hackathons h ON h.id = a.hackathon_id JOIN profiles p ON p.id = a.profile_id
		      JOIN reviews r ON r.application_id = a.id
		      WHERE h.name = $1 GROUP BY a.id, p.email)
		  UPDATE applications a SET
		      decision = CASE WHEN n <= 6 THEN 'offer' WHEN n <= 9 THEN 'waitlist' ELSE 'reject' END,
		      decided_at = h.applications_close_at + interval '1 day',
		      rsvp_deadline = CASE WHEN n <= 6 THEN h.applications_close_at + interval '4 days' END,
		      rsvp = CASE WHEN n <= 4 THEN 'attending' WHEN n = 5 THEN 'declined' WHEN n = 6 THEN 'expired' END,
		      rsvp_at = CASE WHEN n <= 6 THEN h.applications_close_at + interval '2 days' + n * interval '5 hours' END
		  FROM ranked, hackathons h
		  WHERE a.id = ranked.id AND h.name = $1`, []any{DemoPastHackathon, DemoDomain}},
		{`INSERT INTO application_events (application_id, actor_id, kind, detail, created_at)
		  SELECT a.id, s.id, 'decision', jsonb_build_object('decision', a.decision, 'rsvp_deadline', a.rsvp_deadline,
		         'previous', NULL), a.decided_at
		  FROM applications a JOIN hackathons h ON h.id = a.hackathon_id, profiles s
		  WHERE h.name = $1 AND a.decision IS NOT NULL AND s.email = 'superadmin@' || $2`, []any{DemoPastHackathon, DemoDomain}},
		{`INSERT INTO application_events (application_id, actor_id, kind, detail, created_at)
		  SELECT a.id, a.profile_id, 'rsvp', jsonb_build_object('attending', a.rsvp = 'attending', 'previous', NULL), a.rsvp_at
		  FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		  WHERE h.name = $1 AND a.rsvp IN ('attending', 'declined')`, []any{DemoPastHackathon}},
		// The event day: both editions have a venue; last year three of
		// the four who came were checked in at the door (one by a walk-in
		// volunteer's hand would look the same); this year three of the
		// submitted hold an accepted offer with their diet and T-shirt
		// confirmed, and one is on the waitlist (a possible walk-in).
		{`UPDATE hackathons SET venue = 'Engineering Building, Memorial University, St. John''s',
		      feedback_url = 'https://example.org/hackathon-feedback' WHERE name IN ($1, $2)`, []any{DemoPastHackathon, DemoCurrentHackathon}},
		{`WITH came AS (
		      SELECT a.id, row_number() OVER (ORDER BY a.id) AS n
		      FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
		      WHERE h.name = $1 AND a.rsvp = 'attending')
		  UPDATE applications a SET checked_in_at = h.starts_at + came.n * interval '7 minutes', checked_in_by = s.id,
		      dietary_restrictions = (ARRAY['Vegetarian', 'vegan', NULL])[came.n]
		  FROM came, hackathons h, profiles s
		  WHERE a.id = came.id AND h.name = $1 AND came.n <= 3 AND s.email = 'superadmin@' || $2`, []any{DemoPastHackathon, DemoDomain}},
		{`WITH sub AS (
		      SELECT a.id, row_number() OVER (ORDER BY p.email) AS n
		      FROM applications a JOIN hackathons h ON h.id = a.hackathon_id JOIN profiles p ON p.id = a.profile_id
		      WHERE h.name = $1 AND a.status = 'submitted')
		  UPDATE applications a SET
		      decision = CASE WHEN n <= 3 THEN 'offer' ELSE 'waitlist' END, decided_at = now() - interval '1 day',
		      rsvp_deadline = CASE WHEN n <= 3 THEN now() + interval '6 days' END,
		      rsvp = CASE WHEN n <= 3 THEN 'attending' END, rsvp_at = CASE WHEN n <= 3 THEN now() - interval '12 hours' END,
		      tshirt_size = (ARRAY['S', 'M', 'L', 'M'])[n],
		      dietary_restrictions = (ARRAY['Vegetarian', NULL, 'Halal', NULL])[n]
		  FROM sub WHERE a.id = sub.id AND sub.n <= 4`, []any{DemoCurrentHackathon}},
		{`UPDATE hackathons SET current = false WHERE current`, nil},
		{`UPDATE hackathons SET current = true WHERE name = $1`, []any{DemoCurrentHackathon}},
	} {
		if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
			return false, fmt.Errorf("demo editions: %w", err)
		}
	}
	return true, tx.Commit(ctx)
}
