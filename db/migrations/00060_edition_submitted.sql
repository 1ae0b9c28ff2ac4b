-- +goose Up
-- The number of submitted applications of each edition, kept by the
-- database as applications are inserted, submitted, moved or deleted.
-- The leaderboard's statistics read it instead of counting the edition's
-- applications: once reviews have touched every page of applications
-- (each review raises its application's review_count), no page is
-- all-visible and that count reads the whole table.
LOCK TABLE applications IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE hackathon_submitted (
    hackathon_id uuid PRIMARY KEY REFERENCES hackathons (id) ON DELETE CASCADE,
    n            bigint NOT NULL CHECK (n >= 0)
);
INSERT INTO hackathon_submitted (hackathon_id, n)
SELECT hackathon_id, count(*) FROM applications WHERE status = 'submitted' GROUP BY hackathon_id;

-- A row that enters or leaves 'submitted', or moves between editions.
-- +goose StatementBegin
CREATE FUNCTION hackathon_submitted_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    was boolean := OLD.status = 'submitted';
    now boolean := NEW.status = 'submitted';
BEGIN
    IF was AND (NOT now OR OLD.hackathon_id <> NEW.hackathon_id) THEN
        UPDATE hackathon_submitted SET n = n - 1 WHERE hackathon_id = OLD.hackathon_id;
    END IF;
    IF now AND (NOT was OR OLD.hackathon_id <> NEW.hackathon_id) THEN
        INSERT INTO hackathon_submitted AS h (hackathon_id, n) VALUES (NEW.hackathon_id, 1)
        ON CONFLICT (hackathon_id) DO UPDATE SET n = h.n + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER applications_submitted_rows
    AFTER UPDATE OF status, hackathon_id ON applications
    FOR EACH ROW EXECUTE FUNCTION hackathon_submitted_rows();

-- Inserts and deletes are counted once per statement from their rows (a
-- seed's COPY of 100,000 applications is one update per edition).
-- +goose StatementBegin
CREATE FUNCTION hackathon_submitted_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO hackathon_submitted AS h (hackathon_id, n)
    SELECT hackathon_id, count(*) FROM added WHERE status = 'submitted'
    GROUP BY hackathon_id ORDER BY hackathon_id
    ON CONFLICT (hackathon_id) DO UPDATE SET n = h.n + excluded.n;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER applications_submitted_inserted
    AFTER INSERT ON applications REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION hackathon_submitted_inserted();

-- +goose StatementBegin
CREATE FUNCTION hackathon_submitted_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hackathon_submitted h SET n = h.n - d.n
    FROM (SELECT hackathon_id, count(*) AS n FROM removed WHERE status = 'submitted'
          GROUP BY hackathon_id) d
    WHERE h.hackathon_id = d.hackathon_id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER applications_submitted_deleted
    AFTER DELETE ON applications REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION hackathon_submitted_deleted();

-- +goose Down
DROP TRIGGER applications_submitted_deleted ON applications;
DROP FUNCTION hackathon_submitted_deleted();
DROP TRIGGER applications_submitted_inserted ON applications;
DROP FUNCTION hackathon_submitted_inserted();
DROP TRIGGER applications_submitted_rows ON applications;
DROP FUNCTION hackathon_submitted_rows();
DROP TABLE hackathon_submitted;
