-- name: ApplicationInsert :one
-- A draft of the edition named, or of the current one without.
INSERT INTO applications (profile_id, hackathon_id, email)
VALUES (@profile_id, coalesce(sqlc.narg('hackathon_id')::uuid, hackathon_current_id()), @email)
RETURNING *;

-- name: ApplicationInsertCopy :one
-- A new application of the edition for the owner of the source, with the
-- source's contact, about-you, demographic, education, experience and link
-- fields; never its answers, team, positions or agreements. The résumé is
-- set apart, once its object is copied (ApplicationSetResume).
INSERT INTO applications (profile_id, hackathon_id, email, phone, discord, tshirt_size, dietary_restrictions,
    age, country, gender, ethnicity, university, program, year_of_study, experience_level,
    hackathons_attended, github_url, linkedin_url, website_url)
SELECT s.profile_id, @hackathon_id, s.email, s.phone, s.discord, s.tshirt_size, s.dietary_restrictions,
    s.age, s.country, s.gender, s.ethnicity, s.university, s.program, s.year_of_study, s.experience_level,
    s.hackathons_attended, s.github_url, s.linkedin_url, s.website_url
FROM applications s
WHERE s.id = @source_id
RETURNING *;

-- name: ApplicationGetByProfile :one
-- The profile's application in the current edition.
SELECT * FROM applications WHERE profile_id = $1 AND hackathon_id = hackathon_current_id();

-- name: ApplicationGet :one
SELECT * FROM applications WHERE id = $1;

-- name: ApplicationOwnerView :one
-- The caller's application in the current edition as its owner sees it,
-- with the display names of its team (as reviewers see them).
SELECT sqlc.embed(a),
       application_team_names(a.team_members)::jsonb AS team_members_with_names
FROM applications a
WHERE a.profile_id = $1 AND a.hackathon_id = hackathon_current_id();

-- name: ApplicationGetIn :one
-- The profile's application in one edition.
SELECT * FROM applications WHERE profile_id = @profile_id AND hackathon_id = @hackathon_id;

-- name: ApplicationLockIn :one
-- The profile's application in one edition, locked for change.
SELECT * FROM applications WHERE profile_id = @profile_id AND hackathon_id = @hackathon_id FOR UPDATE;

-- name: ApplicationsLockByProfile :many
-- Every application of the profile, locked (in id order): what holds a
-- résumé object is decided over all of them.
SELECT * FROM applications WHERE profile_id = $1 ORDER BY id FOR UPDATE;

-- name: ApplicationHistoryByProfile :many
-- The profile's applications of editions other than the current one,
-- the latest edition first.
SELECT a.id, a.status, a.decision, a.rsvp, a.rsvp_deadline, a.submitted_at,
       h.id AS hackathon_id, h.name AS hackathon_name
FROM applications a JOIN hackathons h ON h.id = a.hackathon_id
WHERE a.profile_id = $1 AND NOT h.current
ORDER BY h.applications_open_at DESC, h.created_at DESC, a.id;

-- name: ApplicationUpdate :exec
-- Writes every applicant-editable field; callers load the row FOR UPDATE,
-- apply the patch and write it back.
UPDATE applications SET
    email = @email, phone = @phone, discord = @discord, tshirt_size = @tshirt_size,
    dietary_restrictions = @dietary_restrictions, age = @age, country = @country,
    gender = @gender, ethnicity = @ethnicity, university = @university, program = @program,
    year_of_study = @year_of_study, experience_level = @experience_level,
    hackathons_attended = @hackathons_attended, github_url = @github_url,
    linkedin_url = @linkedin_url, website_url = @website_url, q1_answer = @q1_answer,
    q2_answer = @q2_answer, team_members = @team_members, coc_agreed = @coc_agreed,
    info_share_authorized = @info_share_authorized, marketing_opt_in = @marketing_opt_in,
    updated_at = now()
WHERE id = @id AND status = 'draft';

-- name: ApplicationSetResume :exec
UPDATE applications SET resume_key = @resume_key, resume_name = @resume_name, resume_type = @resume_type,
    updated_at = now()
WHERE id = @id AND status = 'draft';

