-- name: BroadcastRecipientsInsert :execrows
-- Materializes a broadcast's audience: confirmed accounts only, one row per
-- person, and with marketing only those who opted in. kind is one of
-- members, paid_members (both of term_id), execs (an active exec role) and
-- applicants (a submitted application; decision filters them, 'none'
-- meaning not decided).
INSERT INTO broadcast_recipients (broadcast_id, seq, profile_id, email)
SELECT @broadcast_id::uuid, row_number() OVER (ORDER BY p.id), p.id, p.email
FROM profiles p
WHERE p.email_confirmed_at IS NOT NULL
  AND (NOT @marketing::boolean OR p.marketing_opt_in)
  AND CASE @kind::text
      WHEN 'members' THEN EXISTS (
          SELECT 1 FROM memberships m WHERE m.profile_id = p.id AND m.term_id = sqlc.narg('term_id')::uuid)
      WHEN 'paid_members' THEN EXISTS (
          SELECT 1 FROM memberships m
          WHERE m.profile_id = p.id AND m.term_id = sqlc.narg('term_id')::uuid AND m.status = 'paid')
      WHEN 'execs' THEN EXISTS (
          SELECT 1 FROM exec_roles e WHERE e.profile_id = p.id AND e.active)
      WHEN 'applicants' THEN EXISTS (
          SELECT 1 FROM applications a
          WHERE a.profile_id = p.id AND a.status = 'submitted'
            AND (sqlc.narg('decision')::text IS NULL OR coalesce(a.decision, 'none') = sqlc.narg('decision')::text))
      ELSE false
      END;

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
