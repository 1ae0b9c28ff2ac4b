-- name: HackathonInsert :one
INSERT INTO hackathons (name, applications_open_at, applications_close_at, starts_at, ends_at, capacity,
                        announce, saved_by, venue, waiver_url, feedback_url)
VALUES (@name, @applications_open_at, @applications_close_at, @starts_at, @ends_at, @capacity,
        @announce, @saved_by, @venue, @waiver_url, @feedback_url)
RETURNING *;

-- name: HackathonGet :one
SELECT * FROM hackathons WHERE id = $1;

-- name: HackathonLock :one
SELECT * FROM hackathons WHERE id = $1 FOR UPDATE;

-- name: HackathonList :many
-- Every edition, the latest opening first (a club has one a year).
SELECT * FROM hackathons ORDER BY applications_open_at DESC, created_at DESC, id;

-- name: HackathonCurrent :one
SELECT * FROM hackathons WHERE current;

-- name: HackathonCurrentAt :one
-- The current edition and the database's clock (the transaction's start
-- inside a transaction), against which its window is judged: a write and
-- the check of its window see the same instant.
SELECT sqlc.embed(h), now()::timestamptz AS db_now FROM hackathons h WHERE h.current;

-- name: HackathonUpdate :one
UPDATE hackathons SET
    name = @name, applications_open_at = @applications_open_at, applications_close_at = @applications_close_at,
    starts_at = @starts_at, ends_at = @ends_at, capacity = @capacity, announce = @announce,
    venue = @venue, waiver_url = @waiver_url, feedback_url = @feedback_url,
    saved_by = @saved_by, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: HackathonClearCurrent :exec
-- The first half of moving the current flag (the unique index allows one).
UPDATE hackathons SET current = false WHERE current AND id <> @id;

-- name: HackathonSetCurrent :exec
UPDATE hackathons SET current = true, saved_by = @saved_by, updated_at = now() WHERE id = @id AND NOT current;

-- name: HackathonListFutureWindows :many
-- Editions whose window has something ahead of now (its opening or its
-- close): each should have a running ApplicationWindow workflow (the
-- reconciler restarts a missing one).
SELECT * FROM hackathons
WHERE applications_open_at > @now::timestamptz OR applications_close_at > @now::timestamptz
ORDER BY created_at, id;

-- name: HackathonCapacityLoad :one
-- An edition's places and what holds them, in the transaction of a batch
-- of offers (after its rows are locked): attending RSVPs and open offers
-- (unanswered, deadline ahead) of applications outside the batch.
SELECT
    count(*) FILTER (WHERE a.rsvp = 'attending')::bigint AS attending,
    count(*) FILTER (WHERE a.decision = 'offer' AND a.rsvp IS NULL AND now() < a.rsvp_deadline)::bigint AS open_offers
FROM applications a
WHERE a.hackathon_id = @hackathon_id AND NOT (a.id = ANY(@exclude::uuid[]))
  AND (a.rsvp = 'attending' OR a.decision = 'offer');

-- name: HackathonWindowCounts :one
-- How an edition's applications stand: submitted, and drafts left.
SELECT count(*) FILTER (WHERE status = 'submitted')::bigint AS submitted,
       count(*) FILTER (WHERE status = 'draft')::bigint AS drafts
FROM applications WHERE hackathon_id = @hackathon_id;

-- name: HackathonDraftOwners :many
-- The owners of an edition's unsubmitted drafts (confirmed accounts),
-- for the reminder before the close.
SELECT a.id AS application_id, p.id AS profile_id, p.email, coalesce(p.display_name, p.email)::text AS name
FROM applications a JOIN profiles p ON p.id = a.profile_id
WHERE a.hackathon_id = @hackathon_id AND a.status = 'draft' AND p.email_confirmed_at IS NOT NULL
ORDER BY a.id;

-- name: HackathonSummaryRecipients :many
-- The superadmins (confirmed accounts) who get an edition's close summary.
SELECT id, email, coalesce(display_name, email)::text AS name
FROM profiles
WHERE role = 'superadmin' AND email_confirmed_at IS NOT NULL
ORDER BY id;
