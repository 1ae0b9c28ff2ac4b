-- name: ApplicationEventInsert :exec
INSERT INTO application_events (application_id, actor_id, kind, detail)
VALUES (@application_id, sqlc.narg(actor_id)::uuid, @kind, @detail::jsonb);

-- name: ApplicationEventsFor :many
SELECT * FROM application_events WHERE application_id = $1 ORDER BY id;

-- name: DecisionBatchApplications :many
-- The applications a decision batch (or waitlist promotion) decided.
SELECT application_id FROM application_events
WHERE kind = 'decision' AND detail->>'batch_id' = @batch_id::text
ORDER BY id;

-- name: DecisionBatchNewOffers :many
-- The applications a batch offered a place that held no offer before it.
SELECT application_id FROM application_events
WHERE kind = 'decision' AND detail->>'batch_id' = @batch_id::text
  AND detail->>'decision' = 'offer' AND (detail->>'previous') IS DISTINCT FROM 'offer'
ORDER BY id;

-- name: ApplicationHistory :many
-- The decision and RSVP events of one application, oldest first, with who
-- acted (NULL: the system, e.g. an offer expiring at its deadline).
SELECT e.kind, e.detail, e.created_at, e.actor_id,
       p.display_name AS actor_name, p.email AS actor_email
FROM application_events e
LEFT JOIN profiles p ON p.id = e.actor_id
WHERE e.application_id = $1
ORDER BY e.id;
