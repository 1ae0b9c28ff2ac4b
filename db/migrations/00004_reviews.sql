-- +goose Up
CREATE TABLE reviews (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    reviewer_id    uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    resume_score   integer NOT NULL CHECK (resume_score BETWEEN 0 AND 3),
    links_score    integer NOT NULL CHECK (links_score BETWEEN 0 AND 2),
    q1_score       integer NOT NULL CHECK (q1_score BETWEEN 0 AND 7),
    q2_score       integer NOT NULL CHECK (q2_score BETWEEN 0 AND 3),
    reviewed_at    timestamptz NOT NULL DEFAULT now(),
    -- Also the probe that excludes what a reviewer has already reviewed.
    UNIQUE (application_id, reviewer_id)
);
CREATE INDEX reviews_reviewer_idx ON reviews (reviewer_id);

-- Per-reviewer running totals: the leaderboard, statistics and reviewer
-- averages read these instead of scanning every review.
CREATE TABLE reviewer_stats (
    reviewer_id  uuid PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    review_count integer NOT NULL DEFAULT 0 CHECK (review_count >= 0),
    resume_sum   bigint NOT NULL DEFAULT 0,
    links_sum    bigint NOT NULL DEFAULT 0,
    q1_sum       bigint NOT NULL DEFAULT 0,
    q2_sum       bigint NOT NULL DEFAULT 0
);

-- The review queue walks submitted applications in (review_count, id) order.
CREATE INDEX applications_queue_idx ON applications (review_count, id) WHERE status = 'submitted';

-- applications.review_count and reviewer_stats follow the reviews table in
-- the same transaction as the insert or delete: the invariant lives here.
-- +goose StatementBegin
CREATE FUNCTION reviews_keep_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE applications SET review_count = review_count + 1 WHERE id = NEW.application_id;
        INSERT INTO reviewer_stats AS s (reviewer_id, review_count, resume_sum, links_sum, q1_sum, q2_sum)
        VALUES (NEW.reviewer_id, 1, NEW.resume_score, NEW.links_score, NEW.q1_score, NEW.q2_score)
        ON CONFLICT (reviewer_id) DO UPDATE SET
            review_count = s.review_count + 1,
            resume_sum = s.resume_sum + EXCLUDED.resume_sum,
            links_sum = s.links_sum + EXCLUDED.links_sum,
            q1_sum = s.q1_sum + EXCLUDED.q1_sum,
            q2_sum = s.q2_sum + EXCLUDED.q2_sum;
        RETURN NEW;
    END IF;
    UPDATE applications SET review_count = review_count - 1 WHERE id = OLD.application_id;
    UPDATE reviewer_stats SET
        review_count = review_count - 1,
        resume_sum = resume_sum - OLD.resume_score,
        links_sum = links_sum - OLD.links_score,
        q1_sum = q1_sum - OLD.q1_score,
        q2_sum = q2_sum - OLD.q2_score
    WHERE reviewer_id = OLD.reviewer_id;
    RETURN OLD;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER reviews_keep_counts AFTER INSERT OR DELETE ON reviews
    FOR EACH ROW EXECUTE FUNCTION reviews_keep_counts();
-- Scores are final: an update would bypass the running totals.
-- +goose StatementBegin
CREATE FUNCTION reviews_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'reviews cannot be changed' USING ERRCODE = 'check_violation';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER reviews_immutable BEFORE UPDATE ON reviews
    FOR EACH ROW EXECUTE FUNCTION reviews_immutable();

-- Hackathon decisions and RSVPs.
ALTER TABLE applications
    ADD COLUMN decision      text CHECK (decision IN ('offer', 'waitlist', 'reject')),
    ADD COLUMN decided_at    timestamptz,
    ADD COLUMN rsvp_deadline timestamptz,
    ADD COLUMN rsvp          text CHECK (rsvp IN ('attending', 'declined', 'expired')),
    ADD COLUMN rsvp_at       timestamptz,
    ADD CONSTRAINT applications_decision_submitted CHECK (decision IS NULL OR status = 'submitted'),
    ADD CONSTRAINT applications_decided_at CHECK ((decision IS NULL) = (decided_at IS NULL)),
    ADD CONSTRAINT applications_offer_deadline CHECK (decision IS DISTINCT FROM 'offer' OR rsvp_deadline IS NOT NULL),
    ADD CONSTRAINT applications_rsvp_needs_offer CHECK (rsvp IS NULL OR decision = 'offer'),
    ADD CONSTRAINT applications_rsvp_at CHECK ((rsvp IS NULL) = (rsvp_at IS NULL));
CREATE INDEX applications_rsvp_at_idx ON applications (rsvp_at) WHERE rsvp = 'attending';

-- The audit trail of decisions and RSVPs: who did what, when.
CREATE TABLE application_events (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    actor_id       uuid REFERENCES profiles (id) ON DELETE SET NULL, -- NULL: the system (deadline)
    kind           text NOT NULL CHECK (kind IN ('decision', 'rsvp', 'expired', 'reminded')),
    detail         jsonb NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX application_events_app_idx ON application_events (application_id, id);

-- +goose Down
DROP TABLE application_events;
ALTER TABLE applications
    DROP COLUMN decision, DROP COLUMN decided_at, DROP COLUMN rsvp_deadline,
    DROP COLUMN rsvp, DROP COLUMN rsvp_at;
DROP TRIGGER reviews_immutable ON reviews;
DROP FUNCTION reviews_immutable();
DROP TRIGGER reviews_keep_counts ON reviews;
DROP FUNCTION reviews_keep_counts();
DROP INDEX applications_queue_idx;
DROP TABLE reviewer_stats;
DROP TABLE reviews;
