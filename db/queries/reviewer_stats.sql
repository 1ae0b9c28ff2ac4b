-- name: ReviewerStatsGet :one
-- A reviewer's counters in one edition.
SELECT * FROM reviewer_stats WHERE hackathon_id = @hackathon_id AND reviewer_id = @reviewer_id;

-- name: LeaderboardEntries :many
-- The reviewers of one edition, most reviews first.
SELECT s.reviewer_id, s.review_count, p.display_name AS name, p.email
FROM reviewer_stats s
JOIN profiles p ON p.id = s.reviewer_id
WHERE s.hackathon_id = @hackathon_id AND s.review_count > 0
ORDER BY s.review_count DESC, lower(p.email);

-- name: ReviewStatistics :one
-- The review totals of one edition: its submitted applications (the
-- count hackathon_submitted keeps) and its reviewers' counters.
SELECT
    coalesce((SELECT h.n FROM hackathon_submitted h
              WHERE h.hackathon_id = @hackathon_id), 0)::bigint AS total_applications,
    coalesce(sum(review_count), 0)::bigint AS total_reviews,
    count(*) FILTER (WHERE review_count > 0)::bigint AS total_reviewers,
    coalesce(sum(resume_sum), 0)::bigint AS resume_sum,
    coalesce(sum(links_sum), 0)::bigint AS links_sum,
    coalesce(sum(q1_sum), 0)::bigint AS q1_sum,
    coalesce(sum(q2_sum), 0)::bigint AS q2_sum
FROM reviewer_stats
WHERE hackathon_id = @hackathon_id;

-- name: ReviewerTotals :one
-- The mean and population standard deviation of a reviewer's review
-- totals (0-15) in one edition, from reviewer_totals; zeros for someone
-- without reviews there.
SELECT coalesce(sum(t.s1)::numeric / sum(t.n), 0)::float8 AS mean_total,
       coalesce(sqrt(sum(t.n) * sum(t.s2) - sum(t.s1)::numeric * sum(t.s1)) / sum(t.n), 0)::float8 AS stddev_total
FROM reviewer_totals t
WHERE t.hackathon_id = @hackathon_id AND t.reviewer_id = @reviewer_id;
