-- Event day: the door's check-in, the edition's volunteers, the ticket and
-- the caterer's counts. (The lone semicolon below ends this header.)
;

-- name: CheckinPerson :one
-- One application as the door sees it: the person, their team's names,
-- their RSVP and check-in (with the name of who checked them in).
SELECT a.id, a.hackathon_id, a.decision, a.rsvp, a.tshirt_size, a.dietary_restrictions,
       a.checked_in_at, a.checkin_client_id,
       coalesce(p.display_name, p.email)::text AS name, coalesce(a.email, p.email)::text AS email,
       coalesce((SELECT jsonb_agg(coalesce(t->>'display_name', t->>'email'))
                 FROM jsonb_array_elements(application_team_names(a.team_members)) t), '[]')::jsonb AS team,
       c.display_name AS checker_name, c.email AS checker_email
FROM applications a JOIN profiles p ON p.id = a.profile_id
LEFT JOIN profiles c ON c.id = a.checked_in_by
WHERE a.id = @id;

-- name: CheckinLock :one
-- The application being checked in, locked, and the edition's load:
-- attending, and the walk-ins (accepted offers recorded at the door).
SELECT * FROM applications WHERE id = @id FOR UPDATE;

-- name: CheckinAttending :one
-- How many of an edition are attending (walk-ins included: they hold an
-- accepted offer) and how many are checked in.
SELECT count(*) FILTER (WHERE rsvp = 'attending')::bigint AS attending,
       count(*) FILTER (WHERE checked_in_at IS NOT NULL)::bigint AS checked_in
FROM applications WHERE hackathon_id = @hackathon_id AND (rsvp = 'attending' OR checked_in_at IS NOT NULL);

-- name: CheckinSet :one
UPDATE applications SET checked_in_at = now(), checked_in_by = @checked_in_by, checkin_client_id = @client_id,
    updated_at = now()
WHERE id = @id AND checked_in_at IS NULL AND rsvp = 'attending'
RETURNING checked_in_at;

-- name: CheckinUndo :execrows
-- Undoes a check-in made less than 10 minutes ago (the database's clock).
UPDATE applications SET checked_in_at = NULL, checked_in_by = NULL, checkin_client_id = NULL, updated_at = now()
WHERE id = @id AND checked_in_at IS NOT NULL AND checked_in_at > now() - interval '10 minutes';

-- name: CheckinWalkIn :one
-- A waitlisted applicant let in at the door: an accepted offer, in one
-- statement (the caller has checked the capacity under the edition's lock).
UPDATE applications SET decision = 'offer', decided_at = now(), rsvp_deadline = now(),
    rsvp = 'attending', rsvp_at = now(), updated_at = now()
WHERE id = @id AND decision = 'waitlist'
RETURNING *;

-- name: CheckinSearch :many
-- The door's search: the current edition's attending and waitlisted
-- applicants whose name or email holds the text, at most 10.
SELECT a.id, coalesce(p.display_name, p.email)::text AS name, coalesce(a.email, p.email)::text AS email,
       a.decision, a.rsvp, a.checked_in_at
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.hackathon_id = @hackathon_id AND a.erased_at IS NULL
  AND (a.rsvp = 'attending' OR (a.decision = 'waitlist'))
  AND (lower(coalesce(p.display_name, '')) LIKE @pattern::text OR lower(p.email) LIKE @pattern::text OR lower(coalesce(a.email, '')) LIKE @pattern::text)
ORDER BY lower(coalesce(p.display_name, p.email)), a.id
LIMIT 10;

-- name: VolunteerAdd :exec
INSERT INTO hackathon_volunteers (hackathon_id, profile_id, added_by) VALUES (@hackathon_id, @profile_id, @added_by)
ON CONFLICT DO NOTHING;

-- name: VolunteerRemove :execrows
DELETE FROM hackathon_volunteers WHERE hackathon_id = @hackathon_id AND profile_id = @profile_id;

-- name: VolunteerList :many
SELECT v.profile_id, coalesce(p.display_name, p.email)::text AS name, p.email, v.created_at
FROM hackathon_volunteers v JOIN profiles p ON p.id = v.profile_id
WHERE v.hackathon_id = @hackathon_id
ORDER BY v.created_at, v.profile_id;

-- name: VolunteerOfCurrent :one
SELECT EXISTS (SELECT 1 FROM hackathon_volunteers WHERE profile_id = @profile_id AND hackathon_id = hackathon_current_id())::boolean;

-- name: TicketOwn :one
-- The caller's ticket: their current edition's application when attending.
SELECT a.id, a.rsvp, a.checked_in_at FROM applications a
WHERE a.profile_id = @profile_id AND a.hackathon_id = hackathon_current_id();

-- name: CateringCounts :many
-- An edition's T-shirt sizes and dietary restrictions (normalized:
-- trimmed, case-folded) among the attending, each with how many of them
-- are checked in.
SELECT v.kind::text AS kind, v.value::text AS value,
       count(*)::bigint AS attending, count(a.checked_in_at)::bigint AS checked_in
FROM applications a
CROSS JOIN LATERAL (VALUES ('tshirt', coalesce(a.tshirt_size, '')),
                           ('diet', lower(btrim(coalesce(a.dietary_restrictions, ''))))) AS v(kind, value)
WHERE a.hackathon_id = @hackathon_id AND a.rsvp = 'attending'
GROUP BY v.kind, v.value;

-- name: AttendanceRows :many
-- The attendance list, a page at a time (keyset on id): the attending and
-- those checked in, but for erased accounts (counted, never listed).
SELECT a.id, coalesce(p.display_name, p.email)::text AS name, coalesce(a.email, p.email)::text AS email,
       a.tshirt_size, a.dietary_restrictions, a.checked_in_at,
       coalesce((SELECT string_agg(coalesce(t->>'display_name', t->>'email'), '; ')
                 FROM jsonb_array_elements(application_team_names(a.team_members)) t), '')::text AS team
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.hackathon_id = @hackathon_id AND a.rsvp = 'attending' AND a.erased_at IS NULL AND a.id > @after
ORDER BY a.id
LIMIT @lim;

-- name: EventTicketRecipients :many
-- An edition's attending applicants (confirmed accounts), for the ticket
-- and thank-you emails.
SELECT a.id AS application_id, coalesce(a.email, p.email)::text AS email, coalesce(p.display_name, p.email)::text AS name,
       a.checked_in_at
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.hackathon_id = @hackathon_id AND a.rsvp = 'attending' AND p.email_confirmed_at IS NOT NULL
ORDER BY a.id;

-- name: VolunteersDeleteForProfile :execrows
-- An erasure: the person volunteers at no edition's door any more.
DELETE FROM hackathon_volunteers WHERE profile_id = @profile_id;

-- name: VolunteersRetention :execrows
-- Retention: the volunteers of editions whose applications are purged
-- (ended, or with no end closed, before @ended_before).
DELETE FROM hackathon_volunteers v USING hackathons h
WHERE h.id = v.hackathon_id AND coalesce(h.ends_at, h.applications_close_at) < @ended_before;
