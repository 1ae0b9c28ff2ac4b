-- name: ExecFormSubmissionGet :one
SELECT * FROM exec_form_submissions
WHERE term_id = @term_id AND profile_id = @profile_id AND kind = @kind;

-- name: ExecFormSubmissionLock :one
SELECT * FROM exec_form_submissions
WHERE term_id = @term_id AND profile_id = @profile_id AND kind = @kind
FOR UPDATE;

-- name: ExecFormSubmissionUpsert :one
-- Submits the form, or updates the caller's submission (submitted_at kept).
INSERT INTO exec_form_submissions (term_id, profile_id, kind, display_name, email, role, term_type,
                                   headshot_key, headshot_consent, chat_handle, photo_handle, ds_competency)
VALUES (@term_id, @profile_id, @kind, @display_name, @email, @role, @term_type,
        @headshot_key, @headshot_consent, @chat_handle, @photo_handle, @ds_competency)
ON CONFLICT (term_id, profile_id, kind) DO UPDATE SET
    display_name = EXCLUDED.display_name, email = EXCLUDED.email, role = EXCLUDED.role,
    term_type = EXCLUDED.term_type, headshot_key = EXCLUDED.headshot_key,
    headshot_consent = EXCLUDED.headshot_consent, chat_handle = EXCLUDED.chat_handle,
    photo_handle = EXCLUDED.photo_handle, ds_competency = EXCLUDED.ds_competency,
    updated_at = now()
RETURNING *, (xmax = 0)::boolean AS created;

-- name: ExecFormSubmissionSetHeadshot :execrows
UPDATE exec_form_submissions SET headshot_key = @headshot_key, headshot_consent = true, updated_at = now()
WHERE term_id = @term_id AND profile_id = @profile_id AND kind = @kind;

-- name: ExecFormSubmissionList :many
-- A term's submissions of one kind with the submitter's subteam in the
-- term the form is about (the term itself for onboarding, the one before
-- for returning); a VP passes their subteam, a President NULL.
SELECT s.*, COALESCE(r.subteam, '')::text AS subteam
FROM exec_form_submissions s
LEFT JOIN LATERAL (
    SELECT e.subteam FROM exec_roles e
    WHERE e.profile_id = s.profile_id AND e.term_id = @role_term_id::uuid
    ORDER BY e.active DESC, e.created_at DESC LIMIT 1
) r ON true
WHERE s.term_id = @term_id AND s.kind = @kind
  AND (sqlc.narg(subteam)::text IS NULL OR r.subteam = sqlc.narg(subteam)::text)
ORDER BY s.display_name, s.profile_id;

-- name: DBNow :one
SELECT now()::timestamptz AS now;

-- name: ExecFormRecipients :many
-- The people a form is for: holders of an exec role of role_term_id (active
-- ones only unless include_ended), without a submission of the kind for the
-- term when only_missing.
SELECT DISTINCT p.id, p.email, COALESCE(p.display_name, '')::text AS name
FROM exec_roles e JOIN profiles p ON p.id = e.profile_id
WHERE e.term_id = @role_term_id AND (e.active OR @include_ended::boolean)
  AND (NOT @only_missing::boolean OR NOT EXISTS (
      SELECT 1 FROM exec_form_submissions s
      WHERE s.term_id = @term_id AND s.profile_id = p.id AND s.kind = @kind))
ORDER BY p.email;

-- name: ExecFormSubmissionKeysByProfile :many
-- An erasure: the person's submissions and their headshots' keys.
SELECT id, headshot_key FROM exec_form_submissions WHERE profile_id = $1 ORDER BY id;

-- name: ExecFormSubmissionsRetentionBatch :many
-- Retention: up to max_rows submissions of terms that ended before
-- @ended_before, with their headshots' keys.
SELECT s.id, s.headshot_key FROM exec_form_submissions s
JOIN terms t ON t.id = s.term_id
WHERE t.ends_on < @ended_before::date
ORDER BY s.id
LIMIT @max_rows;

-- name: ExecFormSubmissionsDelete :execrows
DELETE FROM exec_form_submissions WHERE id = ANY(@ids::uuid[]);
-- name: ExecFormMissing :many
-- The people a kind's form of a term is for (holders of an exec role of
-- role_term_id: active ones for onboarding, ended ones too for returning)
-- who have not submitted it, with that role; a VP passes their subteam, a
-- President NULL.
SELECT DISTINCT ON (lower(coalesce(p.display_name, p.email)), p.id)
    p.id AS profile_id, p.display_name, p.email, e.position, COALESCE(e.subteam, '')::text AS subteam
FROM exec_roles e JOIN profiles p ON p.id = e.profile_id
WHERE e.term_id = @role_term_id AND (e.active OR @include_ended::boolean)
  AND (sqlc.narg(subteam)::text IS NULL OR e.subteam = sqlc.narg(subteam)::text)
  AND NOT EXISTS (
      SELECT 1 FROM exec_form_submissions s
      WHERE s.term_id = @term_id AND s.profile_id = p.id AND s.kind = @kind)
ORDER BY lower(coalesce(p.display_name, p.email)), p.id, e.active DESC, e.created_at DESC;

-- name: ExecFormOwnOnboarding :one
-- The onboarding form of the term of a person's active exec role: its
-- window, whether it is open now and whether they have submitted it.
SELECT t.id AS term_id, t.name AS term_name, t.onboarding_opens_at AS opens_at, t.onboarding_closes_at AS closes_at,
    coalesce(t.onboarding_opens_at <= now() AND now() < t.onboarding_closes_at, false)::boolean AS open,
    EXISTS (SELECT 1 FROM exec_form_submissions s
            WHERE s.term_id = t.id AND s.profile_id = e.profile_id AND s.kind = 'onboarding') AS submitted
FROM exec_roles e JOIN terms t ON t.id = e.term_id
WHERE e.profile_id = @profile_id AND e.active;
