-- name: ReviewSettingsGet :one
-- The review settings (one row), with the rubric.
SELECT blind, cap, rubric_resume_low, rubric_resume_high, rubric_links_low, rubric_links_high,
       rubric_q1_low, rubric_q1_high, rubric_q2_low, rubric_q2_high
FROM review_settings;

-- name: ReviewSettingsLock :one
-- The review settings, locked until the transaction ends, so that a
-- change is applied to the values it read.
SELECT blind, cap, rubric_resume_low, rubric_resume_high, rubric_links_low, rubric_links_high,
       rubric_q1_low, rubric_q1_high, rubric_q2_low, rubric_q2_high
FROM review_settings FOR UPDATE;

-- name: ReviewSettingsSet :one
-- Sets the review settings and records the change (who, what, when) in
-- one statement.
WITH upd AS (
    UPDATE review_settings SET blind = @blind, cap = sqlc.narg('cap')::integer
    RETURNING blind, cap
)
INSERT INTO review_settings_history (changed_by, blind, cap)
SELECT @changed_by::uuid, upd.blind, upd.cap FROM upd
RETURNING blind, cap;

-- name: ReviewSettingsHistory :many
-- Every change of the review settings, oldest first, with the name and
-- email of who made it (null once their account is gone).
SELECT h.id, h.changed_by, h.blind, h.cap, h.changed_at,
       p.display_name AS changed_by_name, p.email AS changed_by_email
FROM review_settings_history h
LEFT JOIN profiles p ON p.id = h.changed_by
ORDER BY h.id;

-- name: ReviewRubricSet :exec
-- Sets the rubric shown under each score (what a 0 and the top score
-- mean). The history records blind review and the cap only.
UPDATE review_settings
SET rubric_resume_low = @resume_low, rubric_resume_high = @resume_high,
    rubric_links_low = @links_low, rubric_links_high = @links_high,
    rubric_q1_low = @q1_low, rubric_q1_high = @q1_high,
    rubric_q2_low = @q2_low, rubric_q2_high = @q2_high;
