-- +goose Up
-- The review queue's count for one reviewer (how many applications are
-- left) is the edition's queue size less the applications that reviewer
-- may not review. Both parts are read without reading the edition.

-- The applications whose team list names the reviewer are found through
-- this index instead of reading every team list of the edition: the same
-- list team_lists_email reads (lowercased, spaces removed, split on
-- commas), so `team_emails(team_members) @> ARRAY[lower(email)]` holds
-- exactly when team_lists_email(team_members, email) does, for a
-- non-empty email without a comma.
-- +goose StatementBegin
CREATE FUNCTION team_emails(team_members text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT string_to_array(replace(lower(team_members), ' ', ''), ',')
$$;
-- +goose StatementEnd
CREATE INDEX applications_team_emails_idx ON applications USING gin (team_emails(team_members))
    WHERE status = 'submitted';

-- A reviewer's reviews of erased applications (the count of what is left
-- subtracts them from the reviewer's counter) are found from this index's
-- few rows.
CREATE INDEX applications_erased_idx ON applications (hackathon_id, id) WHERE erased_at IS NOT NULL;

-- The queue's size changes only when an application enters or leaves the
-- queue (submitted, erased, moved, deleted), its review count crosses the
-- review cap, or the cap changes. Each such change raises this
-- generation, so an API process may keep the size it counted while the
-- generation it read with it stands (review.QueueSizes). Reviews that
-- cross no cap change nothing here.
CREATE TABLE queue_generation (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    n  bigint NOT NULL
);
INSERT INTO queue_generation (id, n) VALUES (true, 0);

-- +goose StatementBegin
CREATE FUNCTION queue_generation_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    was boolean := OLD.status = 'submitted' AND OLD.erased_at IS NULL;
    now boolean := NEW.status = 'submitted' AND NEW.erased_at IS NULL;
    cap integer;
BEGIN
    IF was <> now OR (now AND OLD.hackathon_id <> NEW.hackathon_id) THEN
        UPDATE queue_generation SET n = n + 1;
    ELSIF now AND OLD.review_count <> NEW.review_count THEN
        SELECT s.cap INTO cap FROM review_settings s;
        IF cap IS NOT NULL AND (OLD.review_count < cap) <> (NEW.review_count < cap) THEN
            UPDATE queue_generation SET n = n + 1;
        END IF;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER applications_queue_generation_rows
    AFTER UPDATE OF status, erased_at, hackathon_id, review_count ON applications
    FOR EACH ROW EXECUTE FUNCTION queue_generation_rows();

-- Inserts and deletes (a seed's COPY of 100,000 rows included) raise it
-- once per statement.
-- +goose StatementBegin
CREATE FUNCTION queue_generation_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE queue_generation SET n = n + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER applications_queue_generation_statement
    AFTER INSERT OR DELETE ON applications
    FOR EACH STATEMENT EXECUTE FUNCTION queue_generation_statement();
-- A change of the cap changes every size, and the crossings of a cap that
-- was not set were not counted: it raises the generation too.
CREATE TRIGGER review_settings_queue_generation
    AFTER UPDATE OF cap ON review_settings
    FOR EACH STATEMENT EXECUTE FUNCTION queue_generation_statement();

-- +goose Down
DROP TRIGGER review_settings_queue_generation ON review_settings;
DROP TRIGGER applications_queue_generation_statement ON applications;
DROP FUNCTION queue_generation_statement();
DROP TRIGGER applications_queue_generation_rows ON applications;
DROP FUNCTION queue_generation_rows();
DROP TABLE queue_generation;
DROP INDEX applications_erased_idx;
DROP INDEX applications_team_emails_idx;
DROP FUNCTION team_emails(text);
