-- +goose Up
-- Rate-limit counters shared by every API replica (api/ratelimit.go): one
-- row per limit key and fixed window. The limiter weighs the previous
-- window in, so the limit slides. Keys carry the limit's name and window
-- and a hash of the client key (an IP address, an email), never the
-- address itself. Rows past expires_at are deleted lazily by the API.
-- UNLOGGED: a counter is worth nothing after a crash, and skipping the WAL
-- keeps a login's extra write off the commit path.
CREATE UNLOGGED TABLE rate_limit_hits (
    key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    window_start timestamptz NOT NULL,
    count        integer NOT NULL CHECK (count > 0),
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_hits_expires_idx ON rate_limit_hits (expires_at);

-- +goose Down
DROP TABLE rate_limit_hits;
