-- name: ApplicationNextForReviewerView :one
-- The assignment rule: submitted applications only, not the reviewer's own,
-- not one they reviewed; fewest reviews first, ties by id. The inner scan
-- follows applications_queue_idx and probes the (application_id,
-- reviewer_id) unique index per candidate, so it stops at the first fit.
-- The chosen row comes back in the reviewer view (team names included), so
-- the queue costs one round trip.
SELECT sqlc.embed(a),
       application_team_names(a.team_members)::jsonb AS team_members_with_names
FROM applications a
WHERE a.id = (
    SELECT n.id FROM applications n
    WHERE n.status = 'submitted'
      AND n.profile_id <> @reviewer_id
      AND NOT EXISTS (
          SELECT 1 FROM reviews r WHERE r.application_id = n.id AND r.reviewer_id = @reviewer_id)
    ORDER BY n.review_count, n.id
    LIMIT 1);

-- name: ApplicationStatusOwner :one
SELECT status, profile_id FROM applications WHERE id = $1;

-- name: ReviewInsertChecked :one
-- Records a review of a submitted application that is not the reviewer's
-- own, in one statement (the trigger moves the counters in the same
-- transaction), and returns the reviewer's total including it: the
-- statement's snapshot predates the trigger's update, hence the + 1. No row
-- when the application is missing, a draft, the reviewer's own, or already
-- reviewed by them; callers tell these apart on that error path only.
WITH ins AS (
    INSERT INTO reviews (application_id, reviewer_id, resume_score, links_score, q1_score, q2_score)
    SELECT a.id, @reviewer_id, @resume_score, @links_score, @q1_score, @q2_score
    FROM applications a
    WHERE a.id = @application_id AND a.status = 'submitted' AND a.profile_id <> @reviewer_id
    ON CONFLICT (application_id, reviewer_id) DO NOTHING
    RETURNING *
)
SELECT ins.id, ins.application_id, ins.reviewer_id, ins.resume_score, ins.links_score, ins.q1_score,
       ins.q2_score, ins.reviewed_at,
       (coalesce((SELECT s.review_count FROM reviewer_stats s WHERE s.reviewer_id = @reviewer_id), 0) + 1)::integer AS total_reviews
FROM ins;

-- name: ReviewInsert :one
INSERT INTO reviews (application_id, reviewer_id, resume_score, links_score, q1_score, q2_score)
VALUES (@application_id, @reviewer_id, @resume_score, @links_score, @q1_score, @q2_score)
RETURNING *;

-- name: ReviewerStatsGet :one
SELECT * FROM reviewer_stats WHERE reviewer_id = $1;

-- name: LeaderboardEntries :many
SELECT s.reviewer_id, s.review_count, p.display_name AS name, p.email
FROM reviewer_stats s
JOIN profiles p ON p.id = s.reviewer_id
WHERE s.review_count > 0
ORDER BY s.review_count DESC, lower(p.email);

-- name: ReviewStatistics :one
SELECT
    (SELECT count(*) FROM applications WHERE status = 'submitted')::bigint AS total_applications,
    coalesce(sum(review_count), 0)::bigint AS total_reviews,
    count(*) FILTER (WHERE review_count > 0)::bigint AS total_reviewers,
    coalesce(sum(resume_sum), 0)::bigint AS resume_sum,
    coalesce(sum(links_sum), 0)::bigint AS links_sum,
    coalesce(sum(q1_sum), 0)::bigint AS q1_sum,
    coalesce(sum(q2_sum), 0)::bigint AS q2_sum
FROM reviewer_stats;

-- name: ReviewsForApplication :many
SELECT r.*, p.display_name AS reviewer_name, p.email AS reviewer_email
FROM reviews r JOIN profiles p ON p.id = r.reviewer_id
WHERE r.application_id = $1
ORDER BY r.reviewed_at, r.id;
