-- name: WorkflowRetryLatest :one
-- The newest outbox row of a workflow id (a start, a signal-with-start or
-- a retry); its input is the freshest input of the business key.
SELECT * FROM workflow_starts
WHERE workflow_id = @workflow_id
ORDER BY id DESC
LIMIT 1;

-- name: WorkflowRetryState :one
-- How far a workflow id's retries are: the highest retry number and how
-- many of its rows are not started yet.
SELECT coalesce(max(retry), 0)::int AS last_retry,
       count(*) FILTER (WHERE started_at IS NULL)::bigint AS pending
FROM workflow_starts
WHERE workflow_id = @workflow_id;

-- name: WorkflowRetryKnown :many
-- Which of these workflow ids the outbox has queued (the runs this
-- deployment started), and when each was last queued (a retry, or a
-- signal-with-start, after a run closed means a newer run).
SELECT workflow_id, max(created_at)::timestamptz AS last_queued_at
FROM workflow_starts
WHERE workflow_id = ANY(@workflow_ids::text[])
GROUP BY workflow_id;

-- name: WorkflowStartPublicURL :one
-- The site address (the input's PublicURL) the newest outbox row of a
-- workflow id that names one was queued with; '' when none does. A
-- window workflow restarted by the reconciler sends the links its start
-- was queued with.
SELECT coalesce((SELECT input->>'PublicURL' FROM workflow_starts
                 WHERE workflow_id = @workflow_id AND input->>'PublicURL' <> ''
                 ORDER BY id DESC LIMIT 1), '')::text AS public_url;
