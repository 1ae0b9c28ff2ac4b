-- name: SessionInsert :one
INSERT INTO sessions (token_hash, profile_id, expires_at)
VALUES (@token_hash, @profile_id, @expires_at)
RETURNING *;

-- name: SessionPrincipal :one
-- The caller behind a session token: not revoked and not past its stored
-- absolute expiry, with its current role and active exec role, read fresh
-- on every request. The idle and role-dependent limits are applied by the
-- caller to the returned times, measured against db_now (the clock that
-- wrote them).
SELECT s.id AS session_id, s.created_at, s.last_seen_at, s.expires_at,
       now()::timestamptz AS db_now,
       p.id AS profile_id, p.email, p.role,
       e.position AS exec_position, e.subteam AS exec_subteam,
       EXISTS (SELECT 1 FROM hackathon_volunteers v
               WHERE v.profile_id = p.id AND v.hackathon_id = hackathon_current_id())::boolean AS volunteer
FROM sessions s
JOIN profiles p ON p.id = s.profile_id
LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
WHERE s.token_hash = @token_hash
  AND s.revoked_at IS NULL
  AND s.expires_at > now()
  -- an account locked for erasure has no live session
  AND p.erase_at IS NULL;

-- name: SessionTouch :exec
UPDATE sessions SET last_seen_at = now() WHERE id = $1;

-- name: SessionRevoke :exec
UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL;

-- name: SessionRevokeAllForProfile :execrows
UPDATE sessions SET revoked_at = now() WHERE profile_id = $1 AND revoked_at IS NULL;

-- name: SessionListForProfile :many
-- A person's sessions that are neither revoked nor past their stored
-- absolute expiry, newest first; the caller drops those past the idle or
-- role-dependent limits (measured against db_now).
SELECT id, created_at, last_seen_at, expires_at, now()::timestamptz AS db_now
FROM sessions
WHERE profile_id = @profile_id AND revoked_at IS NULL AND expires_at > now()
ORDER BY created_at DESC, id;

-- name: SessionRevokeOthers :many
-- Signs a person out everywhere but one session: every unrevoked session
-- except keep_id is revoked (expired ones too, so none can come back to
-- life under a later role's longer limits). Returns the revoked sessions'
-- times so the caller can count those that were still live.
UPDATE sessions
SET revoked_at = now()
WHERE profile_id = @profile_id AND id <> @keep_id AND revoked_at IS NULL
RETURNING created_at, last_seen_at, expires_at, now()::timestamptz AS db_now;

-- name: SessionsDeleteForProfile :execrows
-- An erasure: every session of the account goes.
DELETE FROM sessions WHERE profile_id = $1;

-- name: SessionsDeleteExpired :execrows
-- Retention: sessions revoked, past their absolute expiry, or unused for
-- longer than any role's idle limit (a week) go at once.
DELETE FROM sessions
WHERE expires_at <= now() OR revoked_at IS NOT NULL OR last_seen_at < now() - interval '7 days';
