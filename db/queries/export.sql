-- The export of one person's data (GET /api/me/export): read-only queries
-- that belong together, named for the report like dashboard.sql. Nothing
-- here names a reviewer or gives an individual score.
;

-- name: ExportApplications :many
-- The person's applications of every edition, oldest first.
SELECT sqlc.embed(a), h.name AS hackathon_name
FROM applications a
JOIN hackathons h ON h.id = a.hackathon_id
WHERE a.profile_id = $1
ORDER BY a.created_at, a.id;

-- name: ExportApplicationEvents :many
-- Decisions, RSVPs, expiries and reminders of the person's applications,
-- without who acted.
SELECT e.application_id, e.kind, e.detail, e.created_at
FROM application_events e
JOIN applications a ON a.id = e.application_id
WHERE a.profile_id = $1
ORDER BY e.application_id, e.id;

-- name: ExportSelections :many
-- The exec positions the person applied for and where each stands.
SELECT s.application_id, p.title, p.subteam, t.name AS term_name, s.status, s.created_at, s.updated_at
FROM selections s
JOIN applications a ON a.id = s.application_id
JOIN positions p ON p.id = s.position_id
JOIN terms t ON t.id = s.term_id
WHERE a.profile_id = $1
ORDER BY s.created_at, s.id;

-- name: ExportMemberships :many
SELECT m.id, t.name AS term_name, m.status, m.amount_cents, m.method, m.paid_at, m.created_at
FROM memberships m
JOIN terms t ON t.id = m.term_id
WHERE m.profile_id = $1
ORDER BY t.starts_on, m.id;

-- name: ExportExecRoles :many
SELECT e.position, e.subteam, t.name AS term_name, e.active, e.created_at, e.ended_at
FROM exec_roles e
LEFT JOIN terms t ON t.id = e.term_id
WHERE e.profile_id = $1
ORDER BY e.created_at, e.id;

-- name: ExportSubmissions :many
SELECT s.*, t.name AS term_name
FROM exec_form_submissions s
JOIN terms t ON t.id = s.term_id
WHERE s.profile_id = $1
ORDER BY s.submitted_at, s.id;

-- name: ExportEmails :many
-- Every email recorded to the person's address, oldest first.
SELECT kind, subject, text_body, status, created_at, sent_at
FROM emails
WHERE lower(to_address) = lower(@address::text)
ORDER BY created_at, id;

-- name: ExportSessions :many
SELECT created_at, last_seen_at, expires_at, revoked_at
FROM sessions
WHERE profile_id = $1
ORDER BY created_at, id;

-- name: ExportProfile :one
SELECT id, email, display_name, role, email_confirmed_at, marketing_opt_in, created_at
FROM profiles WHERE id = $1;

-- name: ExportVolunteering :many
-- The editions the person volunteers at the door of, without who added them.
SELECT v.hackathon_id, h.name AS hackathon_name, v.created_at
FROM hackathon_volunteers v JOIN hackathons h ON h.id = v.hackathon_id
WHERE v.profile_id = $1
ORDER BY v.created_at, v.hackathon_id;
