-- The admin dashboard's report (GET /api/admin/dashboard). Every other
-- query file is named for the table its queries write or mainly read; this
-- one is named for the report: read-only queries that belong together.
-- (The lone semicolon below ends this header, so that sqlc does not take it
-- for the first query's doc comment.)
;

-- name: DashboardCounts :one
-- One edition's funnel. Every application falls in exactly one breakdown bucket. An offer past its
-- deadline without an answer counts as expired even before the RsvpDeadline
-- workflow has marked it.
SELECT
    count(*) FILTER (WHERE status = 'submitted')::bigint AS applications,
    count(*) FILTER (WHERE decision = 'offer')::bigint AS offers,
    count(*) FILTER (WHERE rsvp = 'attending')::bigint AS attending,
    count(*) FILTER (WHERE rsvp = 'declined')::bigint AS declined,
    count(*) FILTER (WHERE status = 'draft')::bigint AS draft,
    count(*) FILTER (WHERE status = 'submitted' AND decision IS NULL)::bigint AS undecided,
    count(*) FILTER (WHERE decision = 'offer' AND rsvp IS NULL AND now() < rsvp_deadline)::bigint AS offer_open,
    count(*) FILTER (WHERE decision = 'waitlist')::bigint AS waitlist,
    count(*) FILTER (WHERE decision = 'reject')::bigint AS reject,
    count(*) FILTER (WHERE rsvp = 'expired'
                        OR (decision = 'offer' AND rsvp IS NULL AND now() >= rsvp_deadline))::bigint AS expired
FROM applications
WHERE hackathon_id = @hackathon_id;

-- name: DashboardRsvpTimeline :many
-- One edition's attending RSVPs per UTC hour (hours = 1) or UTC day (hours = 24) by
-- rsvp_at, every bucket from the first answer's to the last one's, empty
-- buckets included; no rows when nobody is attending.
WITH answers AS (
    SELECT date_trunc(CASE WHEN @hours::int = 1 THEN 'hour' ELSE 'day' END, rsvp_at AT TIME ZONE 'UTC') AS bucket
    FROM applications
    WHERE hackathon_id = @hackathon_id AND rsvp = 'attending'
), bounds AS (
    SELECT min(bucket) AS lo, max(bucket) AS hi FROM answers
), buckets AS (
    SELECT s.bucket
    FROM bounds, generate_series(bounds.lo, bounds.hi, make_interval(hours => @hours::int)) AS s(bucket)
)
SELECT (b.bucket AT TIME ZONE 'UTC')::timestamptz AS bucket, count(a.bucket)::bigint AS count
FROM buckets b
LEFT JOIN answers a ON a.bucket = b.bucket
GROUP BY b.bucket
ORDER BY b.bucket;
