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
-- searched. Both expressions are in profiles_search_words_idx.
SELECT id, email, display_name FROM profiles
WHERE email_confirmed_at IS NOT NULL
  AND id <> @caller_id
  AND (search_words(display_name) LIKE @pattern::text
       OR search_words(split_part(email, '@', 1)) LIKE @pattern::text)
ORDER BY lower(coalesce(display_name, email)), lower(email)
LIMIT @max_rows;

-- name: ProfileSearchByEmail :many
-- Team-member search by a whole email address (lower case): the confirmed
-- account that has it, unless it is the caller's.
SELECT id, email, display_name FROM profiles
WHERE email_confirmed_at IS NOT NULL
  AND id <> @caller_id
  AND lower(email) = @email::text;

-- name: ProfilesConfirmedByEmails :many
SELECT id, email, display_name FROM profiles
WHERE email_confirmed_at IS NOT NULL AND lower(email) = ANY(@emails::text[]);

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
