-- name: AdminApplicationList :many
-- The admin applications table: one row per application with the
-- applicant's name, filtered by status and a case-insensitive substring of
-- the shown email or name (the caller passes an escaped, lowercased LIKE
-- pattern), sorted by one whitelisted column. Text columns sort
-- case-insensitively with empty values last in both directions; ties are
-- broken by id in the same direction, so pages are stable. Only one CASE
-- line is non-NULL for a given (sort, order_dir); the others are constant
-- and do not affect the order.
SELECT a.id,
       p.display_name AS name,
       coalesce(a.email, p.email)::text AS email,
       a.university,
       a.gender,
       a.review_count,
       a.status,
       a.decision,
       a.rsvp,
       a.created_at,
       a.submitted_at
FROM applications a
JOIN profiles p ON p.id = a.profile_id
WHERE (sqlc.narg('status')::text IS NULL OR a.status = sqlc.narg('status')::text)
  AND (sqlc.narg('pattern')::text IS NULL
       OR lower(coalesce(a.email, p.email)) LIKE sqlc.narg('pattern')::text
       OR lower(p.display_name) LIKE sqlc.narg('pattern')::text)
ORDER BY
    CASE WHEN @sort::text = 'name' AND @order_dir::text = 'asc' THEN lower(p.display_name) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'name' AND @order_dir::text = 'desc' THEN lower(p.display_name) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'email' AND @order_dir::text = 'asc' THEN lower(coalesce(a.email, p.email)) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'email' AND @order_dir::text = 'desc' THEN lower(coalesce(a.email, p.email)) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'university' AND @order_dir::text = 'asc' THEN lower(a.university) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'university' AND @order_dir::text = 'desc' THEN lower(a.university) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'gender' AND @order_dir::text = 'asc' THEN lower(a.gender) END ASC NULLS LAST,
    CASE WHEN @sort::text = 'gender' AND @order_dir::text = 'desc' THEN lower(a.gender) END DESC NULLS LAST,
    CASE WHEN @sort::text = 'reviews' AND @order_dir::text = 'asc' THEN a.review_count END ASC,
    CASE WHEN @sort::text = 'reviews' AND @order_dir::text = 'desc' THEN a.review_count END DESC,
    CASE WHEN @sort::text = 'created_at' AND @order_dir::text = 'asc' THEN a.created_at END ASC,
    CASE WHEN @sort::text = 'created_at' AND @order_dir::text = 'desc' THEN a.created_at END DESC,
    CASE WHEN @order_dir::text = 'asc' THEN a.id END ASC,
    CASE WHEN @order_dir::text = 'desc' THEN a.id END DESC
LIMIT @page_limit OFFSET @page_offset;

-- name: AdminApplicationCount :one
-- The number of rows AdminApplicationList pages through.
SELECT count(*) FROM applications a
JOIN profiles p ON p.id = a.profile_id
WHERE (sqlc.narg('status')::text IS NULL OR a.status = sqlc.narg('status')::text)
  AND (sqlc.narg('pattern')::text IS NULL
       OR lower(coalesce(a.email, p.email)) LIKE sqlc.narg('pattern')::text
       OR lower(p.display_name) LIKE sqlc.narg('pattern')::text);
