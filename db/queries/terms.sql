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

-- name: TermHiringChoices :many
-- Every term, the hiring term first (TermHiring's order), with what the
-- hiring pages show of it: its positions and their selections in a
-- subteam (NULL: every subteam), and its exec form submissions.
SELECT t.id, t.name, t.starts_on, t.ends_on, t.active,
    (SELECT count(*) FROM positions p
     WHERE p.term_id = t.id AND (sqlc.narg(subteam)::text IS NULL OR p.subteam = sqlc.narg(subteam)::text))::integer AS positions,
    (SELECT count(*) FROM selections s JOIN positions p ON p.id = s.position_id
     WHERE s.term_id = t.id AND (sqlc.narg(subteam)::text IS NULL OR p.subteam = sqlc.narg(subteam)::text))::integer AS selections,
    (SELECT count(*) FROM exec_form_submissions f WHERE f.term_id = t.id AND f.kind = 'onboarding')::integer AS onboarding,
    (SELECT count(*) FROM exec_form_submissions f WHERE f.term_id = t.id AND f.kind = 'returning')::integer AS returning
FROM terms t
ORDER BY t.starts_on DESC, t.created_at DESC;

-- name: TermOfActiveExecRole :one
-- The term of a person's active exec role (none without one, or when the
-- role names no term).
SELECT * FROM terms
WHERE id = (SELECT e.term_id FROM exec_roles e WHERE e.profile_id = @profile_id AND e.active);

-- name: TermReturningFor :many
-- The terms whose returning-exec form is for a person: each term whose
-- previous term (TermPrevious) is one they held an exec role of, latest
-- start first.
SELECT n.* FROM terms n
WHERE EXISTS (
    SELECT 1 FROM exec_roles e
    WHERE e.profile_id = @profile_id AND e.term_id = (
        SELECT p.id FROM terms p WHERE p.starts_on < n.starts_on
        ORDER BY p.starts_on DESC, p.created_at DESC LIMIT 1))
ORDER BY n.starts_on DESC, n.created_at DESC;
