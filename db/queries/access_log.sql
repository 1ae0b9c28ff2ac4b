-- name: AccessLogInsert :execrows
-- One staff read of personal data per subject (a list of subjects and
-- their records, pairwise, for an export: one row per person).
INSERT INTO access_log (actor_id, actor_role, action, subject_id, object_id)
SELECT @actor_id::uuid, @actor_role::text, @action::text,
       unnest(@subject_ids::uuid[]), unnest(@object_ids::uuid[]);

-- name: AccessLogList :many
-- The superadmins' view of the log, newest first, filtered by the staff
-- member who read (actor) and by the person read about (subject).
SELECT l.id, l.actor_id, pa.display_name AS actor_name, pa.email AS actor_email, l.actor_role,
       l.action, l.subject_id, ps.display_name AS subject_name, ps.email AS subject_email,
       l.object_id, l.at
FROM access_log l
JOIN profiles pa ON pa.id = l.actor_id
JOIN profiles ps ON ps.id = l.subject_id
WHERE (sqlc.narg('actor_id')::uuid IS NULL OR l.actor_id = sqlc.narg('actor_id')::uuid)
  AND (sqlc.narg('subject_id')::uuid IS NULL OR l.subject_id = sqlc.narg('subject_id')::uuid)
ORDER BY l.at DESC, l.id DESC
LIMIT @page_limit OFFSET @page_offset;

-- name: AccessLogCount :one
SELECT count(*) FROM access_log l
WHERE (sqlc.narg('actor_id')::uuid IS NULL OR l.actor_id = sqlc.narg('actor_id')::uuid)
  AND (sqlc.narg('subject_id')::uuid IS NULL OR l.subject_id = sqlc.narg('subject_id')::uuid);

-- name: AccessLogForSubject :many
-- What a person's export says of staff reads: the role and the time, never
-- who.
SELECT actor_role, action, object_id, at FROM access_log
WHERE subject_id = $1
ORDER BY at, id;

-- name: AccessLogDeleteOlderThan :execrows
-- Retention: up to max_rows rows older than a year go.
DELETE FROM access_log WHERE id IN (
    SELECT l.id FROM access_log l WHERE l.at < @before ORDER BY l.at LIMIT @max_rows);

-- name: AccessLogAttendance :execrows
-- The attendance CSV of an edition: one row per person in it (the
-- attending but erased accounts, as AttendanceRows), each naming their
-- application.
INSERT INTO access_log (actor_id, actor_role, action, subject_id, object_id)
SELECT @actor_id::uuid, @actor_role::text, 'attendance.csv', a.profile_id, a.id
FROM applications a
WHERE a.hackathon_id = @hackathon_id AND a.rsvp = 'attending' AND a.erased_at IS NULL;
