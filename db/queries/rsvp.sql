-- name: RsvpUnansweredOffers :many
-- Offers of one deadline still waiting for an answer, with the applicant.
SELECT a.id, p.email, coalesce(p.display_name, p.email)::text AS name
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.decision = 'offer' AND a.rsvp IS NULL AND a.rsvp_deadline = @deadline
ORDER BY a.id;

-- name: RsvpExpireOffers :many
-- Expires the unanswered offers among ids whose deadline has passed.
UPDATE applications
SET rsvp = 'expired', rsvp_at = now(), updated_at = now()
WHERE id = ANY(@ids::uuid[]) AND decision = 'offer' AND rsvp IS NULL AND rsvp_deadline <= now()
RETURNING id;

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

-- name: RsvpWaitlistHead :many
-- The first n waitlisted applications, in the order they were waitlisted.
SELECT a.id FROM applications a
WHERE a.decision = 'waitlist' AND a.status = 'submitted'
ORDER BY a.decided_at, a.id
LIMIT @n
FOR UPDATE SKIP LOCKED;

-- name: RsvpOffer :exec
UPDATE applications
SET decision = 'offer', decided_at = now(), rsvp_deadline = @rsvp_deadline, updated_at = now()
WHERE id = @id;

-- name: RsvpOfferRecipients :many
-- Of the given applications, those holding an unanswered offer.
SELECT a.id, p.email, coalesce(p.display_name, p.email)::text AS name, a.rsvp_deadline
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.id = ANY(@ids::uuid[]) AND a.decision = 'offer' AND a.rsvp IS NULL
ORDER BY a.id;
