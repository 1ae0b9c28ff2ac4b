-- name: WebhookTokenUse :one
-- Records a webhook token with the SHA-256 of the email it came with and
-- returns the SHA-256 the token is bound to: the given one when the token
-- is new, the first one when it was seen before.
WITH ins AS (
    INSERT INTO webhook_tokens (token, body_sha256) VALUES (@token, @body_sha256)
    ON CONFLICT (token) DO NOTHING
    RETURNING body_sha256
)
SELECT body_sha256 FROM ins
UNION ALL
SELECT t.body_sha256 FROM webhook_tokens t WHERE t.token = @token AND NOT EXISTS (SELECT 1 FROM ins);

-- name: WebhookTokensPrune :execrows
-- Tokens older than the signature window can never be accepted again
-- (their timestamp is signed with them), so they need not be kept. At most
-- @batch_size rows a call: the sweep deletes in short statements.
DELETE FROM webhook_tokens
WHERE token IN (SELECT t.token FROM webhook_tokens t WHERE t.received_at < sqlc.arg(before)::timestamptz LIMIT @batch_size);
