-- name: IdempotencyKeyClaim :execrows
-- Claims a key for a request in its transaction. A concurrent request with
-- the same key waits here until the first commits or rolls back; 0 rows
-- means the key was already used (read it with IdempotencyKeyGet).
INSERT INTO idempotency_keys (actor_id, route, key, request_hash)
VALUES (@actor_id, @route, @key, @request_hash)
ON CONFLICT DO NOTHING;

-- name: IdempotencyKeyGet :one
SELECT * FROM idempotency_keys WHERE actor_id = @actor_id AND route = @route AND key = @key;

-- name: IdempotencyKeyStore :exec
UPDATE idempotency_keys SET status = @status, response = @response
WHERE actor_id = @actor_id AND route = @route AND key = @key;

-- name: IdempotencyKeysPrune :execrows
-- Keys are honoured for a while (see api/idempotency.go); older ones go, at
-- most @batch_size a call (the sweep deletes in short statements).
DELETE FROM idempotency_keys k
USING (SELECT o.actor_id, o.route, o.key FROM idempotency_keys o WHERE o.created_at < sqlc.arg(before)::timestamptz LIMIT @batch_size) old
WHERE k.actor_id = old.actor_id AND k.route = old.route AND k.key = old.key;

-- name: IdempotencyKeysDeleteForActor :execrows
-- An erasure: the stored answers of the person's requests go.
DELETE FROM idempotency_keys WHERE actor_id = $1;