-- name: ApplicationFillResumeType :exec
-- The lazy backfill of a resume stored before types were: sets the type
-- read from the object only while the row still points at that object and
-- has no type, so a newer upload's type is never overwritten and running it
-- twice is harmless. updated_at stays: the applicant changed nothing.
UPDATE applications SET resume_type = @resume_type
WHERE id = @id AND resume_key = @resume_key AND resume_type IS NULL;

-- name: ApplicationSubmit :one
UPDATE applications SET status = 'submitted', submitted_at = now(), updated_at = now()
WHERE id = $1 AND status = 'draft'
RETURNING *;

-- name: ApplicationReviewView :one
-- An application as reviewers see it, with its applicant's and its team's
-- display names;
-- an erased person's is not found.
SELECT sqlc.embed(a),
       application_team_names(a.team_members)::jsonb AS team_members_with_names,
       (SELECT p.display_name FROM profiles p WHERE p.id = a.profile_id) AS applicant_name
FROM applications a
WHERE a.id = $1 AND a.erased_at IS NULL;

-- name: ApplicationNextForReviewerView :one
-- The assignment rule, in the current edition: submitted applications
-- only (an erased person's not among them), none the reviewer has a
-- conflict of interest with (application_conflict: their own, one whose
-- team lists their email, one whose applicant their own application of
-- the edition lists), none they reviewed, none at the cap (when set);
-- fewest reviews first, ties by id, except that the reviewer's skipped
-- ones come after every other one (fewest skips first, then the same
-- order). Two passes, the first that finds one wins: the first walks
-- applications_queue_idx leaving the reviewer's skipped ones out, tests
-- the conflict on the row it is on (an inlined expression; the
-- applicant's email is looked up only for a reviewer whose own
-- application lists someone) and probes the (application_id, reviewer_id)
-- unique indexes of reviews and review_skips per candidate, so it stops at
-- the first fit; the second reads only the reviewer's own skips. (One
-- ORDER BY on the skips would sort every application of the edition on
-- each call.) The reviewer's own team list is read once (mine). The
-- chosen row comes back in the reviewer view (team names included), so the
-- queue costs one round trip.
WITH mine AS MATERIALIZED (
    SELECT coalesce((SELECT m.team_members FROM applications m
                     WHERE m.profile_id = @reviewer_id AND m.hackathon_id = hackathon_current_id()), '')::text AS team
)
SELECT sqlc.embed(a),
       application_team_names(a.team_members)::jsonb AS team_members_with_names,
       (SELECT p.display_name FROM profiles p WHERE p.id = a.profile_id) AS applicant_name
FROM applications a
WHERE a.id = coalesce(
    (SELECT n.id FROM applications n CROSS JOIN mine
     WHERE n.hackathon_id = hackathon_current_id()
       AND n.status = 'submitted' AND n.erased_at IS NULL
       AND application_conflict(@reviewer_id, @reviewer_email::text, mine.team, n.profile_id,
               (SELECT p.email FROM profiles p WHERE p.id = n.profile_id), n.team_members) = ''
       AND NOT EXISTS (
           SELECT 1 FROM reviews r WHERE r.application_id = n.id AND r.reviewer_id = @reviewer_id)
       AND NOT EXISTS (
           SELECT 1 FROM review_skips k WHERE k.reviewer_id = @reviewer_id AND k.application_id = n.id)
       AND (sqlc.narg('cap')::integer IS NULL OR n.review_count < sqlc.narg('cap')::integer)
     ORDER BY n.review_count, n.id
     LIMIT 1),
    (SELECT n.id FROM review_skips k JOIN applications n ON n.id = k.application_id CROSS JOIN mine
     WHERE k.reviewer_id = @reviewer_id
       AND n.hackathon_id = hackathon_current_id()
       AND n.status = 'submitted' AND n.erased_at IS NULL
       AND application_conflict(@reviewer_id, @reviewer_email::text, mine.team, n.profile_id,
               (SELECT p.email FROM profiles p WHERE p.id = n.profile_id), n.team_members) = ''
       AND NOT EXISTS (
           SELECT 1 FROM reviews r WHERE r.application_id = n.id AND r.reviewer_id = @reviewer_id)
       AND (sqlc.narg('cap')::integer IS NULL OR n.review_count < sqlc.narg('cap')::integer)
     ORDER BY k.skips, n.review_count, n.id
     LIMIT 1));

