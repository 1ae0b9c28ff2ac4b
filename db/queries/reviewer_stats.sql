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

-- name: ReviewerTotals :one
-- The mean and population standard deviation of a reviewer's review
-- totals (0-15), from reviewer_totals; zeros for someone without reviews.
SELECT coalesce(sum(s1)::numeric / sum(n), 0)::float8 AS mean_total,
       coalesce(sqrt(sum(n) * sum(s2) - sum(s1)::numeric * sum(s1)) / sum(n), 0)::float8 AS stddev_total
FROM reviewer_totals
WHERE reviewer_id = $1;
