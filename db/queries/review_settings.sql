-- name: ReviewSettingsGet :one
-- The review settings (one row).
SELECT blind, cap FROM review_settings;

-- name: ReviewSettingsLock :one
-- The review settings, locked until the transaction ends, so that a
-- change is applied to the values it read.
SELECT blind, cap FROM review_settings FOR UPDATE;

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
-- Every change of the review settings, oldest first.
SELECT id, changed_by, blind, cap, changed_at
FROM review_settings_history
ORDER BY id;
