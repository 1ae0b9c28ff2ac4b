-- name: AuthTokenInsert :one
INSERT INTO auth_tokens (profile_id, purpose, token_hash, expires_at)
VALUES (@profile_id, @purpose, @token_hash, @expires_at)
RETURNING *;

-- name: AuthTokenUse :one
-- Marks a live token used and returns it; no row when the token is unknown,
-- used, expired or meant for another purpose.
UPDATE auth_tokens SET used_at = now()
WHERE token_hash = @token_hash AND purpose = @purpose AND used_at IS NULL AND expires_at > now()
RETURNING *;

-- name: AuthTokenRetireAll :exec
-- A new token of a purpose retires the older ones.
UPDATE auth_tokens SET used_at = now()
WHERE profile_id = @profile_id AND purpose = @purpose AND used_at IS NULL;

-- name: AuthTokenLive :one
-- A live token of the purpose with its account's email and name, without
-- using it: reset-password checks the token (and the new password against
-- the account) before it spends a password hash.
SELECT t.id, t.profile_id, p.email, p.display_name
FROM auth_tokens t
JOIN profiles p ON p.id = t.profile_id
WHERE t.token_hash = @token_hash AND t.purpose = @purpose AND t.used_at IS NULL AND t.expires_at > now();

-- name: AuthTokensDeleteForProfile :execrows
-- An erasure: every token of the account goes.
DELETE FROM auth_tokens WHERE profile_id = $1;

-- name: AuthTokensDeleteSpent :execrows
-- Retention: used and expired tokens go at once.
DELETE FROM auth_tokens WHERE used_at IS NOT NULL OR expires_at <= now();
