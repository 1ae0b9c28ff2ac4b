-- +goose Up
-- The outbox: a request that must start (or signal) a workflow writes one
-- row here in its own transaction; the dispatcher starts it after the
-- commit. A row is pending until started_at is set.
CREATE TABLE workflow_starts (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workflow_id     text NOT NULL CHECK (length(workflow_id) BETWEEN 1 AND 1000),
    type            text NOT NULL CHECK (type ~ '^[A-Za-z][A-Za-z0-9]*$'),
    -- NULL: the dispatcher's own task queue (TEMPORAL_TASK_QUEUE).
    task_queue      text CHECK (task_queue <> ''),
    input           jsonb NOT NULL,
    -- Set for a signal-with-start: the signal and its argument.
    signal          text CHECK (signal <> ''),
    signal_input    jsonb,
    -- What the Temporal UI shows: the search attributes HackdeskKind and
    -- HackdeskSubject and the static summary.
    kind            text NOT NULL CHECK (kind ~ '^[a-z]+$'),
    subject         text NOT NULL,
    summary         text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error      text,
    started_at      timestamptz,
    run_id          text,
    CHECK ((signal IS NULL) = (signal_input IS NULL)),
    CHECK ((started_at IS NULL) = (run_id IS NULL))
);

-- A workflow is started at most once from the outbox; signals may repeat.
CREATE UNIQUE INDEX workflow_starts_start_once ON workflow_starts (workflow_id) WHERE signal IS NULL;
-- The dispatcher's scan: pending rows in due order.
CREATE INDEX workflow_starts_pending ON workflow_starts (next_attempt_at, id) WHERE started_at IS NULL;

-- Every insert wakes the dispatchers once the transaction commits (NOTIFY
-- is delivered on commit, and not at all on rollback).
-- +goose StatementBegin
CREATE FUNCTION workflow_starts_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('workflow_starts', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER workflow_starts_notify AFTER INSERT ON workflow_starts
    FOR EACH STATEMENT EXECUTE FUNCTION workflow_starts_notify();

-- A retried request with the same Idempotency-Key gets the stored answer.
CREATE TABLE idempotency_keys (
    actor_id     uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    route        text NOT NULL,
    key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    request_hash bytea NOT NULL CHECK (length(request_hash) = 32),
    status       integer CHECK (status BETWEEN 200 AND 299),
    response     jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (actor_id, route, key),
    CHECK ((status IS NULL) = (response IS NULL))
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE workflow_starts;
DROP FUNCTION workflow_starts_notify();
