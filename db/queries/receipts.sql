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
