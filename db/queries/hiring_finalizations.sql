-- name: HiringFinalizationClaim :one
-- The first finalize request of a term wins; a repeat gets the stored row.
INSERT INTO hiring_finalizations (term_id, workflow_id, all_hands_url, requested_by)
VALUES (@term_id, @workflow_id, @all_hands_url, @requested_by)
ON CONFLICT (term_id) DO UPDATE SET term_id = EXCLUDED.term_id
RETURNING *;

-- name: HiringFinalizationGet :one
SELECT * FROM hiring_finalizations WHERE term_id = $1;

-- name: HiringFinalizationRecord :exec
-- Records the outcome once; a retry keeps the first.
UPDATE hiring_finalizations
SET finalized_at = now(), promoted = @promoted, demoted = @demoted, welcomed = @welcomed
WHERE term_id = @term_id AND finalized_at IS NULL;
