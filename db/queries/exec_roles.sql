-- name: ExecRoleDeactivate :exec
UPDATE exec_roles SET active = false WHERE profile_id = $1 AND active;

-- name: ExecRoleInsert :one
INSERT INTO exec_roles (profile_id, position, subteam, term_id)
VALUES (@profile_id, @position, @subteam, @term_id)
RETURNING *;

-- name: ExecRoleEndOthers :exec
-- Ends a person's active exec role unless it is already exactly this one.
UPDATE exec_roles SET active = false, ended_at = now()
WHERE profile_id = @profile_id AND active
  AND NOT (position = @position AND subteam IS NOT DISTINCT FROM @subteam::text
           AND term_id IS NOT DISTINCT FROM @term_id::uuid);

-- name: ExecRoleEnsure :execrows
-- Gives a person this active exec role unless they hold an active one
-- (ExecRoleEndOthers runs first, so that one is this role).
INSERT INTO exec_roles (profile_id, position, subteam, term_id)
VALUES (@profile_id, @position, @subteam, @term_id)
ON CONFLICT (profile_id) WHERE active DO NOTHING;

-- name: ExecRolesEndPrevious :many
-- Ends the active exec roles of people not hired for the term (the
-- previous execs): roles of a term that starts before it, or of none;
-- returns whose roles ended.
UPDATE exec_roles e SET active = false, ended_at = now()
WHERE e.active AND e.profile_id = ANY(@profile_ids::uuid[])
  AND (e.term_id IS NULL OR (SELECT t.starts_on FROM terms t WHERE t.id = e.term_id)
                            < (SELECT f.starts_on FROM terms f WHERE f.id = @term_id::uuid))
RETURNING e.profile_id;

-- name: ExecRoleHeldInTerm :one
-- Whether a person holds (or, with include_ended, ever held) an exec role
-- of the term.
SELECT EXISTS (
    SELECT 1 FROM exec_roles
    WHERE profile_id = @profile_id AND term_id = @term_id AND (active OR @include_ended::boolean)
) AS held;

-- name: ExecRoleInHiringTerm :one
-- Whether a person holds an active exec role of the hiring term (the term
-- that starts last): such an account cannot be erased.
SELECT EXISTS (
    SELECT 1 FROM exec_roles e
    WHERE e.profile_id = $1 AND e.active
      AND e.term_id = (SELECT t.id FROM terms t ORDER BY t.starts_on DESC, t.created_at DESC LIMIT 1)
) AS held;
