-- name: ReviewInsertChecked :one
-- Records a review of a submitted application of the current edition that
-- the reviewer has no conflict of interest with (application_conflict:
-- not their own, not one whose team lists them, not one whose applicant
-- their own application of the edition lists), in one statement (the
-- trigger moves the counters in the same transaction), and returns the
-- reviewer's total over every edition including it: the statement's
-- snapshot predates the trigger's update, hence the + 1. No row when the
-- application is missing, a draft, of another edition, conflicted, or was
-- already reviewed by them; callers tell these apart on that error path
-- only.
WITH ins AS (
    INSERT INTO reviews (application_id, hackathon_id, reviewer_id, resume_score, links_score, q1_score, q2_score, note)
    SELECT a.id, a.hackathon_id, @reviewer_id, @resume_score, @links_score, @q1_score, @q2_score, sqlc.narg('note')::text
    FROM applications a
    JOIN profiles p ON p.id = a.profile_id
    LEFT JOIN applications m ON m.profile_id = @reviewer_id AND m.hackathon_id = a.hackathon_id
    WHERE a.id = @application_id AND a.status = 'submitted' AND a.erased_at IS NULL
      AND a.hackathon_id = hackathon_current_id()
      AND application_conflict(@reviewer_id, @reviewer_email::text, coalesce(m.team_members, ''),
              a.profile_id, p.email, a.team_members) = ''
    ON CONFLICT (application_id, reviewer_id) DO NOTHING
    RETURNING *
)
SELECT ins.id, ins.application_id, ins.reviewer_id, ins.resume_score, ins.links_score, ins.q1_score,
       ins.q2_score, ins.reviewed_at, ins.note,
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

-- name: ReviewSkip :one
-- Records that the reviewer skipped an application the queue could give
-- them (submitted, of the current edition, no conflict of interest, not
-- reviewed by them), or once more; their skipped ones come after every
-- other one for them (ApplicationNextForReviewerView). No row when it is
-- not one they could review; callers tell why on that path only.
INSERT INTO review_skips (reviewer_id, application_id)
SELECT @reviewer_id, a.id
FROM applications a
JOIN profiles p ON p.id = a.profile_id
LEFT JOIN applications m ON m.profile_id = @reviewer_id AND m.hackathon_id = a.hackathon_id
WHERE a.id = @application_id AND a.status = 'submitted' AND a.erased_at IS NULL
  AND a.hackathon_id = hackathon_current_id()
  AND application_conflict(@reviewer_id, @reviewer_email::text, coalesce(m.team_members, ''),
          a.profile_id, p.email, a.team_members) = ''
  AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.application_id = a.id AND r.reviewer_id = @reviewer_id)
ON CONFLICT (reviewer_id, application_id)
DO UPDATE SET skips = review_skips.skips + 1, skipped_at = now()
RETURNING skips;

-- name: ReviewNotesEraseByReviewer :execrows
-- An erasure: the private notes the person wrote as a reviewer are
-- blanked (their reviews' scores stay, as the club's record).
UPDATE reviews SET note = NULL WHERE reviewer_id = $1 AND note IS NOT NULL;
