-- name: EmailInsert :execrows
-- Records an email once per idempotency key; a second insert is a no-op.
-- secret marks a body that carries a one-time link.
INSERT INTO emails (idempotency_key, kind, to_address, subject, text_body, html_body, secret)
VALUES (@idempotency_key, @kind, @to_address, @subject, @text_body, @html_body, @secret)
ON CONFLICT (idempotency_key) DO NOTHING;

-- name: EmailGetByKey :one
SELECT * FROM emails WHERE idempotency_key = $1;

-- name: EmailLockByKey :one
SELECT * FROM emails WHERE idempotency_key = $1 FOR UPDATE;

-- name: EmailMarkSending :exec
UPDATE emails
SET status = 'sending', attempts = attempts + 1, updated_at = now()
WHERE id = $1;

-- name: EmailMarkSent :exec
-- With redact, a secret-bearing email's bodies are replaced by the given
-- notice as it is marked sent: the audit trail keeps no usable link.
UPDATE emails
SET status = 'sent', provider_id = @provider_id, sent_at = now(), last_error = NULL, updated_at = now(),
    text_body = CASE WHEN secret AND @redact::boolean THEN @redacted_text::text ELSE text_body END,
    html_body = CASE WHEN secret AND @redact::boolean THEN @redacted_html::text ELSE html_body END
WHERE id = @id;

-- name: EmailReleaseClaim :exec
-- Gives back a claim whose transaction may or may not have committed (the
-- connection dropped during it): the attempt that made it never called the
-- driver. Only that claim is released: still sending, at its attempt.
UPDATE emails
SET status = 'pending', updated_at = now()
WHERE id = @id AND status = 'sending' AND attempts = @attempts;

-- name: EmailMarkPending :exec
UPDATE emails
SET status = 'pending', last_error = @last_error, updated_at = now()
WHERE id = @id;

-- name: EmailMarkFailed :exec
-- Failed is final, so a secret-bearing body is redacted as for sent.
UPDATE emails
SET status = 'failed', last_error = @last_error, updated_at = now(),
    text_body = CASE WHEN secret AND @redact::boolean THEN @redacted_text::text ELSE text_body END,
    html_body = CASE WHEN secret AND @redact::boolean THEN @redacted_html::text ELSE html_body END
WHERE id = @id;

-- name: EmailList :many
SELECT * FROM emails
WHERE (sqlc.narg('to_address')::text IS NULL OR lower(to_address) = lower(sqlc.narg('to_address')::text))
  AND (sqlc.narg('kind')::text IS NULL OR kind = sqlc.narg('kind')::text)
ORDER BY created_at DESC, id DESC
LIMIT @page_limit OFFSET @page_offset;

-- name: EmailCount :one
SELECT count(*) FROM emails
WHERE (sqlc.narg('to_address')::text IS NULL OR lower(to_address) = lower(sqlc.narg('to_address')::text))
  AND (sqlc.narg('kind')::text IS NULL OR kind = sqlc.narg('kind')::text);
