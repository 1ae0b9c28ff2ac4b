-- +goose Up
-- Terms get their full record: dates, the onboarding and returning-exec
-- form windows, and the active flag. Existing rows are kept; the one that
-- starts last becomes the active term.
ALTER TABLE terms DROP CONSTRAINT terms_check;
ALTER TABLE terms ALTER COLUMN starts_at TYPE date USING (starts_at AT TIME ZONE 'UTC')::date;
ALTER TABLE terms ALTER COLUMN ends_at TYPE date USING (ends_at AT TIME ZONE 'UTC')::date;
ALTER TABLE terms RENAME COLUMN starts_at TO starts_on;
ALTER TABLE terms RENAME COLUMN ends_at TO ends_on;
UPDATE terms SET ends_on = starts_on + 1 WHERE ends_on <= starts_on;
ALTER TABLE terms
    ADD CONSTRAINT terms_dates_check CHECK (ends_on > starts_on),
    ADD COLUMN onboarding_opens_at  timestamptz,
    ADD COLUMN onboarding_closes_at timestamptz,
    ADD COLUMN returning_opens_at   timestamptz,
    ADD COLUMN returning_closes_at  timestamptz,
    ADD COLUMN active               boolean NOT NULL DEFAULT false,
    ADD COLUMN updated_at           timestamptz NOT NULL DEFAULT now(),
    -- A window is both times or neither, and opens before it closes.
    ADD CONSTRAINT terms_onboarding_window_check CHECK (
        (onboarding_opens_at IS NULL) = (onboarding_closes_at IS NULL)
        AND (onboarding_opens_at IS NULL OR onboarding_opens_at < onboarding_closes_at)),
    ADD CONSTRAINT terms_returning_window_check CHECK (
        (returning_opens_at IS NULL) = (returning_closes_at IS NULL)
        AND (returning_opens_at IS NULL OR returning_opens_at < returning_closes_at));
-- At most one active term.
CREATE UNIQUE INDEX terms_one_active_idx ON terms ((true)) WHERE active;
UPDATE terms SET active = true
WHERE id = (SELECT id FROM terms ORDER BY starts_on DESC, created_at DESC LIMIT 1);

-- Exec is the third exec position (a hire of an "exec" position).
ALTER TABLE exec_roles DROP CONSTRAINT exec_roles_position_check;
ALTER TABLE exec_roles ADD CONSTRAINT exec_roles_position_check CHECK (position IN ('President', 'VP', 'Exec'));
ALTER TABLE exec_roles ADD COLUMN ended_at timestamptz;
CREATE INDEX exec_roles_term_idx ON exec_roles (term_id) WHERE active;

CREATE TABLE positions (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    term_id     uuid NOT NULL REFERENCES terms (id),
    title       text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    subteam     text NOT NULL CHECK (length(subteam) BETWEEN 1 AND 100),
    -- What a hire gets at finalization: admin plus this exec role.
    grants      text NOT NULL CHECK (grants IN ('president', 'vp', 'exec')),
    description text NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
    open        boolean NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (id, term_id)
);
CREATE INDEX positions_term_idx ON positions (term_id, subteam, title);

-- The positions an applicant chose (at most three, of one term); they
-- become selections on submission.
ALTER TABLE applications ADD COLUMN position_ids uuid[] NOT NULL DEFAULT '{}'
    CHECK (cardinality(position_ids) <= 3);

CREATE TABLE selections (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    position_id    uuid NOT NULL,
    term_id        uuid NOT NULL,
    status         text NOT NULL DEFAULT 'in_review' CHECK (status IN (
                       'in_review', 'interviewing', 'wanted', 'not_wanted',
                       'offer_sent', 'accepted_offer', 'declined_offer', 'rejection_sent')),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    updated_by     uuid REFERENCES profiles (id) ON DELETE SET NULL,
    UNIQUE (application_id, position_id),
    -- The term is the position's (copied so the rule below can index it).
    FOREIGN KEY (position_id, term_id) REFERENCES positions (id, term_id)
);
-- One accepted offer per person (an application is one person's) and term.
CREATE UNIQUE INDEX selections_one_accepted_idx ON selections (application_id, term_id)
    WHERE status = 'accepted_offer';
CREATE INDEX selections_position_idx ON selections (position_id, status);
CREATE INDEX selections_term_idx ON selections (term_id, status);

-- Every status change of a selection.
CREATE TABLE selection_events (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    selection_id uuid NOT NULL REFERENCES selections (id) ON DELETE CASCADE,
    actor_id     uuid REFERENCES profiles (id) ON DELETE SET NULL,
    from_status  text NOT NULL,
    to_status    text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX selection_events_selection_idx ON selection_events (selection_id, id);

-- One finalization per term: who asked, and its outcome once recorded.
CREATE TABLE hiring_finalizations (
    term_id       uuid PRIMARY KEY REFERENCES terms (id),
    workflow_id   text NOT NULL,
    all_hands_url text NOT NULL CHECK (all_hands_url LIKE 'https://%'),
    requested_by  uuid REFERENCES profiles (id) ON DELETE SET NULL,
    requested_at  timestamptz NOT NULL DEFAULT now(),
    finalized_at  timestamptz,
    promoted      integer CHECK (promoted >= 0),
    demoted       integer CHECK (demoted >= 0),
    welcomed      integer CHECK (welcomed >= 0)
);

-- +goose Down
DROP TABLE hiring_finalizations;
DROP TABLE selection_events;
DROP TABLE selections;
ALTER TABLE applications DROP COLUMN position_ids;
DROP TABLE positions;
DROP INDEX exec_roles_term_idx;
ALTER TABLE exec_roles DROP COLUMN ended_at;
DELETE FROM exec_roles WHERE position = 'Exec';
ALTER TABLE exec_roles DROP CONSTRAINT exec_roles_position_check;
ALTER TABLE exec_roles ADD CONSTRAINT exec_roles_position_check CHECK (position IN ('President', 'VP'));
DROP INDEX terms_one_active_idx;
ALTER TABLE terms
    DROP CONSTRAINT terms_onboarding_window_check,
    DROP CONSTRAINT terms_returning_window_check,
    DROP CONSTRAINT terms_dates_check,
    DROP COLUMN onboarding_opens_at,
    DROP COLUMN onboarding_closes_at,
    DROP COLUMN returning_opens_at,
    DROP COLUMN returning_closes_at,
    DROP COLUMN active,
    DROP COLUMN updated_at;
ALTER TABLE terms RENAME COLUMN starts_on TO starts_at;
ALTER TABLE terms RENAME COLUMN ends_on TO ends_at;
ALTER TABLE terms ALTER COLUMN starts_at TYPE timestamptz USING starts_at::timestamp AT TIME ZONE 'UTC';
ALTER TABLE terms ALTER COLUMN ends_at TYPE timestamptz USING ends_at::timestamp AT TIME ZONE 'UTC';
ALTER TABLE terms ADD CONSTRAINT terms_check CHECK (ends_at > starts_at);