-- name: ApplicationQueueSize :one
-- How many applications the queue of the current edition holds for
-- reviewers in general: submitted, not erased, under the cap; with the
-- edition and the queue's generation this count is good for (one
-- snapshot). A reviewer's count is this less ApplicationQueueNotMine.
SELECT (SELECT count(*) FROM applications n
        WHERE n.hackathon_id = hackathon_current_id()
          AND n.status = 'submitted' AND n.erased_at IS NULL
          AND (sqlc.narg('cap')::integer IS NULL OR n.review_count < sqlc.narg('cap')::integer))::integer AS size,
       hackathon_current_id()::uuid AS hackathon_id,
       (SELECT g.n FROM queue_generation g)::bigint AS generation;

-- name: ApplicationQueueNotMine :one
-- How many of ApplicationQueueSize's applications the reviewer's queue
-- leaves out (those they reviewed and those application_conflict names:
-- their own, one whose team lists them, one whose applicant their own
-- team lists), with the edition and generation it read. Nothing here
-- reads the edition's applications: with no cap, the reviewed ones are
-- the reviewer's counter for the edition less their reviews of erased
-- applications (only submitted applications are reviewed, and a submitted
-- one leaves the queue only by its erasure); under a cap, the reviewer's
-- reviews are read with their applications' counts. The conflicted ones
-- are found through indexes: the applicant, the team lists' GIN index,
-- the listed emails.
WITH cur AS MATERIALIZED (SELECT hackathon_current_id() AS id),
mine AS MATERIALIZED (
    SELECT coalesce((SELECT m.team_members FROM applications m, cur
                     WHERE m.profile_id = @reviewer_id AND m.hackathon_id = cur.id), '')::text AS team
),
conflicted AS (
    SELECT a.id FROM applications a, cur
    WHERE a.profile_id = @reviewer_id AND a.hackathon_id = cur.id
    UNION
    SELECT a.id FROM applications a, cur
    WHERE @reviewer_email::text <> '' AND a.status = 'submitted' AND a.hackathon_id = cur.id
      AND team_emails(a.team_members) @> ARRAY[lower(@reviewer_email::text)]
    UNION
    SELECT a.id FROM mine, profiles p JOIN applications a ON a.profile_id = p.id, cur
    WHERE mine.team <> '' AND a.hackathon_id = cur.id AND p.email <> ''
      AND lower(p.email) = ANY (team_emails(mine.team))
)
SELECT (CASE WHEN sqlc.narg('cap')::integer IS NULL THEN
            coalesce((SELECT s.review_count FROM reviewer_stats s
                      WHERE s.reviewer_id = @reviewer_id AND s.hackathon_id = cur.id), 0)
            - (SELECT count(*) FROM applications e JOIN reviews rv ON rv.application_id = e.id
               WHERE e.hackathon_id = cur.id AND e.erased_at IS NOT NULL AND rv.reviewer_id = @reviewer_id)
        ELSE
            (SELECT count(*) FROM reviews rv JOIN applications n ON n.id = rv.application_id
             WHERE rv.reviewer_id = @reviewer_id AND rv.hackathon_id = cur.id
               AND n.status = 'submitted' AND n.erased_at IS NULL
               AND n.review_count < sqlc.narg('cap')::integer)
        END
        + (SELECT count(*) FROM conflicted c JOIN applications n ON n.id = c.id
           WHERE n.hackathon_id = cur.id AND n.status = 'submitted' AND n.erased_at IS NULL
             AND (sqlc.narg('cap')::integer IS NULL OR n.review_count < sqlc.narg('cap')::integer)
             AND NOT EXISTS (SELECT 1 FROM reviews rv
                             WHERE rv.application_id = n.id AND rv.reviewer_id = @reviewer_id)))::integer AS not_mine,
       cur.id::uuid AS hackathon_id,
       (SELECT g.n FROM queue_generation g)::bigint AS generation
FROM cur;

