-- name: FoundryStepsInit :exec
-- The four steps of a new project, all pending.
INSERT INTO foundry_steps (project_id, name, position)
SELECT @project_id::uuid, s.name, s.position
FROM unnest(ARRAY['create_repository', 'grant_team', 'dispatch_setup', 'setup_run']::text[]) WITH ORDINALITY AS s(name, position);

-- name: FoundryStepsList :many
SELECT * FROM foundry_steps WHERE project_id = $1 ORDER BY position;

-- name: FoundryStepsListFor :many
SELECT * FROM foundry_steps WHERE project_id = ANY(@project_ids::uuid[]) ORDER BY project_id, position;

-- name: FoundryStepStart :exec
-- Marks a step running; started_at keeps the first start, and a step that
-- has ended is not reopened.
UPDATE foundry_steps
SET status = 'running', started_at = coalesce(started_at, now()), detail = @detail
WHERE project_id = @project_id AND name = @name AND status IN ('pending', 'running');

-- name: FoundryStepFinish :exec
-- Ends a step as succeeded or failed with its detail; a step that has
-- already ended keeps its first outcome.
UPDATE foundry_steps
SET status = @status, started_at = coalesce(started_at, now()), finished_at = now(), detail = @detail
WHERE project_id = @project_id AND name = @name AND status IN ('pending', 'running');
