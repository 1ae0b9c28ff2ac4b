-- +goose Up
-- Event day: an edition's venue and its optional waiver and feedback
-- links; the RSVP's accepted waiver; the check-in at the door (when, by
-- whom, and the client_id of the tap that made it, so a replayed tap
-- answers as the first did); the edition's volunteers, who may check
-- people in and nothing else.
ALTER TABLE hackathons
    ADD COLUMN venue        text CHECK (venue IS NULL OR length(venue) BETWEEN 1 AND 300),
    ADD COLUMN waiver_url   text CHECK (waiver_url IS NULL OR length(waiver_url) BETWEEN 1 AND 300),
    ADD COLUMN feedback_url text CHECK (feedback_url IS NULL OR length(feedback_url) BETWEEN 1 AND 300);

ALTER TABLE applications
    ADD COLUMN waiver_accepted_at timestamptz,
    ADD COLUMN checked_in_at      timestamptz,
    ADD COLUMN checked_in_by      uuid REFERENCES profiles (id) ON DELETE SET NULL,
    ADD COLUMN checkin_client_id  uuid,
    -- Only someone attending is checked in; the client id goes with it.
    ADD CONSTRAINT applications_checkin_attending CHECK (checked_in_at IS NULL OR rsvp = 'attending'),
    ADD CONSTRAINT applications_checkin_client CHECK (checkin_client_id IS NULL OR checked_in_at IS NOT NULL);
-- The door's count (checked in of attending) and the attendance list.
CREATE INDEX applications_checked_in_idx ON applications (hackathon_id, checked_in_at) WHERE checked_in_at IS NOT NULL;

CREATE TABLE hackathon_volunteers (
    hackathon_id uuid NOT NULL REFERENCES hackathons (id) ON DELETE CASCADE,
    profile_id   uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    added_by     uuid REFERENCES profiles (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (profile_id, hackathon_id)
);
CREATE INDEX hackathon_volunteers_hackathon_idx ON hackathon_volunteers (hackathon_id, created_at);

ALTER TABLE application_events DROP CONSTRAINT application_events_kind_check,
    ADD CONSTRAINT application_events_kind_check
        CHECK (kind IN ('decision', 'rsvp', 'expired', 'reminded', 'checkin', 'checkin_undone', 'walk_in'));

-- +goose Down
DELETE FROM application_events WHERE kind IN ('checkin', 'checkin_undone', 'walk_in');
ALTER TABLE application_events DROP CONSTRAINT application_events_kind_check,
    ADD CONSTRAINT application_events_kind_check CHECK (kind IN ('decision', 'rsvp', 'expired', 'reminded'));
DROP TABLE hackathon_volunteers;
DROP INDEX applications_checked_in_idx;
ALTER TABLE applications
    DROP COLUMN waiver_accepted_at, DROP COLUMN checked_in_at, DROP COLUMN checked_in_by, DROP COLUMN checkin_client_id;
ALTER TABLE hackathons DROP COLUMN venue, DROP COLUMN waiver_url, DROP COLUMN feedback_url;