-- name: ApplicationQueueLeftScan :one
-- ApplicationQueueLeft as one statement that reads every application of
-- the edition: the definition the two statements above are tested
-- against (queue_left_store_test.go); never on a request's path.
WITH mine AS MATERIALIZED (
    SELECT coalesce((SELECT m.team_members FROM applications m
                     WHERE m.profile_id = @reviewer_id AND m.hackathon_id = hackathon_current_id()), '')::text AS team
)
SELECT count(*)::integer FROM applications n CROSS JOIN mine
WHERE n.hackathon_id = hackathon_current_id()
  AND n.status = 'submitted' AND n.erased_at IS NULL
  AND application_conflict(@reviewer_id, @reviewer_email::text, mine.team, n.profile_id,
          (SELECT p.email FROM profiles p WHERE p.id = n.profile_id), n.team_members) = ''
  AND NOT EXISTS (
      SELECT 1 FROM reviews r WHERE r.application_id = n.id AND r.reviewer_id = @reviewer_id)
  AND (sqlc.narg('cap')::integer IS NULL OR n.review_count < sqlc.narg('cap')::integer);

-- name: ApplicationReviewConflict :one
-- What stands between an actor and an application: its status, its
-- edition (and whether that is the current one), and what the
-- conflict-of-interest rule (package coi) reads: the applicant, their
-- email and the team list, and the team list of the actor's own
-- application in the same edition ('' when none). An erased person's
-- application is not found.
SELECT a.status, a.profile_id, p.email AS applicant_email, a.team_members, a.hackathon_id,
       (a.hackathon_id = hackathon_current_id())::boolean AS current,
       coalesce(m.team_members, '')::text AS actor_team
FROM applications a
JOIN profiles p ON p.id = a.profile_id
LEFT JOIN applications m ON m.profile_id = @actor_id AND m.hackathon_id = a.hackathon_id
WHERE a.id = @application_id AND a.erased_at IS NULL;

-- name: AdminApplicationList :many
-- The admin applications table of one edition (an erased person's
-- applications left out): one row per application with the
-- applicant's name, filtered by status, decision ('none': undecided), RSVP
-- (of offers only; 'pending': not answered yet) and a case-insensitive substring of
-- the shown email or name (the caller passes an escaped, lowercased LIKE
-- pattern), sorted by one whitelisted column. The scores of an
-- application the caller has a conflict of interest with
-- (application_conflict: their own, their team's, or that of someone
-- their own application of the edition lists) are not joined: they read,
-- and sort, as unreviewed. Text columns sort
-- case-insensitively with empty values last in both directions, as do the
-- scores (application_scores) of unreviewed applications; ties are
-- broken by id in the same direction, so pages are stable. Only one CASE
-- line is non-NULL for a given (sort, order_dir); the others are constant
-- and do not affect the order. The edition's scores are computed once
-- (MATERIALIZED) and hash-joined: joined to the view directly, the planner
-- chose a nested loop that rescanned every application's scores for each
-- row of the page (15 to 30 s at 100,000 applications).
WITH scores AS MATERIALIZED (
    SELECT application_id, score, normalized_score FROM application_scores WHERE hackathon_id = @hackathon_id
)
SELECT a.id,
       p.display_name AS name,
       coalesce(a.email, p.email)::text AS email,
       a.university,
       a.gender,
       a.review_count,
       a.status,
       a.decision,
       a.rsvp,
       a.created_at,
       a.submitted_at,
       sc.score,
       sc.normalized_score
FROM applications a
JOIN profiles p ON p.id = a.profile_id
LEFT JOIN applications m ON m.profile_id = @actor_id AND m.hackathon_id = @hackathon_id
LEFT JOIN scores sc ON sc.application_id = a.id
    AND application_conflict(@actor_id, @actor_email::text, coalesce(m.team_members, ''),
            a.profile_id, p.email, a.team_members) = ''
WHERE a.hackathon_id = @hackathon_id AND a.erased_at IS NULL
  AND (sqlc.narg('status')::text IS NULL OR a.status = sqlc.narg('status')::text)
  AND (sqlc.narg('decision')::text IS NULL OR coalesce(a.decision, 'none') = sqlc.narg('decision')::text)
  AND (sqlc.narg('rsvp')::text IS NULL
       OR (a.decision = 'offer' AND coalesce(a.rsvp, 'pending') = sqlc.narg('rsvp')::text))
  AND (sqlc.narg('pattern')::text IS NULL
       OR lower(coalesce(a.email, p.email)) LIKE sqlc.narg('pattern')::text
       OR lower(p.display_name) LIKE sqlc.narg('pattern')::text)
