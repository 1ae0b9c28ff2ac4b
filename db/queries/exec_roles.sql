-- name: ExecRoleDeactivate :exec
UPDATE exec_roles SET active = false WHERE profile_id = $1 AND active;

-- name: ExecRoleInsert :one
INSERT INTO exec_roles (profile_id, position, subteam, term_id)
VALUES (@profile_id, @position, @subteam, @term_id)
RETURNING *;
