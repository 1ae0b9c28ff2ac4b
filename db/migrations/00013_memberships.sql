-- +goose Up
-- Shop receipts that arrived through the inbound-email webhook. The raw
-- email is stored first, unique by its SHA-256, so a replayed post finds
-- its row; the rest is filled in as the receipt is verified and processed.
--   received   stored, not yet verified (a crash here is healed by the
--              provider's retry, which finds the row and carries on)
--   processing verified and its transaction claimed; ReceiptProcessing runs
--   processed  the membership is paid
--   parked     kept for an admin: unparsable, unknown email or term, short
--   rejected   the sender or its DKIM signature failed (never processed)
--   duplicate  another copy of a transaction already claimed
CREATE TABLE receipts (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    body_sha256    bytea NOT NULL UNIQUE CHECK (length(body_sha256) = 32),
    raw            bytea NOT NULL,
    status         text NOT NULL DEFAULT 'received'
                   CHECK (status IN ('received', 'processing', 'processed', 'parked', 'rejected', 'duplicate')),
    reason         text NOT NULL DEFAULT '',
    shop_domain    text NOT NULL DEFAULT '',
    transaction_id text NOT NULL DEFAULT '',
    order_number   text NOT NULL DEFAULT '',
    customer_email text NOT NULL DEFAULT '',
    amount_cents   bigint CHECK (amount_cents >= 0),
    term_name      text NOT NULL DEFAULT '',
    workflow_id    text,
    -- The admin who matched a parked receipt to an account.
    matched_by     uuid REFERENCES profiles (id),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    -- A receipt being processed or done has its transaction.
    CHECK (status IN ('received', 'rejected', 'parked') OR transaction_id <> '')
);
CREATE INDEX receipts_status_idx ON receipts (status, created_at DESC, id);

-- Each shop transaction is claimed by one receipt: a second copy of the
-- same receipt (another post, another token) finds it taken.
CREATE TABLE receipt_transactions (
    shop_domain    text NOT NULL,
    transaction_id text NOT NULL,
    receipt_id     uuid NOT NULL UNIQUE REFERENCES receipts (id),
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (shop_domain, transaction_id)
);

-- Webhook tokens are single-use: a token seen again with the same email is
-- a replay (answered as before), with another email it is refused.
CREATE TABLE webhook_tokens (
    token       text PRIMARY KEY CHECK (length(token) BETWEEN 1 AND 200),
    body_sha256 bytea NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_tokens_received_idx ON webhook_tokens (received_at);

-- A member's dues for one term. Paid once: by an exec in person (cash,
-- etransfer, card) or by a shop receipt.
CREATE TABLE memberships (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    profile_id   uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    term_id      uuid NOT NULL REFERENCES terms (id),
    status       text NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'paid')),
    amount_cents bigint CHECK (amount_cents >= 0),
    method       text CHECK (method IN ('cash', 'etransfer', 'card', 'shop')),
    paid_at      timestamptz,
    confirmed_by uuid REFERENCES profiles (id),
    receipt_id   uuid UNIQUE REFERENCES receipts (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (profile_id, term_id),
    -- Paid means how, how much and when are known; unpaid means none is.
    CHECK ((status = 'paid') = (method IS NOT NULL AND amount_cents IS NOT NULL AND paid_at IS NOT NULL)),
    CHECK (status = 'paid' OR (confirmed_by IS NULL AND receipt_id IS NULL)),
    -- A shop payment names its receipt; a payment in person names the exec.
    CHECK (method IS DISTINCT FROM 'shop' OR receipt_id IS NOT NULL),
    CHECK (method IS NULL OR method = 'shop' OR confirmed_by IS NOT NULL)
);
CREATE INDEX memberships_term_idx ON memberships (term_id, status);

-- +goose Down
DROP TABLE memberships;
DROP TABLE webhook_tokens;
DROP TABLE receipt_transactions;
DROP TABLE receipts;