ORDER BY
    CASE WHEN @sort::text = 'name' AND @order_dir::text = 'asc' THEN lower(p.display_name) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'name' AND @order_dir::text = 'desc' THEN lower(p.display_name) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'email' AND @order_dir::text = 'asc' THEN lower(coalesce(a.email, p.email)) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'email' AND @order_dir::text = 'desc' THEN lower(coalesce(a.email, p.email)) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'university' AND @order_dir::text = 'asc' THEN lower(a.university) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'university' AND @order_dir::text = 'desc' THEN lower(a.university) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'gender' AND @order_dir::text = 'asc' THEN lower(a.gender) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'gender' AND @order_dir::text = 'desc' THEN lower(a.gender) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'reviews' AND @order_dir::text = 'asc' THEN a.review_count END ASC,
    CASE WHEN @sort::text = 'reviews' AND @order_dir::text = 'desc' THEN a.review_count END DESC,
    CASE WHEN @sort::text = 'score' AND @order_dir::text = 'asc' THEN sc.score END ASC NULLS LAST,
    CASE WHEN @sort::text = 'score' AND @order_dir::text = 'desc' THEN sc.score END DESC NULLS LAST,
    CASE WHEN @sort::text = 'normalized_score' AND @order_dir::text = 'asc' THEN sc.normalized_score END ASC NULLS LAST,
    CASE WHEN @sort::text = 'normalized_score' AND @order_dir::text = 'desc' THEN sc.normalized_score END DESC NULLS LAST,
    CASE WHEN @sort::text = 'created_at' AND @order_dir::text = 'asc' THEN a.created_at END ASC,
    CASE WHEN @sort::text = 'created_at' AND @order_dir::text = 'desc' THEN a.created_at END DESC,
    CASE WHEN @order_dir::text = 'asc' THEN a.id END ASC,
    CASE WHEN @order_dir::text = 'desc' THEN a.id END DESC
LIMIT @page_limit OFFSET @page_offset;

-- name: AdminApplicationCount :one
-- The number of rows AdminApplicationList pages through.
SELECT count(*) FROM applications a
JOIN profiles p ON p.id = a.profile_id
WHERE a.hackathon_id = @hackathon_id AND a.erased_at IS NULL
  AND (sqlc.narg('status')::text IS NULL OR a.status = sqlc.narg('status')::text)
  AND (sqlc.narg('decision')::text IS NULL OR coalesce(a.decision, 'none') = sqlc.narg('decision')::text)
  AND (sqlc.narg('rsvp')::text IS NULL
       OR (a.decision = 'offer' AND coalesce(a.rsvp, 'pending') = sqlc.narg('rsvp')::text))
  AND (sqlc.narg('pattern')::text IS NULL
       OR lower(coalesce(a.email, p.email)) LIKE sqlc.narg('pattern')::text
       OR lower(p.display_name) LIKE sqlc.narg('pattern')::text);

-- name: DecisionLockApplications :many
-- Locks the applications of one edition a decision batch names, in id
-- order so that two overlapping batches never deadlock, with the
-- applicant's email (the conflict-of-interest rule reads it). An erased
-- person's application is not found. db_now is
-- the transaction's clock, against which the RSVP deadline is checked.
SELECT a.id, a.profile_id, p.email AS applicant_email, a.team_members, a.status, a.decision, a.rsvp,
       now()::timestamptz AS db_now
FROM applications a
JOIN profiles p ON p.id = a.profile_id
WHERE a.id = ANY(@ids::uuid[]) AND a.hackathon_id = @hackathon_id AND a.erased_at IS NULL
ORDER BY a.id
FOR UPDATE OF a;

-- name: DecisionApply :execrows
-- Sets the decision on rows already locked and checked, and appends one
-- 'decision' event per application; detail is completed with the previous
-- decision read from the same snapshot. The row guard repeats the rules.
WITH prev AS (
    SELECT id, decision FROM applications
    WHERE id = ANY(@ids::uuid[]) AND status = 'submitted' AND rsvp IS NULL AND erased_at IS NULL
), changed AS (
    UPDATE applications a
    SET decision = @decision::text, decided_at = now(), rsvp_deadline = sqlc.narg(rsvp_deadline)::timestamptz,
        updated_at = now()
    FROM prev
    WHERE a.id = prev.id
    RETURNING a.id, prev.decision AS previous
)
INSERT INTO application_events (application_id, actor_id, kind, detail)
SELECT id, @actor_id::uuid, 'decision', @detail::jsonb || jsonb_build_object('previous', previous)
FROM changed
ORDER BY id;

