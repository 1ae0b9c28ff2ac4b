-- name: WorkflowStartInsert :execrows
-- Queues a workflow start (or a signal-with-start). A start whose workflow
-- id is already queued under the same retry number is a no-op: the same
-- business key starts one run (and each retry one more).
INSERT INTO workflow_starts (workflow_id, type, task_queue, input, signal, signal_input, kind, subject, summary, trace_parent, retry)
VALUES (@workflow_id, @type, sqlc.narg(task_queue), @input, sqlc.narg(signal), sqlc.narg(signal_input), @kind, @subject, @summary, sqlc.narg(trace_parent), @retry)
ON CONFLICT (workflow_id, retry) WHERE signal IS NULL DO NOTHING;

-- name: WorkflowStartClaim :many
-- Claims due pending rows for this transaction. Rows another dispatcher
-- holds are skipped, so replicas never dispatch the same row at once.
SELECT * FROM workflow_starts
WHERE started_at IS NULL AND next_attempt_at <= now()
ORDER BY next_attempt_at, id
LIMIT @n
FOR UPDATE SKIP LOCKED;

-- name: WorkflowStartMarkStartedMany :exec
-- Marks a batch's started rows in one statement: ids[i] started run_ids[i].
UPDATE workflow_starts w
SET started_at = now(), run_id = u.run_id, attempts = w.attempts + 1, last_error = NULL
FROM (SELECT unnest(@ids::bigint[]) AS id, unnest(@run_ids::text[]) AS run_id) u
WHERE w.id = u.id;

-- name: WorkflowStartMarkFailed :exec
-- Puts a row back for a later attempt after a failed start.
UPDATE workflow_starts
SET attempts = attempts + 1, last_error = @last_error,
    next_attempt_at = now() + make_interval(secs => @retry_after_seconds::float8)
WHERE id = @id;

-- name: WorkflowStartLag :one
-- How far behind the dispatcher is: pending rows and the age of the oldest.
SELECT count(*)::bigint AS pending,
       coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS lag_seconds
FROM workflow_starts
WHERE started_at IS NULL;

-- name: WorkflowStartGet :one
-- The original start of a workflow id (not a retry).
SELECT * FROM workflow_starts WHERE workflow_id = @workflow_id AND signal IS NULL AND retry = 0;

-- name: WorkflowStartsClearInputs :execrows
-- Retention: up to max_rows started rows queued before @before lose their
-- input (the row stays for the start-once index).
UPDATE workflow_starts
SET input = '{}'::jsonb, signal_input = CASE WHEN signal_input IS NULL THEN NULL ELSE '{}'::jsonb END,
    last_error = NULL, input_cleared_at = now()
WHERE id IN (
    SELECT w.id FROM workflow_starts w
    WHERE w.input_cleared_at IS NULL AND w.started_at IS NOT NULL AND w.created_at < @before
    ORDER BY w.created_at
    LIMIT @max_rows
    FOR UPDATE SKIP LOCKED);

-- name: WorkflowStartsClearInputsMentioning :execrows
-- An erasure: started rows whose input or signal names the person (their
-- id, which résumé keys start with, or their address) lose it now.
UPDATE workflow_starts
SET input = '{}'::jsonb, signal_input = CASE WHEN signal_input IS NULL THEN NULL ELSE '{}'::jsonb END,
    last_error = NULL, input_cleared_at = now()
WHERE started_at IS NOT NULL AND input_cleared_at IS NULL
  AND (strpos(lower(input::text || coalesce(signal_input::text, '')), lower(@profile_id::text)) > 0
       OR strpos(lower(input::text || coalesce(signal_input::text, '')), lower(@email::text)) > 0);
