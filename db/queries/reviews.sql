-- name: ReviewInsertChecked :one
-- Records a review of a submitted application of the current edition that
-- is neither the reviewer's own nor one whose team lists them, in one
-- statement (the trigger moves the counters in the same transaction), and
-- returns the reviewer's total over every edition including it: the
-- statement's snapshot predates the trigger's update, hence the + 1. No
-- row when the application is missing, a draft, of another edition, the
-- reviewer's own, lists them on its team, or was already reviewed by them;
-- callers tell these apart on that error path only.
WITH ins AS (
    INSERT INTO reviews (application_id, hackathon_id, reviewer_id, resume_score, links_score, q1_score, q2_score)
    SELECT a.id, a.hackathon_id, @reviewer_id, @resume_score, @links_score, @q1_score, @q2_score
    FROM applications a
    WHERE a.id = @application_id AND a.status = 'submitted' AND a.erased_at IS NULL AND a.profile_id <> @reviewer_id
      AND a.hackathon_id = hackathon_current_id()
      AND NOT team_lists_email(a.team_members, @reviewer_email::text)
    ON CONFLICT (application_id, reviewer_id) DO NOTHING
    RETURNING *
)
SELECT ins.id, ins.application_id, ins.reviewer_id, ins.resume_score, ins.links_score, ins.q1_score,
       ins.q2_score, ins.reviewed_at,
       (coalesce((SELECT sum(s.review_count) FROM reviewer_stats s WHERE s.reviewer_id = @reviewer_id), 0) + 1)::integer AS total_reviews
FROM ins;

-- name: ReviewInsert :one
INSERT INTO reviews (application_id, reviewer_id, resume_score, links_score, q1_score, q2_score)
VALUES (@application_id, @reviewer_id, @resume_score, @links_score, @q1_score, @q2_score)
RETURNING *;

-- name: ReviewsForApplication :many
-- An application's reviews with their reviewers, each with its total and
-- its z-score within the application's edition (review_scores).
SELECT r.*, p.display_name AS reviewer_name, p.email AS reviewer_email, s.total, s.z
FROM review_scores s
JOIN reviews r ON r.id = s.review_id
JOIN profiles p ON p.id = r.reviewer_id
WHERE s.hackathon_id = @hackathon_id AND s.application_id = @application_id
ORDER BY r.reviewed_at, r.id;
