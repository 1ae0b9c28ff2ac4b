-- +goose Up
-- Every email the service sends is recorded here before it is sent; the
-- idempotency key makes a retried send a no-op.
CREATE TABLE emails (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    idempotency_key text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 300),
    kind            text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_.-]*$'),
    to_address      text NOT NULL CHECK (to_address LIKE '_%@_%'),
    subject         text NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
    text_body       text NOT NULL,
    html_body       text NOT NULL DEFAULT '',
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    provider_id     text,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);

CREATE INDEX emails_to_created_idx ON emails (lower(to_address), created_at DESC);
CREATE INDEX emails_kind_created_idx ON emails (kind, created_at DESC);
CREATE INDEX emails_created_idx ON emails (created_at DESC, id DESC);

-- +goose Down
DROP TABLE emails;
