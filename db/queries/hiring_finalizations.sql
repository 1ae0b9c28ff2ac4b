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
SET finalized_at = now(), step = 'done', promoted = @promoted, demoted = @demoted, welcomed = @welcomed,
    hires = coalesce(hires, @promoted), previous = coalesce(previous, @demoted)
WHERE term_id = @term_id AND finalized_at IS NULL;

-- name: HiringFinalizationStep :exec
-- Marks the step a finalization's run is at (and which run), until its
-- outcome is recorded.
UPDATE hiring_finalizations SET step = @step, run_id = coalesce(sqlc.narg(run_id), run_id)
WHERE term_id = @term_id AND finalized_at IS NULL;

-- name: HiringFinalizationPlanned :exec
-- Keeps the size of a finalization's plan, and nobody promoted yet.
UPDATE hiring_finalizations SET hires = @hires, previous = @previous, promoted = 0
WHERE term_id = @term_id AND finalized_at IS NULL;

-- name: HiringFinalizationCountPromoted :exec
-- Counts the term's hires who hold their exec role of the term now: the
-- hires promoted so far.
UPDATE hiring_finalizations f SET promoted = (
    SELECT count(DISTINCT a.profile_id)::integer
    FROM selections s
    JOIN applications a ON a.id = s.application_id
    JOIN exec_roles e ON e.profile_id = a.profile_id AND e.term_id = s.term_id AND e.active
    WHERE s.term_id = f.term_id AND s.status = 'accepted_offer')
WHERE f.term_id = @term_id AND f.finalized_at IS NULL;
