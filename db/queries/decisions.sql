-- name: DecisionLockApplications :many
-- Locks the applications a decision batch names, in id order so that two
-- overlapping batches never deadlock. db_now is the transaction's clock,
-- against which the RSVP deadline is checked.
SELECT id, profile_id, status, decision, rsvp, now()::timestamptz AS db_now
FROM applications
WHERE id = ANY(@ids::uuid[])
ORDER BY id
FOR UPDATE;

-- name: DecisionApply :execrows
-- Sets the decision on rows already locked and checked, and appends one
-- 'decision' event per application; detail is completed with the previous
-- decision read from the same snapshot. The row guard repeats the rules.
WITH prev AS (
    SELECT id, decision FROM applications
    WHERE id = ANY(@ids::uuid[]) AND status = 'submitted' AND rsvp IS NULL
), changed AS (
    UPDATE applications a
    SET decision = @decision::text, decided_at = now(), rsvp_deadline = sqlc.narg(rsvp_deadline)::timestamptz,
        updated_at = now()
    FROM prev
    WHERE a.id = prev.id
    RETURNING a.id, prev.decision AS previous
)
INSERT INTO application_events (application_id, actor_id, kind, detail)
SELECT id, @actor_id::uuid, 'decision', @detail::jsonb || jsonb_build_object('previous', previous)
FROM changed
ORDER BY id;

-- name: RsvpLockByProfile :one
-- The caller's application for an RSVP, locked; open says whether the
-- deadline is still ahead by the database's clock.
SELECT sqlc.embed(a), (a.rsvp_deadline IS NOT NULL AND now() < a.rsvp_deadline)::boolean AS open
FROM applications a
WHERE a.profile_id = $1
FOR UPDATE;

-- name: RsvpSet :one
UPDATE applications SET rsvp = @rsvp::text, rsvp_at = now(), updated_at = now()
WHERE id = @id AND decision = 'offer' AND now() < rsvp_deadline
  AND (rsvp IS NULL OR rsvp IN ('attending', 'declined'))
RETURNING *;

-- name: ApplicationEventInsert :exec
INSERT INTO application_events (application_id, actor_id, kind, detail)
VALUES (@application_id, sqlc.narg(actor_id)::uuid, @kind, @detail::jsonb);

-- name: ApplicationEventsFor :many
SELECT * FROM application_events WHERE application_id = $1 ORDER BY id;
