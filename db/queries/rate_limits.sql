-- name: RateLimitTake :one
-- Counts one request under key in the current window of window_seconds
-- (aligned to the epoch, on the database's clock, so every replica agrees)
-- unless the sliding estimate (the previous window's count weighted by how
-- much of it still overlaps the last window_seconds, plus this window's)
-- has reached max_count; then nothing is counted and no row comes back.
-- The conflict branch re-checks the locked row, so concurrent requests on
-- any replica never count past max_count.
WITH w AS (
    SELECT to_timestamp(floor(extract(epoch FROM now()) / @window_seconds::float8) * @window_seconds::float8) AS start
), p AS (
    SELECT w.start,
           round((coalesce((SELECT h.count FROM rate_limit_hits h
                   WHERE h.key = @key AND h.window_start = w.start - make_interval(secs => @window_seconds::float8)), 0)
                  * (1 - extract(epoch FROM now() - w.start)::float8 / @window_seconds::float8))::numeric)::int AS prev
    FROM w
)
INSERT INTO rate_limit_hits AS h (key, window_start, count, expires_at)
SELECT @key, p.start, 1, p.start + make_interval(secs => 2 * @window_seconds::float8) FROM p
WHERE p.prev + 1 <= @max_count::int
ON CONFLICT (key, window_start) DO UPDATE SET count = h.count + 1
WHERE (SELECT p.prev FROM p) + h.count + 1 <= @max_count::int
RETURNING h.count;

-- name: RateLimitAdd :exec
-- Counts amount events under key in the current window, whatever the
-- total (failures that are counted after the answer was decided, the
-- accounts a search listed).
INSERT INTO rate_limit_hits AS h (key, window_start, count, expires_at)
SELECT @key, w.start, @amount::int, w.start + make_interval(secs => 2 * @window_seconds::float8)
FROM (SELECT to_timestamp(floor(extract(epoch FROM now()) / @window_seconds::float8) * @window_seconds::float8) AS start) w
ON CONFLICT (key, window_start) DO UPDATE SET count = h.count + @amount::int;

-- name: RateLimitCounts :one
-- What the sliding estimate is made of, on the database's clock: key's
-- count in the previous and the current window of window_seconds, and how
-- many seconds of the current window have passed.
WITH w AS (
    SELECT to_timestamp(floor(extract(epoch FROM now()) / @window_seconds::float8) * @window_seconds::float8) AS start
)
SELECT coalesce((SELECT h.count FROM rate_limit_hits h
                 WHERE h.key = @key AND h.window_start = w.start - make_interval(secs => @window_seconds::float8)), 0)::int AS previous,
       coalesce((SELECT h.count FROM rate_limit_hits h WHERE h.key = @key AND h.window_start = w.start), 0)::int AS current,
       extract(epoch FROM now() - w.start)::float8 AS elapsed
FROM w;

-- name: RateLimitEstimate :one
-- The sliding estimate RateLimitTake compares with its maximum, without
-- counting anything.
WITH w AS (
    SELECT to_timestamp(floor(extract(epoch FROM now()) / @window_seconds::float8) * @window_seconds::float8) AS start
)
SELECT (coalesce((SELECT h.count FROM rate_limit_hits h
           WHERE h.key = @key AND h.window_start = w.start - make_interval(secs => @window_seconds::float8)), 0)
          * (1 - extract(epoch FROM now() - w.start)::float8 / @window_seconds::float8)
        + coalesce((SELECT h.count FROM rate_limit_hits h WHERE h.key = @key AND h.window_start = w.start), 0))::float8 AS estimate
FROM w;

-- name: RateLimitDeleteExpired :execrows
-- Counters whose window has ended, at most @batch_size a call (the sweep
-- deletes in short statements).
DELETE FROM rate_limit_hits h
USING (SELECT o.key, o.window_start FROM rate_limit_hits o WHERE o.expires_at < now() LIMIT @batch_size) old
WHERE h.key = old.key AND h.window_start = old.window_start AND h.expires_at < now();
