-- +goose Up
-- The review page's helpers: a private note kept with a review (read by
-- superadmins in the application's details; personal data, blanked by
-- retention and erasure), the rubric shown under each score (what a 0 and
-- the top score mean, edited with the review settings) and each
-- reviewer's skips (their skipped applications come after every other
-- one, for them only).
ALTER TABLE reviews ADD COLUMN note text
    CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 2000);

ALTER TABLE review_settings
    ADD COLUMN rubric_resume_low text NOT NULL DEFAULT 'No résumé, or nothing relevant to building things'
        CHECK (char_length(rubric_resume_low) BETWEEN 1 AND 200),
    ADD COLUMN rubric_resume_high text NOT NULL DEFAULT 'Strong projects or experience, clearly described'
        CHECK (char_length(rubric_resume_high) BETWEEN 1 AND 200),
    ADD COLUMN rubric_links_low text NOT NULL DEFAULT 'No links, or links that show nothing'
        CHECK (char_length(rubric_links_low) BETWEEN 1 AND 200),
    ADD COLUMN rubric_links_high text NOT NULL DEFAULT 'Links that show real, recent work'
        CHECK (char_length(rubric_links_high) BETWEEN 1 AND 200),
    ADD COLUMN rubric_q1_low text NOT NULL DEFAULT 'Blank, off topic or copied'
        CHECK (char_length(rubric_q1_low) BETWEEN 1 AND 200),
    ADD COLUMN rubric_q1_high text NOT NULL DEFAULT 'Specific, thoughtful and personal; a clear reason to come'
        CHECK (char_length(rubric_q1_high) BETWEEN 1 AND 200),
    ADD COLUMN rubric_q2_low text NOT NULL DEFAULT 'Blank, off topic or copied'
        CHECK (char_length(rubric_q2_low) BETWEEN 1 AND 200),
    ADD COLUMN rubric_q2_high text NOT NULL DEFAULT 'A specific, well-explained answer'
        CHECK (char_length(rubric_q2_high) BETWEEN 1 AND 200);

-- Scores stay final; the one change a review takes is its note blanked
-- (retention, erasure).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION reviews_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.note IS NULL AND (to_jsonb(NEW) - 'note') = (to_jsonb(OLD) - 'note') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'reviews cannot be changed' USING ERRCODE = 'check_violation';
END;
$$;
-- +goose StatementEnd

CREATE TABLE review_skips (
    reviewer_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    -- How many times the reviewer skipped it: the queue orders their
    -- skipped ones by it, so skipping a skipped one moves on to the next.
    skips integer NOT NULL DEFAULT 1 CHECK (skips >= 1),
    skipped_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reviewer_id, application_id)
);
CREATE INDEX review_skips_application_idx ON review_skips (application_id);

-- +goose Down
DROP TABLE review_skips;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION reviews_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'reviews cannot be changed' USING ERRCODE = 'check_violation';
END;
$$;
-- +goose StatementEnd
ALTER TABLE review_settings
    DROP COLUMN rubric_resume_low, DROP COLUMN rubric_resume_high,
    DROP COLUMN rubric_links_low, DROP COLUMN rubric_links_high,
    DROP COLUMN rubric_q1_low, DROP COLUMN rubric_q1_high,
    DROP COLUMN rubric_q2_low, DROP COLUMN rubric_q2_high;
ALTER TABLE reviews DROP COLUMN note;
