-- name: MembershipInsert :one
-- Joins a term unpaid. When the member has joined already nothing is
-- inserted and no row comes back (the caller reads the existing one).
INSERT INTO memberships (profile_id, term_id) VALUES (@profile_id, @term_id)
ON CONFLICT (profile_id, term_id) DO NOTHING
RETURNING *;

-- name: MembershipGet :one
SELECT * FROM memberships WHERE id = $1;

-- name: MembershipGetByProfileTerm :one
SELECT * FROM memberships WHERE profile_id = @profile_id AND term_id = @term_id;

-- name: MembershipLockByProfileTerm :one
SELECT * FROM memberships WHERE profile_id = @profile_id AND term_id = @term_id FOR UPDATE;

-- name: MembershipMarkPaid :one
-- Marks an unpaid membership paid. A paid one is left as it is and no row
-- comes back (the caller answers "already paid").
UPDATE memberships
SET status = 'paid', method = @method, amount_cents = @amount_cents, paid_at = now(),
    confirmed_by = sqlc.narg(confirmed_by), receipt_id = sqlc.narg(receipt_id), updated_at = now()
WHERE id = @id AND status = 'unpaid'
RETURNING *;

-- name: MembershipInsertPaid :one
-- A shop payment by someone who had not joined the term: the membership
-- is created paid. A row that exists already is a unique violation.
INSERT INTO memberships (profile_id, term_id, status, method, amount_cents, paid_at, receipt_id)
VALUES (@profile_id, @term_id, 'paid', 'shop', @amount_cents, now(), @receipt_id)
RETURNING *;

-- name: MembershipDetail :one
-- A membership with its member and term, for the exec's confirmation page
-- and the confirmation email.
SELECT sqlc.embed(m), p.email, p.display_name, t.name AS term_name
FROM memberships m
JOIN profiles p ON p.id = m.profile_id
JOIN terms t ON t.id = m.term_id
WHERE m.id = $1;

-- name: MembershipList :many
-- A term's memberships, filtered by status and by a search of the member's
-- name or email; unpaid first, then by email.
SELECT sqlc.embed(m), p.email, p.display_name
FROM memberships m
JOIN profiles p ON p.id = m.profile_id
WHERE m.term_id = @term_id
  AND (sqlc.narg(status)::text IS NULL OR m.status = sqlc.narg(status)::text)
  AND (sqlc.narg(q)::text IS NULL
       OR p.email ILIKE '%' || sqlc.narg(q)::text || '%'
       OR p.display_name ILIKE '%' || sqlc.narg(q)::text || '%')
ORDER BY m.status DESC, p.email, m.id
LIMIT @page_size OFFSET @page_offset;

-- name: MembershipCount :one
SELECT count(*)
FROM memberships m
JOIN profiles p ON p.id = m.profile_id
WHERE m.term_id = @term_id
  AND (sqlc.narg(status)::text IS NULL OR m.status = sqlc.narg(status)::text)
  AND (sqlc.narg(q)::text IS NULL
       OR p.email ILIKE '%' || sqlc.narg(q)::text || '%'
       OR p.display_name ILIKE '%' || sqlc.narg(q)::text || '%');

-- name: MembershipGetByReceipt :one
SELECT * FROM memberships WHERE receipt_id = $1;

-- name: MembershipOfActiveTerm :one
-- A profile's membership of the active term, for the profile page.
SELECT m.* FROM memberships m JOIN terms t ON t.id = m.term_id AND t.active
WHERE m.profile_id = $1;
