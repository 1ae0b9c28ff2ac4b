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

-- name: EmailInsertSuppressed :execrows
-- Records, under its key, an email that is never to be sent: its
-- recipient's account is being erased. The row is failed and blank (so
-- the SendEmail run for the key ends at once and nothing of the person is
-- stored); a key recorded before changes nothing.
INSERT INTO emails (idempotency_key, kind, to_address, subject, text_body, html_body, status, purged_at)
VALUES (@idempotency_key, @kind, '', '', '', '', 'failed', now())
ON CONFLICT (idempotency_key) DO NOTHING;

-- name: EmailsPurgeForAddress :execrows
-- An erasure: every email to the address loses its address, subject and
-- bodies (key, kind and status stay, so each key is still sent once); one
-- not yet sent never will be.
UPDATE emails
SET to_address = '', subject = '', text_body = '', html_body = '', last_error = NULL,
    status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END,
    purged_at = now(), updated_at = now()
WHERE lower(to_address) = lower(@address::text) AND purged_at IS NULL;

-- name: EmailsPurgeOlderThan :execrows
-- Retention: up to max_rows settled (sent or failed) emails recorded
-- before @before lose their address, subject and bodies.
UPDATE emails
SET to_address = '', subject = '', text_body = '', html_body = '', last_error = NULL, purged_at = now()
WHERE id IN (
    SELECT e.id FROM emails e
    WHERE e.purged_at IS NULL AND e.created_at < @before AND e.status IN ('sent', 'failed')
    ORDER BY e.created_at
    LIMIT @max_rows
    FOR UPDATE SKIP LOCKED);
