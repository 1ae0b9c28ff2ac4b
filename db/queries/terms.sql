-- name: TermInsert :one
INSERT INTO terms (name, starts_on, ends_on, onboarding_opens_at, onboarding_closes_at,
                   returning_opens_at, returning_closes_at)
VALUES (@name, @starts_on, @ends_on, @onboarding_opens_at, @onboarding_closes_at,
        @returning_opens_at, @returning_closes_at)
RETURNING *;

-- name: TermGet :one
SELECT * FROM terms WHERE id = $1;

-- name: TermLock :one
SELECT * FROM terms WHERE id = $1 FOR UPDATE;

-- name: TermList :many
SELECT * FROM terms ORDER BY starts_on DESC, created_at DESC;

-- name: TermActive :one
SELECT * FROM terms WHERE active;

-- name: TermHiring :one
-- The hiring term: the one that starts last.
SELECT * FROM terms ORDER BY starts_on DESC, created_at DESC LIMIT 1;

-- name: TermUpdate :one
UPDATE terms SET
    name = @name, starts_on = @starts_on, ends_on = @ends_on,
    onboarding_opens_at = @onboarding_opens_at, onboarding_closes_at = @onboarding_closes_at,
    returning_opens_at = @returning_opens_at, returning_closes_at = @returning_closes_at,
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: TermClearActive :exec
-- The first half of moving the active flag (the unique index allows one).
UPDATE terms SET active = false, updated_at = now() WHERE active AND id <> @id;

-- name: TermSetActive :exec
UPDATE terms SET active = true, updated_at = now() WHERE id = @id AND NOT active;

-- name: TermGetByName :one
SELECT * FROM terms WHERE name = $1;

-- name: TermPrevious :one
-- The term before this one: the latest that starts earlier.
SELECT * FROM terms
WHERE starts_on < (SELECT t.starts_on FROM terms t WHERE t.id = @id)
ORDER BY starts_on DESC, created_at DESC LIMIT 1;

-- name: TermListFutureWindows :many
-- Terms with a form window that has yet to close: each should have a
-- running TermWindow workflow (the term reconciler restarts a missing one).
SELECT * FROM terms
WHERE onboarding_closes_at > @now::timestamptz OR returning_closes_at > @now::timestamptz
ORDER BY created_at, id;
