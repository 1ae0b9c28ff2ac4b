-- name: SelectionsCreateForApplication :many
-- The application's chosen positions become selections in review; a
-- position chosen twice or already a selection adds nothing.
INSERT INTO selections (application_id, position_id, term_id)
SELECT @application_id, p.id, p.term_id FROM positions p WHERE p.id = ANY(@position_ids::uuid[])
ON CONFLICT (application_id, position_id) DO NOTHING
RETURNING *;

-- name: SelectionLock :one
-- A selection for a status change, with what the scope, the conflict of
-- interest rule and the email need.
SELECT s.id, s.application_id, s.position_id, s.term_id, s.status, s.updated_at,
       p.title AS position_title, p.subteam AS position_subteam,
       a.profile_id, a.hackathon_id, a.team_members, pr.email AS applicant_email,
       coalesce(pr.display_name, pr.email)::text AS applicant_name,
       t.name AS term_name
FROM selections s
JOIN positions p ON p.id = s.position_id
JOIN applications a ON a.id = s.application_id
JOIN profiles pr ON pr.id = a.profile_id
JOIN terms t ON t.id = s.term_id
WHERE s.id = $1
FOR UPDATE OF s;

-- name: SelectionSetStatus :one
UPDATE selections SET status = @status, updated_at = now(), updated_by = @updated_by
WHERE id = @id
RETURNING *;

-- name: SelectionEventInsert :exec
INSERT INTO selection_events (selection_id, actor_id, from_status, to_status)
VALUES (@selection_id, @actor_id, @from_status, @to_status);

-- name: SelectionEvents :many
SELECT * FROM selection_events WHERE selection_id = $1 ORDER BY id;

-- name: SelectionReviewList :many
-- The review queue of a term (an erased person's selections left out):
-- every selection, or a VP's subteam's only,
-- filtered by status, position and a name or email match; oldest change
-- first. total is the count before paging.
SELECT s.id, s.application_id, s.status, s.updated_at,
       p.id AS position_id, p.title AS position_title, p.subteam AS position_subteam,
       a.profile_id, pr.display_name, pr.email,
       a.q1_answer, a.q2_answer, a.resume_key, a.resume_name,
       count(*) OVER () AS total
FROM selections s
JOIN positions p ON p.id = s.position_id
JOIN applications a ON a.id = s.application_id
JOIN profiles pr ON pr.id = a.profile_id
WHERE s.term_id = @term_id AND a.erased_at IS NULL
  AND (sqlc.narg(subteam)::text IS NULL OR p.subteam = sqlc.narg(subteam)::text)
  AND (sqlc.narg(status)::text IS NULL OR s.status = sqlc.narg(status)::text)
  AND (sqlc.narg(position_id)::uuid IS NULL OR s.position_id = sqlc.narg(position_id)::uuid)
  AND (sqlc.narg(q)::text IS NULL
       OR strpos(lower(pr.email) || ' ' || lower(coalesce(pr.display_name, '')), lower(sqlc.narg(q)::text)) > 0)
ORDER BY s.updated_at, s.id
LIMIT @max_rows OFFSET @skip;

-- name: SelectionHiringList :many
-- Every selection of a term with its applicant, for the President's board
-- (an erased person's left out).
SELECT s.id, s.application_id, s.status, s.updated_at,
       p.id AS position_id, p.title AS position_title, p.subteam AS position_subteam,
       a.profile_id, pr.display_name, pr.email
FROM selections s
JOIN positions p ON p.id = s.position_id
JOIN applications a ON a.id = s.application_id
JOIN profiles pr ON pr.id = a.profile_id
WHERE s.term_id = @term_id AND a.erased_at IS NULL
ORDER BY lower(coalesce(pr.display_name, pr.email)), a.id, p.subteam, p.title, s.id;

-- name: SelectionAccepted :many
-- The term's hires: each accepted offer with its person and position.
SELECT s.id AS selection_id, a.profile_id, pr.display_name, pr.email, pr.role,
       p.id AS position_id, p.title AS position_title, p.subteam AS position_subteam,
       p.grants
FROM selections s
JOIN positions p ON p.id = s.position_id
JOIN applications a ON a.id = s.application_id
JOIN profiles pr ON pr.id = a.profile_id
WHERE s.term_id = @term_id AND s.status = 'accepted_offer'
ORDER BY lower(coalesce(pr.display_name, pr.email)), a.profile_id;

-- name: SelectionPreviousExecs :many
-- People holding an active exec role of a term that starts before this one
-- (or of none: roles granted before terms existed) who are not hired for
-- this term: finalization ends their roles. Roles of this term or of a
-- term starting later are never theirs to end.
SELECT e.profile_id, pr.display_name, pr.email, pr.role
FROM exec_roles e
JOIN profiles pr ON pr.id = e.profile_id
WHERE e.active
  AND (e.term_id IS NULL OR (SELECT t.starts_on FROM terms t WHERE t.id = e.term_id)
                            < (SELECT f.starts_on FROM terms f WHERE f.id = @term_id::uuid))
  AND NOT EXISTS (
      SELECT 1 FROM selections s JOIN applications a ON a.id = s.application_id
      WHERE s.term_id = @term_id::uuid AND s.status = 'accepted_offer' AND a.profile_id = e.profile_id)
ORDER BY lower(coalesce(pr.display_name, pr.email)), e.profile_id;

-- name: SelectionAcceptedTitle :one
-- The title of the position a person accepted an offer of in a term.
SELECT p.title FROM selections s
JOIN positions p ON p.id = s.position_id
JOIN applications a ON a.id = s.application_id
WHERE s.term_id = @term_id AND a.profile_id = @profile_id AND s.status = 'accepted_offer'
ORDER BY s.updated_at DESC LIMIT 1;
