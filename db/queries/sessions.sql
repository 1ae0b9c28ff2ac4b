-- name: SessionInsert :one
INSERT INTO sessions (token_hash, profile_id, expires_at)
VALUES (@token_hash, @profile_id, @expires_at)
RETURNING *;

-- name: SessionPrincipal :one
-- The caller behind a session token: live (not revoked, not past its
-- absolute expiry, used within the idle window) with its current role and
-- active exec role, read fresh on every request.
SELECT s.id AS session_id, s.last_seen_at, p.id AS profile_id, p.email, p.role,
       e.position AS exec_position, e.subteam AS exec_subteam
FROM sessions s
JOIN profiles p ON p.id = s.profile_id
LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
WHERE s.token_hash = @token_hash
  AND s.revoked_at IS NULL
  AND s.expires_at > now()
  AND s.last_seen_at > now() - make_interval(secs => @idle_seconds::float8);

-- name: SessionTouch :exec
UPDATE sessions SET last_seen_at = now() WHERE id = $1;

-- name: SessionRevoke :exec
UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL;

-- name: SessionRevokeAllForProfile :execrows
UPDATE sessions SET revoked_at = now() WHERE profile_id = $1 AND revoked_at IS NULL;
