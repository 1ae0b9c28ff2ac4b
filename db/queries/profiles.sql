-- name: ProfileInsert :one
INSERT INTO profiles (email, display_name, password_hash, role, email_confirmed_at)
VALUES (@email, @display_name, @password_hash, @role, @email_confirmed_at)
RETURNING *;

-- name: ProfileInsertNew :one
-- Sign-up: creates the account unless the email has one already (then no
-- row, and the statement leaves the transaction usable).
INSERT INTO profiles (email, display_name, password_hash, role)
VALUES (@email, @display_name, @password_hash, 'member')
ON CONFLICT DO NOTHING
RETURNING *;

-- name: ProfileLockByEmail :one
-- The account row, locked until the transaction ends: requests that issue
-- tokens for one account (forgot-password) run one after the other.
SELECT * FROM profiles WHERE lower(email) = lower(@email::text) FOR UPDATE;

-- name: ProfileGetByEmail :one
SELECT * FROM profiles WHERE lower(email) = lower(@email::text);

-- name: ProfileConfirmEmail :exec
UPDATE profiles SET email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
WHERE id = $1;

-- name: ProfileSetPassword :exec
UPDATE profiles SET password_hash = @password_hash, updated_at = now() WHERE id = @id;

-- name: ProfileSetDisplayName :one
UPDATE profiles SET display_name = @display_name, updated_at = now() WHERE id = @id
RETURNING *;

-- name: ProfileSetRole :one
UPDATE profiles SET role = @role, updated_at = now() WHERE id = @id
RETURNING *;

-- name: ProfileView :one
-- The profile with its active exec role, for GET /api/profile.
SELECT p.id, p.email, p.display_name, p.role, p.email_confirmed_at, p.marketing_opt_in,
       e.position AS exec_position, e.subteam AS exec_subteam, e.term_id AS exec_term_id
FROM profiles p
LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
WHERE p.id = $1;

