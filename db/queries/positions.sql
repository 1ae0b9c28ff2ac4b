-- name: PositionInsert :one
INSERT INTO positions (term_id, title, subteam, grants, description, open)
VALUES (@term_id, @title, @subteam, @grants, @description, @open)
RETURNING *;

-- name: PositionGet :one
SELECT * FROM positions WHERE id = $1;

-- name: PositionLock :one
SELECT * FROM positions WHERE id = $1 FOR UPDATE;

-- name: PositionList :many
-- A term's positions; only the open ones unless include_closed.
SELECT * FROM positions
WHERE term_id = @term_id AND (open OR @include_closed::boolean)
ORDER BY subteam, title, id;

-- name: PositionsByIDs :many
SELECT * FROM positions WHERE id = ANY(@ids::uuid[]);

-- name: PositionUpdate :one
UPDATE positions SET title = @title, subteam = @subteam, grants = @grants,
    description = @description, open = @open, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: PositionDelete :execrows
-- Deletes a position nobody selected; one with selections is kept (close it).
DELETE FROM positions p
WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM selections s WHERE s.position_id = p.id);

-- name: PositionHasSelections :one
SELECT EXISTS (SELECT 1 FROM selections WHERE position_id = $1);