-- name: RsvpLockByProfile :one
-- The caller's application for an RSVP, locked: the one holding an open
-- offer (unanswered or answered, not expired, deadline ahead) in whatever
-- edition, else the current edition's, else the latest; open says whether
-- the deadline is still ahead by the database's clock.
SELECT sqlc.embed(a), (a.rsvp_deadline IS NOT NULL AND now() < a.rsvp_deadline)::boolean AS open
FROM applications a
WHERE a.profile_id = $1
ORDER BY (a.decision = 'offer' AND a.rsvp IS DISTINCT FROM 'expired' AND now() < a.rsvp_deadline) IS TRUE DESC,
         (a.hackathon_id = hackathon_current_id()) DESC,
         a.created_at DESC, a.id
LIMIT 1
FOR UPDATE;

-- name: RsvpSet :one
UPDATE applications SET rsvp = @rsvp::text, rsvp_at = now(), updated_at = now()
WHERE id = @id AND decision = 'offer' AND now() < rsvp_deadline
  AND (rsvp IS NULL OR rsvp IN ('attending', 'declined'))
RETURNING *;

-- name: RsvpUnansweredOffers :many
-- Offers of one deadline still waiting for an answer, with the applicant.
SELECT a.id, p.email, coalesce(p.display_name, p.email)::text AS name
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.decision = 'offer' AND a.rsvp IS NULL AND a.rsvp_deadline = @deadline
ORDER BY a.id;

-- name: RsvpExpireOffers :many
-- Expires the unanswered offers among ids whose deadline is at or before
-- @deadline: the deadline the RsvpDeadline workflow woke for, on its own
-- clock, so a database clock running behind still expires them. An offer
-- made again with a later deadline is left. Without @deadline (an activity
-- scheduled before the workflow passed it), the database's now().
UPDATE applications
SET rsvp = 'expired', rsvp_at = now(), updated_at = now()
WHERE id = ANY(@ids::uuid[]) AND decision = 'offer' AND rsvp IS NULL
  AND rsvp_deadline <= coalesce(sqlc.narg(deadline)::timestamptz, now())
RETURNING id;

