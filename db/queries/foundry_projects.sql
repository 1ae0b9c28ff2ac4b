-- name: FoundryProjectInsert :one
-- Inserts a running project; a name held by a running or succeeded project
-- is a unique violation (foundry_projects_live_name_key).
INSERT INTO foundry_projects (id, name, description, project_type, database, redis, s3, team_slug, private, workflow_id, created_by)
VALUES (@id, @name, @description, @project_type, @database, @redis, @s3, @team_slug, @private, @workflow_id, @created_by)
RETURNING *;

-- name: FoundryProjectGet :one
SELECT p.*, a.email AS created_by_email
FROM foundry_projects p JOIN profiles a ON a.id = p.created_by
WHERE p.id = $1;

-- name: FoundryProjectList :many
-- Newest first.
SELECT p.*, a.email AS created_by_email
FROM foundry_projects p JOIN profiles a ON a.id = p.created_by
ORDER BY p.created_at DESC, p.id DESC
LIMIT @page_size OFFSET @page_offset;

-- name: FoundryProjectCount :one
SELECT count(*) FROM foundry_projects;

-- name: FoundryProjectSetURLs :exec
-- Records the repository and run links once known; a link already set is
-- kept when the new one is NULL.
UPDATE foundry_projects
SET repository_url = coalesce(sqlc.narg(repository_url), repository_url),
    run_url = coalesce(sqlc.narg(run_url), run_url),
    updated_at = now()
WHERE id = @id;

-- name: FoundryProjectFinish :execrows
-- Ends a running project as succeeded or failed; an ended one is left as
-- it is (a repeated call changes nothing).
UPDATE foundry_projects
SET status = @status, updated_at = now()
WHERE id = @id AND status = 'running';

-- name: FoundryProjectClaimDispatch :one
-- Records that the setup workflow is dispatched now, unless a dispatch was
-- recorded less than @lost_after_seconds ago (its run may still appear):
-- then there is no row.
UPDATE foundry_projects
SET setup_dispatched_at = now(), updated_at = now()
WHERE id = @id
  AND (setup_dispatched_at IS NULL
       OR setup_dispatched_at <= now() - make_interval(secs => @lost_after_seconds::float8))
RETURNING setup_dispatched_at::timestamptz;

-- name: FoundryProjectReleaseDispatch :exec
-- Forgets a recorded dispatch that the code host refused (it made no run),
-- unless another dispatch has been recorded since.
UPDATE foundry_projects
SET setup_dispatched_at = NULL, updated_at = now()
WHERE id = @id AND setup_dispatched_at = @dispatched_at::timestamptz;

-- name: FoundryProjectReopen :exec
-- A retried launch runs again on its project: the project is running
-- again (a unique violation when another live project has taken its name
-- since it failed), and its steps that did not succeed are pending again;
-- steps that succeeded keep their outcome (their activities find their
-- work done). The earlier attempt's dispatch mark is forgotten: the retry
-- dispatches a setup run of its own (its own correlation id) at once,
-- instead of waiting out DispatchLostAfter for the old run to appear.
WITH p AS (
    UPDATE foundry_projects
    SET status = 'running', setup_dispatched_at = NULL, updated_at = now()
    WHERE workflow_id = @workflow_id AND status <> 'succeeded'
    RETURNING id
)
UPDATE foundry_steps s
SET status = 'pending', started_at = NULL, finished_at = NULL, detail = ''
FROM p
WHERE s.project_id = p.id AND s.status <> 'succeeded';
