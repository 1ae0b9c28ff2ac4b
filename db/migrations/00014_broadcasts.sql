-- +goose Up
-- Whether a person accepts marketing email: set from their application's
-- opt-in when it is submitted, cleared by a one-click unsubscribe.
ALTER TABLE profiles ADD COLUMN marketing_opt_in boolean NOT NULL DEFAULT false;
UPDATE profiles p SET marketing_opt_in = true
FROM applications a
WHERE a.profile_id = p.id AND a.status = 'submitted' AND a.marketing_opt_in;

-- An email a superadmin sends to an audience. The counts stay after the
-- broadcast ends; its recipient list does not.
CREATE TABLE broadcasts (
    id                  uuid PRIMARY KEY,
    subject             text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200 AND subject !~ '[[:cntrl:]]'),
    body                text NOT NULL CHECK (length(body) BETWEEN 1 AND 50000),
    audience_kind       text NOT NULL CHECK (audience_kind IN ('members', 'paid_members', 'execs', 'applicants')),
    term_id             uuid REFERENCES terms (id),
    -- Applicants only: the decision they are filtered by ('none': undecided).
    decision            text CHECK (decision IN ('offer', 'waitlist', 'reject', 'none')),
    marketing           boolean NOT NULL,
    status              text NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'done', 'cancelled')),
    total               integer NOT NULL CHECK (total >= 0),
    sent                integer NOT NULL DEFAULT 0 CHECK (sent >= 0),
    failed              integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
    workflow_id         text NOT NULL UNIQUE,
    created_by          uuid NOT NULL REFERENCES profiles (id),
    created_at          timestamptz NOT NULL DEFAULT now(),
    cancel_requested_at timestamptz,
    finished_at         timestamptz,
    CHECK (sent + failed <= total),
    CHECK ((status = 'sending') = (finished_at IS NULL)),
    CHECK ((audience_kind IN ('members', 'paid_members')) = (term_id IS NOT NULL)),
    CHECK (decision IS NULL OR audience_kind = 'applicants')
);
CREATE INDEX broadcasts_created_idx ON broadcasts (created_at DESC, id DESC);

-- Who a broadcast goes to, fixed when it is created: one row per person
-- (confirmed accounts only), numbered 1..total in sending order so the
-- workflow can hand out batches as ranges. Deleted when the broadcast ends.
CREATE TABLE broadcast_recipients (
    broadcast_id uuid NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    seq          integer NOT NULL CHECK (seq >= 1),
    profile_id   uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    email        text NOT NULL,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    PRIMARY KEY (broadcast_id, seq),
    UNIQUE (broadcast_id, profile_id)
);

-- +goose Down
DROP TABLE broadcast_recipients;
DROP TABLE broadcasts;
ALTER TABLE profiles DROP COLUMN marketing_opt_in;
