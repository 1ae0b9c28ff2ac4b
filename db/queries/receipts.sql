-- name: ReceiptStore :one
-- Stores a raw receipt once; a copy with the same SHA-256 stores nothing
-- and returns the row already there (inserted = false).
WITH ins AS (
    INSERT INTO receipts (body_sha256, raw) VALUES (@body_sha256, @raw)
    ON CONFLICT (body_sha256) DO NOTHING
    RETURNING id, status, reason
)
SELECT id, status, reason, true AS inserted FROM ins
UNION ALL
SELECT r.id, r.status, r.reason, false AS inserted FROM receipts r
WHERE r.body_sha256 = @body_sha256 AND NOT EXISTS (SELECT 1 FROM ins);

-- name: ReceiptGet :one
SELECT * FROM receipts WHERE id = $1;

-- name: ReceiptLock :one
SELECT * FROM receipts WHERE id = $1 FOR UPDATE;

-- name: ReceiptReject :execrows
-- A receipt whose sender or DKIM signature failed; only a receipt not yet
-- verified can be rejected.
UPDATE receipts SET status = 'rejected', reason = @reason, shop_domain = @shop_domain, updated_at = now()
WHERE id = @id AND status = 'received';

-- name: ReceiptSetParsed :exec
-- Records what the parser read.
UPDATE receipts
SET shop_domain = @shop_domain, transaction_id = @transaction_id, order_number = @order_number,
    customer_email = @customer_email, amount_cents = @amount_cents, term_name = @term_name, updated_at = now()
WHERE id = @id;

-- name: ReceiptSetStatus :exec
UPDATE receipts SET status = @status, reason = @reason, workflow_id = coalesce(sqlc.narg(workflow_id), workflow_id),
    matched_by = coalesce(sqlc.narg(matched_by), matched_by), updated_at = now()
WHERE id = @id;

-- name: ReceiptList :many
-- Newest first, optionally of one status.
SELECT id, transaction_id, customer_email, amount_cents, status, reason, created_at
FROM receipts
WHERE sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status)::text
ORDER BY created_at DESC, id DESC
LIMIT @page_size OFFSET @page_offset;

-- name: ReceiptCount :one
SELECT count(*) FROM receipts
WHERE sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status)::text;

-- name: ReceiptsEraseForPerson :execrows
-- An erasure: the person's receipts (by their customer email, or paying one
-- of their memberships) lose the raw email and the address; the payment
-- record (transaction, amount, term, status) stays.
UPDATE receipts
SET customer_email = '', raw = ''::bytea, purged_at = coalesce(purged_at, now()), updated_at = now()
WHERE (customer_email <> '' AND lower(customer_email) = lower(@email::text))
   OR id IN (SELECT m.receipt_id FROM memberships m WHERE m.profile_id = @profile_id AND m.receipt_id IS NOT NULL);

-- name: ReceiptsPurgeSettled :execrows
-- Retention: up to max_rows receipts settled (processed, rejected or a
-- duplicate) before @before lose their raw email.
UPDATE receipts SET raw = ''::bytea, purged_at = now()
WHERE id IN (
    SELECT r.id FROM receipts r
    WHERE r.purged_at IS NULL AND r.status IN ('processed', 'rejected', 'duplicate') AND r.updated_at < @before
    ORDER BY r.updated_at
    LIMIT @max_rows
    FOR UPDATE SKIP LOCKED);
