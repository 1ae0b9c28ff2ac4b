-- name: BroadcastRecipientsInsert :execrows
-- Materializes a broadcast's audience (broadcast_audience: confirmed
-- accounts, once each, with marketing only those who opted in).
INSERT INTO broadcast_recipients (broadcast_id, seq, profile_id, email)
SELECT @broadcast_id::uuid, row_number() OVER (ORDER BY a.profile_id), a.profile_id, a.email
FROM broadcast_audience(@marketing::boolean, @kind::text, sqlc.narg('term_id')::uuid, sqlc.narg('decision')::text) a;

-- name: BroadcastAudienceCount :one
-- How many people a broadcast to this audience would go to now: the count
-- BroadcastRecipientsInsert would materialize.
SELECT count(*)::integer AS recipients
FROM broadcast_audience(@marketing::boolean, @kind::text, sqlc.narg('term_id')::uuid, sqlc.narg('decision')::text);

-- name: BroadcastBatchLoad :many
-- One batch's recipients (seq first..last) with what their email says,
-- whether the broadcast still sends (status and cancel request), and
-- whether the recipient of a marketing broadcast has unsubscribed since.
SELECT r.seq, r.profile_id, r.email, r.status,
       b.subject, b.body, b.status AS broadcast_status,
       (b.cancel_requested_at IS NOT NULL)::boolean AS cancel_requested,
       (b.marketing AND NOT p.marketing_opt_in)::boolean AS unsubscribed
FROM broadcasts b
JOIN broadcast_recipients r ON r.broadcast_id = b.id
JOIN profiles p ON p.id = r.profile_id
WHERE b.id = @broadcast_id AND r.seq BETWEEN @first::integer AND @last::integer
ORDER BY r.seq;

-- name: BroadcastRecipientsMark :execrows
-- Records the outcomes of a batch's recipients (seq and status, pairwise)
-- and counts them on the broadcast, once: a recipient already marked
-- changes nothing.
WITH marked AS (
    UPDATE broadcast_recipients r SET status = m.status
    FROM (SELECT unnest(@seqs::integer[]) AS seq, unnest(@statuses::text[]) AS status) m
    WHERE r.broadcast_id = @broadcast_id AND r.seq = m.seq AND r.status = 'pending'
    RETURNING r.status
)
UPDATE broadcasts b
SET sent    = b.sent + (SELECT count(*) FROM marked WHERE marked.status = 'sent'),
    failed  = b.failed + (SELECT count(*) FROM marked WHERE marked.status = 'failed'),
    skipped = b.skipped + (SELECT count(*) FROM marked WHERE marked.status = 'skipped')
WHERE b.id = @broadcast_id AND EXISTS (SELECT 1 FROM marked);

-- name: BroadcastRecipientsTally :one
-- The outcomes of one batch's recipients so far.
SELECT count(*) FILTER (WHERE status = 'sent')::integer AS sent,
       count(*) FILTER (WHERE status = 'failed')::integer AS failed,
       count(*) FILTER (WHERE status = 'skipped')::integer AS skipped
FROM broadcast_recipients
WHERE broadcast_id = @broadcast_id AND seq BETWEEN @first::integer AND @last::integer;

-- name: BroadcastRecipientsDelete :execrows
DELETE FROM broadcast_recipients WHERE broadcast_id = $1;

-- name: BroadcastRecipientsErase :execrows
-- An erasure: the person's pending places in running broadcasts are
-- skipped (counted on their broadcasts) and every recipient row of theirs
-- loses the address. The two updates touch disjoint rows (pending in the
-- statement's snapshot, and the others).
WITH skipped AS (
    UPDATE broadcast_recipients sr SET status = 'skipped', email = ''
    WHERE sr.profile_id = @profile_id::uuid AND sr.status = 'pending'
    RETURNING sr.broadcast_id
), counted AS (
    UPDATE broadcasts b SET skipped = b.skipped + c.n
    FROM (SELECT broadcast_id, count(*)::integer AS n FROM skipped GROUP BY broadcast_id) c
    WHERE b.id = c.broadcast_id
    RETURNING b.id
)
UPDATE broadcast_recipients er SET email = ''
WHERE er.profile_id = @profile_id::uuid AND er.status <> 'pending' AND er.email <> '';

-- name: BroadcastRecipientsLive :many
-- Of a batch's recipients, those whose account is not being erased, with
-- the account's current address; each account row is share-locked until
-- the batch's recording commits, so an erasure beginning meanwhile waits
-- for it (and then purges what it recorded).
SELECT p.id, p.email FROM profiles p
WHERE p.id = ANY(@profile_ids::uuid[]) AND p.erasing_at IS NULL
ORDER BY p.id
FOR SHARE;
