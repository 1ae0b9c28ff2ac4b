-- name: RetentionRunRecord :one
-- Records a retention run once per workflow run (a retried activity
-- rewrites its row).
INSERT INTO retention_runs (workflow_id, retention_days, started_at, purged)
VALUES (@workflow_id, @retention_days, @started_at, @purged)
ON CONFLICT (workflow_id) DO UPDATE SET purged = EXCLUDED.purged, finished_at = now()
RETURNING *;

-- name: RetentionRunLast :one
SELECT * FROM retention_runs ORDER BY finished_at DESC, id DESC LIMIT 1;