-- name: RsvpWaitlistHead :many
-- The first n waitlisted applications of an edition, in the order they
-- were waitlisted (an erased person's are passed over).
SELECT a.id FROM applications a
WHERE a.hackathon_id = @hackathon_id AND a.decision = 'waitlist' AND a.status = 'submitted'
  AND a.erased_at IS NULL
ORDER BY a.decided_at, a.id
LIMIT @n
FOR UPDATE SKIP LOCKED;

-- name: RsvpOffer :exec
UPDATE applications
SET decision = 'offer', decided_at = now(), rsvp_deadline = @rsvp_deadline, updated_at = now()
WHERE id = @id;

-- name: RsvpOfferRecipients :many
-- Of the given applications, those holding an unanswered offer.
SELECT a.id, p.email, coalesce(p.display_name, p.email)::text AS name, a.rsvp_deadline
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.id = ANY(@ids::uuid[]) AND a.decision = 'offer' AND a.rsvp IS NULL
ORDER BY a.id;

-- name: ApplicationSetPositions :exec
UPDATE applications SET position_ids = @position_ids::uuid[], updated_at = now()
WHERE id = @id AND status = 'draft';

-- name: ApplicationResumeKeysByProfile :many
-- The résumé keys the profile's applications hold, in every edition: an
-- object belongs to one application, so a new key is chosen apart from
-- the others' (application.ResumeKeyFor).
SELECT id, resume_key::text AS resume_key FROM applications
WHERE profile_id = $1 AND resume_key IS NOT NULL
ORDER BY id;

-- name: DecisionBatchHackathon :one
-- The edition of a decision batch: its applications' (a batch is of one).
SELECT a.hackathon_id FROM application_events e JOIN applications a ON a.id = e.application_id
WHERE e.kind = 'decision' AND e.detail->>'batch_id' = @batch_id::text
ORDER BY e.id
LIMIT 1;

-- name: ApplicationsPurge :many
-- Strips the given applications of every field that could name their
-- person (contact, demographics, education, experience, links, résumé,
-- answers, team, who checked them in at the door and the tap's client
-- id, and the reviewers' private notes on them), keeping status,
-- decision, RSVP, review counts, scores and dates (the
-- waiver's acceptance and the check-in time stay, so the door's counts
-- read the same):
-- retention (erase false) and an erasure (erase true, which also takes
-- them out of the queue, the admin table and open work). The caller has
-- deleted their résumé objects and question-bank answers. Safe to repeat.
WITH notes AS (
    UPDATE reviews SET note = NULL WHERE application_id = ANY(@ids::uuid[]) AND note IS NOT NULL
)
UPDATE applications
SET email = NULL, phone = NULL, discord = NULL, tshirt_size = NULL, dietary_restrictions = NULL,
    age = NULL, country = NULL, gender = NULL, ethnicity = NULL, university = NULL, program = NULL,
    year_of_study = NULL, experience_level = NULL, hackathons_attended = NULL, github_url = NULL,
    linkedin_url = NULL, website_url = NULL, resume_key = NULL, resume_name = NULL, resume_type = NULL,
    q1_answer = NULL, q2_answer = NULL, team_members = '',
    checked_in_by = NULL, checkin_client_id = NULL,
    purged_at = coalesce(purged_at, now()),
    erased_at = CASE WHEN @erase::boolean THEN coalesce(erased_at, now()) ELSE erased_at END
WHERE id = ANY(@ids::uuid[])
RETURNING id;

-- name: ApplicationsByProfile :many
-- An erasure: the person's applications in every edition, with their
-- résumé keys, locked.
SELECT id, resume_key FROM applications WHERE profile_id = $1 ORDER BY id FOR UPDATE;

-- name: ApplicationsDeclineOpenOffers :many
-- An erasure: the person's unanswered offers whose deadline is ahead count
-- as declined; their batch's RsvpDeadline run frees the places at the
-- deadline as it does for expired ones (ExpireOffers counts them).
UPDATE applications SET rsvp = 'declined', rsvp_at = now(), updated_at = now()
WHERE profile_id = $1 AND decision = 'offer' AND rsvp IS NULL AND now() < rsvp_deadline
RETURNING id;

-- name: RsvpErasedOffers :one
-- How many offers of a decision batch (ids) were declined by their
-- person's erasure before the deadline: places freed like expired ones.
SELECT count(*)::integer FROM applications
WHERE id = ANY(@ids::uuid[]) AND decision = 'offer' AND rsvp = 'declined'
  AND erased_at IS NOT NULL AND rsvp_at <= rsvp_deadline;

-- name: ApplicationsRemoveTeamMember :execrows
-- An erasure: the address leaves every team list that names it (the
-- others in each list keep their order).
UPDATE applications
SET team_members = coalesce((
        SELECT string_agg(btrim(t.m), ',' ORDER BY t.ord)
        FROM unnest(string_to_array(team_members, ',')) WITH ORDINALITY AS t(m, ord)
        WHERE lower(btrim(t.m)) <> lower(@email::text)), ''),
    updated_at = now()
WHERE team_lists_email(team_members, @email::text);

-- name: ApplicationsRetentionBatch :many
-- Retention: up to max_rows applications not yet purged of editions that
-- ended (or, with no end, closed) before @ended_before, with their résumé
-- keys.
SELECT a.id, a.resume_key FROM hackathons h
JOIN applications a ON a.hackathon_id = h.id AND a.purged_at IS NULL
WHERE coalesce(h.ends_at, h.applications_close_at) < @ended_before
ORDER BY a.hackathon_id, a.id
LIMIT @max_rows;

-- name: ApplicationTeamIn :one
-- The team list of the profile's application in one edition, '' when it
-- has none there: the actor's side of the conflict-of-interest rule.
SELECT coalesce((SELECT a.team_members FROM applications a
                 WHERE a.profile_id = @profile_id AND a.hackathon_id = @hackathon_id), '')::text AS team_members;

-- name: RsvpDetailsSet :one
-- The RSVP's confirmations: the T-shirt size and dietary restrictions
-- (the application's, confirmed or changed) and the waiver's acceptance.
UPDATE applications SET tshirt_size = @tshirt_size, dietary_restrictions = @dietary_restrictions,
    waiver_accepted_at = CASE WHEN @waiver_accepted::boolean THEN coalesce(waiver_accepted_at, now()) ELSE waiver_accepted_at END,
    updated_at = now()
WHERE id = @id
RETURNING *;