-- name: ProfileSearchByWords :many
-- Team-member search by words: confirmed accounts, never the caller, with
-- a word of the display name or of the email's local part (search_words,
-- migration 00041) starting the LIKE pattern (db.LikeWordPrefix of the
-- query's words); alphabetical, at most max_rows. The domain is never
-- searched. Both expressions are in profiles_search_words_idx. An account
-- locked for erasure is not found.
SELECT id, email, display_name FROM profiles
WHERE email_confirmed_at IS NOT NULL AND erase_at IS NULL
  AND id <> @caller_id
  AND (search_words(display_name) LIKE @pattern::text
       OR search_words(split_part(email, '@', 1)) LIKE @pattern::text)
ORDER BY lower(coalesce(display_name, email)), lower(email)
LIMIT @max_rows;

-- name: ProfileSearchByEmail :many
-- Team-member search by a whole email address (lower case): the confirmed
-- account that has it, unless it is the caller's or locked for erasure.
SELECT id, email, display_name FROM profiles
WHERE email_confirmed_at IS NOT NULL AND erase_at IS NULL
  AND id <> @caller_id
  AND lower(email) = @email::text;

-- name: ProfilesConfirmedByEmails :many
-- The confirmed accounts of these addresses (an account locked for
-- erasure is not one: nobody adds it to a team).
SELECT id, email, display_name FROM profiles
WHERE email_confirmed_at IS NOT NULL AND erase_at IS NULL AND lower(email) = ANY(@emails::text[]);

-- name: ProfilePromoteAdmin :execrows
-- Makes a member an admin; an admin or superadmin keeps their role.
UPDATE profiles SET role = 'admin', updated_at = now() WHERE id = $1 AND role = 'member';

-- name: ProfilesDemoteToMember :execrows
-- Makes admins members again; a superadmin is never lowered.
UPDATE profiles SET role = 'member', updated_at = now()
WHERE id = ANY(@ids::uuid[]) AND role = 'admin';

-- name: ProfileSetMarketingOptIn :exec
-- Set from the application's opt-in when it is submitted, and by the
-- profile page (PATCH /api/profile).
UPDATE profiles SET marketing_opt_in = @marketing_opt_in, updated_at = now() WHERE id = @id;

-- name: ProfileUnsubscribe :execrows
-- A one-click unsubscribe: no more marketing broadcasts. Repeating it
-- changes nothing.
UPDATE profiles SET marketing_opt_in = false, updated_at = now() WHERE id = $1 AND marketing_opt_in;

-- name: ProfileSuperadminsLock :many
-- The superadmins, their rows locked (in id order) until the transaction
-- ends: a role change that would demote one counts them first, so two
-- demotions at once cannot leave none.
SELECT id FROM profiles WHERE role = 'superadmin' ORDER BY id FOR UPDATE;

-- name: ProfileAdminList :many
-- The superadmins' list of accounts: filtered by role and by a LIKE pattern
-- (lower case) on the email or the display name; by email. Each comes with
-- its exec role of the active term, if it holds one.
SELECT p.id, p.email, p.display_name, p.role, p.email_confirmed_at,
       e.position AS exec_position, e.subteam AS exec_subteam, e.term_id AS exec_term_id
FROM profiles p
LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
     AND e.term_id = (SELECT t.id FROM terms t WHERE t.active)
WHERE (sqlc.narg(role)::text IS NULL OR p.role = sqlc.narg(role)::text)
  AND (sqlc.narg(pattern)::text IS NULL
       OR lower(p.email) LIKE sqlc.narg(pattern)::text
       OR lower(coalesce(p.display_name, '')) LIKE sqlc.narg(pattern)::text)
ORDER BY lower(p.email), p.id
LIMIT @page_size OFFSET @page_offset;

-- name: ProfileAdminCount :one
SELECT count(*) FROM profiles p
WHERE (sqlc.narg(role)::text IS NULL OR p.role = sqlc.narg(role)::text)
  AND (sqlc.narg(pattern)::text IS NULL
       OR lower(p.email) LIKE sqlc.narg(pattern)::text
       OR lower(coalesce(p.display_name, '')) LIKE sqlc.narg(pattern)::text);

-- name: ProfileAdminGet :one
-- One account as ProfileAdminList shows it.
SELECT p.id, p.email, p.display_name, p.role, p.email_confirmed_at,
       e.position AS exec_position, e.subteam AS exec_subteam, e.term_id AS exec_term_id
FROM profiles p
LEFT JOIN exec_roles e ON e.profile_id = p.id AND e.active
     AND e.term_id = (SELECT t.id FROM terms t WHERE t.active)
WHERE p.id = $1;

-- name: ProfileLockForErasure :one
-- The account and its erasure state, locked until the transaction ends:
-- DELETE /api/me, "Keep my account" and the erasure's first step run one
-- after the other on it. db_now is the transaction's clock.
SELECT id, email, display_name, password_hash, role, email_confirmed_at,
       erase_requested_at, erase_at, erasing_at, erased_at, now()::timestamptz AS db_now
FROM profiles WHERE id = $1 FOR UPDATE;

-- name: ProfileScheduleErasure :one
-- Locks the account for erasure grace_seconds from now; an account already
-- scheduled keeps its date.
UPDATE profiles
SET erase_requested_at = coalesce(erase_requested_at, now()),
    erase_at = coalesce(erase_at, now() + make_interval(secs => @grace_seconds::float8)),
    updated_at = now()
WHERE id = @id
RETURNING erase_at::timestamptz AS erase_at;

-- name: ProfileCancelErasure :execrows
-- "Keep my account": the erasure is cancelled unless it has begun.
UPDATE profiles SET erase_requested_at = NULL, erase_at = NULL, updated_at = now()
WHERE id = $1 AND erase_at IS NOT NULL AND erasing_at IS NULL;

-- name: ProfileErasureState :one
-- Where an account's erasure stands, by the database's clock.
SELECT erase_at, erasing_at, erased_at, now()::timestamptz AS db_now FROM profiles WHERE id = $1;

-- name: ProfileBeginErasure :exec
-- The erasure has begun: from now on the account cannot be kept and no
-- email is recorded for its address.
UPDATE profiles SET erasing_at = coalesce(erasing_at, now()), updated_at = now()
WHERE id = $1 AND erase_at IS NOT NULL;

-- name: ProfileTombstone :execrows
-- The erasure's last step: the profile stays as a tombstone (foreign keys,
-- counters, reviews written and payment records stay whole) with nothing
-- of the person: an address under .invalid (RFC 6761) naming only the id.
UPDATE profiles
SET email = 'erased-' || id::text || '@erased.invalid', display_name = NULL, password_hash = '',
    role = 'member', marketing_opt_in = false, email_confirmed_at = NULL,
    erased_at = coalesce(erased_at, now()), updated_at = now()
WHERE id = $1 AND erasing_at IS NOT NULL;

-- name: ProfileErasures :many
-- The operator page's erasures: those scheduled or under way, and those
-- finished in the last 30 days; the soonest first.
SELECT id, erase_requested_at::timestamptz AS erase_requested_at, erase_at::timestamptz AS erase_at,
       erasing_at, erased_at
FROM profiles
WHERE erase_at IS NOT NULL AND (erased_at IS NULL OR erased_at > now() - interval '30 days')
ORDER BY (erased_at IS NOT NULL), erase_at, id
LIMIT 100;

-- name: ProfileSuperadminCount :one
-- Superadmins other than one account, their rows locked like
-- ProfileSuperadminsLock's: an erasure of the last one is refused.
SELECT count(*)::integer FROM (
    SELECT id FROM profiles WHERE role = 'superadmin' AND id <> @id AND erase_at IS NULL ORDER BY id FOR UPDATE
) s;

-- name: ProfileErasingByEmail :one
-- Whether the account of an address is being erased (or is a tombstone's
-- address), its row share-locked until the transaction ends: recording an
-- email and an erasure's beginning run one after the other, so an email is
-- either recorded before the erasure begins (and purged by it) or
-- suppressed.
SELECT (erasing_at IS NOT NULL)::boolean AS erasing FROM profiles
WHERE lower(email) = lower(@email::text)
FOR SHARE;

-- name: ProfilePasswordHash :one
-- The account's password hash, to check a password before an erasure.
SELECT password_hash FROM profiles WHERE id = $1;
