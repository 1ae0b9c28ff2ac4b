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
