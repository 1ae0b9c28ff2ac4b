-- name: BroadcastInsert :one
-- The broadcast with no recipients counted yet (BroadcastSetTotal follows
-- the materialization in the same transaction).
INSERT INTO broadcasts (id, subject, body, audience_kind, term_id, decision, marketing, total, workflow_id, created_by)
VALUES (@id, @subject, @body, @audience_kind, sqlc.narg('term_id'), sqlc.narg('decision'), @marketing, 0, @workflow_id, @created_by)
RETURNING *;

-- name: BroadcastSetTotal :one
UPDATE broadcasts SET total = @total WHERE id = @id
RETURNING *;

-- name: BroadcastGet :one
SELECT * FROM broadcasts WHERE id = $1;

-- name: BroadcastList :many
SELECT * FROM broadcasts
ORDER BY created_at DESC, id DESC
LIMIT @page_limit OFFSET @page_offset;

-- name: BroadcastCount :one
SELECT count(*) FROM broadcasts;

-- name: BroadcastRequestCancel :one
-- Asks a sending broadcast to stop; its workflow stops before its next
-- batch. No row: the broadcast is unknown or has ended.
UPDATE broadcasts SET cancel_requested_at = coalesce(cancel_requested_at, now())
WHERE id = $1 AND status = 'sending'
RETURNING *;

-- name: BroadcastFinish :one
-- Ends a sending broadcast (done or cancelled). No row: it had ended.
UPDATE broadcasts SET status = @status, finished_at = now()
WHERE id = @id AND status = 'sending'
RETURNING *;
