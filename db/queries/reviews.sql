-- name: ApplicationNextForReviewer :one
-- The assignment rule: submitted applications only, not the reviewer's own,
-- not one they reviewed; fewest reviews first, ties by id. The scan follows
-- applications_queue_idx and probes the (application_id, reviewer_id)
-- unique index per candidate, so it stops at the first fit.
SELECT a.id FROM applications a
WHERE a.status = 'submitted'
  AND a.profile_id <> @reviewer_id
  AND NOT EXISTS (
      SELECT 1 FROM reviews r WHERE r.application_id = a.id AND r.reviewer_id = @reviewer_id)
ORDER BY a.review_count, a.id
LIMIT 1;

-- name: ApplicationStatusOwner :one
SELECT status, profile_id FROM applications WHERE id = $1;

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
