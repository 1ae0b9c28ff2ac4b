-- +goose Up
-- Hackathon editions. The club runs its hackathon every year: each
-- edition has its own applications, application window, reviews and
-- decisions, and exactly one edition is current (the one the applicant
-- routes and the review queue act on). Every application written before
-- editions existed goes into one current edition, open since the earliest
-- of them (or since now) with no close date, so nothing that worked stops.
CREATE TABLE hackathons (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 100 AND name = btrim(name)),
    applications_open_at  timestamptz NOT NULL,
    applications_close_at timestamptz,
    starts_at             timestamptz,
    ends_at               timestamptz,
    capacity              integer CHECK (capacity >= 1),
    -- Whether the opening is announced to the marketing audience.
    announce              boolean NOT NULL DEFAULT false,
    current               boolean NOT NULL DEFAULT false,
    created_at            timestamptz NOT NULL DEFAULT now(),
    -- The last save, and the superadmin who made it: the opening's
    -- announcement is theirs, and is sent only when the opening was still
    -- ahead of that save.
    updated_at            timestamptz NOT NULL DEFAULT now(),
    saved_by              uuid REFERENCES profiles (id) ON DELETE SET NULL,
    -- open < close <= starts < ends, for the dates that are set.
    CONSTRAINT hackathons_close_after_open CHECK (applications_close_at > applications_open_at),
    CONSTRAINT hackathons_starts_after_open CHECK (starts_at > applications_open_at),
    CONSTRAINT hackathons_starts_after_close CHECK (starts_at >= applications_close_at),
    CONSTRAINT hackathons_ends_after_starts CHECK (ends_at > starts_at),
    CONSTRAINT hackathons_ends_after_open CHECK (ends_at > applications_open_at),
    CONSTRAINT hackathons_ends_after_close CHECK (ends_at > applications_close_at)
);
-- Names are unique whatever their case.
CREATE UNIQUE INDEX hackathons_name_idx ON hackathons (lower(name));
-- At most one current edition (moving the flag clears, then sets).
CREATE UNIQUE INDEX hackathons_one_current_idx ON hackathons ((true)) WHERE current;

INSERT INTO hackathons (name, applications_open_at, current)
SELECT 'Hackathon', coalesce(min(created_at), now()), true FROM applications;

-- The current edition's id: every query of "the current edition" reads
-- it here, and an application written without naming its edition is the
-- current one's.
-- +goose StatementBegin
CREATE FUNCTION hackathon_current_id() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT id FROM hackathons WHERE current
$$;
-- +goose StatementEnd

-- Each application belongs to one edition; a person has at most one per
-- edition. The stable default is evaluated once for the existing rows.
ALTER TABLE applications
    ADD COLUMN hackathon_id uuid NOT NULL DEFAULT hackathon_current_id() REFERENCES hackathons (id),
    DROP CONSTRAINT applications_profile_id_key,
    ADD CONSTRAINT applications_profile_hackathon_key UNIQUE (profile_id, hackathon_id),
    -- The target of reviews' (application, edition) reference.
    ADD CONSTRAINT applications_id_hackathon_key UNIQUE (id, hackathon_id);
-- Queries scoped to an edition lead with it: the review queue (fewest
-- reviews first, ties by id), the admin table and the dashboard, the RSVP
-- timeline and the waitlist.
DROP INDEX applications_queue_idx;
CREATE INDEX applications_queue_idx ON applications (hackathon_id, review_count, id) WHERE status = 'submitted';
CREATE INDEX applications_hackathon_idx ON applications (hackathon_id, created_at, id);
DROP INDEX applications_rsvp_at_idx;
CREATE INDEX applications_rsvp_at_idx ON applications (hackathon_id, rsvp_at) WHERE rsvp = 'attending';
CREATE INDEX applications_waitlist_idx ON applications (hackathon_id, decided_at, id) WHERE decision = 'waitlist';

-- A review carries its application's edition, so per-edition counters and
-- scores need no join; the reference on (application, edition) keeps the
-- copy right. A review written without it gets its application's.
ALTER TABLE reviews ADD COLUMN hackathon_id uuid NOT NULL DEFAULT hackathon_current_id();
ALTER TABLE reviews ALTER COLUMN hackathon_id DROP DEFAULT;
ALTER TABLE reviews
    DROP CONSTRAINT reviews_application_id_fkey,
    ADD CONSTRAINT reviews_application_hackathon_fkey FOREIGN KEY (application_id, hackathon_id)
        REFERENCES applications (id, hackathon_id) ON DELETE CASCADE;
DROP INDEX reviews_reviewer_idx;
CREATE INDEX reviews_reviewer_idx ON reviews (reviewer_id, hackathon_id);
-- +goose StatementBegin
CREATE FUNCTION reviews_set_hackathon() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.hackathon_id IS NULL THEN
        SELECT hackathon_id INTO NEW.hackathon_id FROM applications WHERE id = NEW.application_id;
    END IF;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER reviews_set_hackathon BEFORE INSERT ON reviews
    FOR EACH ROW EXECUTE FUNCTION reviews_set_hackathon();

-- The reviewer counters behind the leaderboard are per edition.
ALTER TABLE reviewer_stats ADD COLUMN hackathon_id uuid NOT NULL DEFAULT hackathon_current_id() REFERENCES hackathons (id);
ALTER TABLE reviewer_stats ALTER COLUMN hackathon_id DROP DEFAULT;
ALTER TABLE reviewer_stats
    DROP CONSTRAINT reviewer_stats_pkey,
    ADD PRIMARY KEY (hackathon_id, reviewer_id);
CREATE INDEX reviewer_stats_reviewer_idx ON reviewer_stats (reviewer_id);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION reviews_keep_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE applications SET review_count = review_count + 1 WHERE id = NEW.application_id;
        INSERT INTO reviewer_stats AS s (hackathon_id, reviewer_id, review_count, resume_sum, links_sum, q1_sum, q2_sum)
        VALUES (NEW.hackathon_id, NEW.reviewer_id, 1, NEW.resume_score, NEW.links_score, NEW.q1_score, NEW.q2_score)
        ON CONFLICT (hackathon_id, reviewer_id) DO UPDATE SET
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
    WHERE hackathon_id = OLD.hackathon_id AND reviewer_id = OLD.reviewer_id;
    RETURN OLD;
END;
$$;
-- +goose StatementEnd

-- Normalized scores are per edition: a reviewer's reviews are scored
-- against their own reviews of the same edition (or every review of it),
-- so the next year's reviews never re-score an earlier edition. The views
-- keep migration 00019's arithmetic, grouped by edition too, and are
-- written as plain subqueries (no materialized CTE) so that a filter on
-- hackathon_id reaches every scan of reviews: a query about one edition
-- aggregates only its reviews.
DROP VIEW application_scores;
DROP VIEW review_scores;
DROP VIEW reviewer_totals;

CREATE VIEW reviewer_totals AS
SELECT hackathon_id,
       reviewer_id,
       count(*)::bigint AS n,
       sum(total)::bigint AS s1,
       sum(total * total)::bigint AS s2
FROM (SELECT hackathon_id, reviewer_id, resume_score + links_score + q1_score + q2_score AS total FROM reviews) t
GROUP BY hackathon_id, reviewer_id;

CREATE VIEW review_scores AS
SELECT r.id AS review_id,
       r.application_id,
       r.reviewer_id,
       r.hackathon_id,
       r.total,
       (CASE WHEN b.d > 0 THEN (b.n * r.total - b.s1) / b.d ELSE 0 END)::float8 AS z
FROM (
    SELECT id, application_id, reviewer_id, hackathon_id,
           (resume_score + links_score + q1_score + q2_score)::integer AS total
    FROM reviews
) r
JOIN (
    -- The mean and deviation each reviewer's reviews are scored against.
    SELECT p.hackathon_id,
           p.reviewer_id,
           CASE WHEN p.n >= 5 AND p.spread > 0 THEN p.n ELSE e.n END AS n,
           CASE WHEN p.n >= 5 AND p.spread > 0 THEN p.s1 ELSE e.s1 END AS s1,
           sqrt((CASE WHEN p.n >= 5 AND p.spread > 0 THEN p.spread ELSE e.spread END)::float8) AS d
    FROM (SELECT hackathon_id, reviewer_id, n, s1, n * s2 - s1 * s1 AS spread FROM reviewer_totals) p
    JOIN (SELECT hackathon_id, sum(n)::bigint AS n, sum(s1)::bigint AS s1,
                 (sum(n) * sum(s2) - sum(s1) * sum(s1))::bigint AS spread
          FROM reviewer_totals GROUP BY hackathon_id) e ON e.hackathon_id = p.hackathon_id
) b ON b.hackathon_id = r.hackathon_id AND b.reviewer_id = r.reviewer_id;

CREATE VIEW application_scores AS
SELECT hackathon_id,
       application_id,
       avg(total)::float8 AS score,
       avg(z)::float8 AS normalized_score
FROM review_scores
GROUP BY hackathon_id, application_id;

-- Broadcasts: "applicants" are the current edition's; "marketing" is
-- everyone who accepts marketing email (the opening announcement's
-- audience), and is always a marketing broadcast.
ALTER TABLE broadcasts DROP CONSTRAINT broadcasts_audience_kind_check;
ALTER TABLE broadcasts
    ADD CONSTRAINT broadcasts_audience_kind_check
        CHECK (audience_kind IN ('members', 'paid_members', 'execs', 'applicants', 'marketing')),
    ADD CONSTRAINT broadcasts_marketing_audience CHECK (audience_kind <> 'marketing' OR marketing);
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION broadcast_audience(only_opted_in boolean, audience_kind text, audience_term uuid, audience_decision text)
RETURNS TABLE (profile_id uuid, email text) LANGUAGE sql STABLE AS $$
    SELECT p.id, p.email
    FROM profiles p
    WHERE p.email_confirmed_at IS NOT NULL
      AND (NOT only_opted_in OR p.marketing_opt_in)
      AND CASE audience_kind
          WHEN 'members' THEN EXISTS (
              SELECT 1 FROM memberships m WHERE m.profile_id = p.id AND m.term_id = audience_term)
          WHEN 'paid_members' THEN EXISTS (
              SELECT 1 FROM memberships m
              WHERE m.profile_id = p.id AND m.term_id = audience_term AND m.status = 'paid')
          WHEN 'execs' THEN EXISTS (
              SELECT 1 FROM exec_roles e WHERE e.profile_id = p.id AND e.active)
          WHEN 'applicants' THEN EXISTS (
              SELECT 1 FROM applications a
              WHERE a.profile_id = p.id AND a.status = 'submitted'
                -- the current edition, read once per statement
                AND a.hackathon_id = (SELECT h.id FROM hackathons h WHERE h.current)
                AND (audience_decision IS NULL OR coalesce(a.decision, 'none') = audience_decision))
          WHEN 'marketing' THEN p.marketing_opt_in
          ELSE false
          END
$$;
-- +goose StatementEnd

-- The window's workflow kind (HackdeskKind) is "application-window".
ALTER TABLE workflow_starts DROP CONSTRAINT workflow_starts_kind_check,
    ADD CONSTRAINT workflow_starts_kind_check CHECK (kind ~ '^[a-z]+(-[a-z]+)*$');

-- +goose Down
-- Only a database with a single edition goes back: the applications of
-- several editions cannot share one per person.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION broadcast_audience(only_opted_in boolean, audience_kind text, audience_term uuid, audience_decision text)
RETURNS TABLE (profile_id uuid, email text) LANGUAGE sql STABLE AS $$
    SELECT p.id, p.email
    FROM profiles p
    WHERE p.email_confirmed_at IS NOT NULL
      AND (NOT only_opted_in OR p.marketing_opt_in)
      AND CASE audience_kind
          WHEN 'members' THEN EXISTS (
              SELECT 1 FROM memberships m WHERE m.profile_id = p.id AND m.term_id = audience_term)
          WHEN 'paid_members' THEN EXISTS (
              SELECT 1 FROM memberships m
              WHERE m.profile_id = p.id AND m.term_id = audience_term AND m.status = 'paid')
          WHEN 'execs' THEN EXISTS (
              SELECT 1 FROM exec_roles e WHERE e.profile_id = p.id AND e.active)
          WHEN 'applicants' THEN EXISTS (
              SELECT 1 FROM applications a
              WHERE a.profile_id = p.id AND a.status = 'submitted'
                AND (audience_decision IS NULL OR coalesce(a.decision, 'none') = audience_decision))
          ELSE false
          END
$$;
-- +goose StatementEnd
DELETE FROM workflow_starts WHERE kind = 'application-window';
ALTER TABLE workflow_starts DROP CONSTRAINT workflow_starts_kind_check,
    ADD CONSTRAINT workflow_starts_kind_check CHECK (kind ~ '^[a-z]+$');
ALTER TABLE broadcasts DROP CONSTRAINT broadcasts_marketing_audience, DROP CONSTRAINT broadcasts_audience_kind_check;
ALTER TABLE broadcasts ADD CONSTRAINT broadcasts_audience_kind_check
    CHECK (audience_kind IN ('members', 'paid_members', 'execs', 'applicants'));

DROP VIEW application_scores;
DROP VIEW review_scores;
DROP VIEW reviewer_totals;
CREATE VIEW reviewer_totals AS
SELECT reviewer_id,
       count(*)::bigint AS n,
       sum(total)::bigint AS s1,
       sum(total * total)::bigint AS s2
FROM (SELECT reviewer_id, resume_score + links_score + q1_score + q2_score AS total FROM reviews) t
GROUP BY reviewer_id;
CREATE VIEW review_scores AS
WITH per AS (
    SELECT reviewer_id, n, s1, n * s2 - s1 * s1 AS spread, s2 FROM reviewer_totals
), every AS (
    SELECT sum(n)::bigint AS n, sum(s1)::bigint AS s1, (sum(n) * sum(s2) - sum(s1) * sum(s1))::bigint AS spread
    FROM per
), basis AS MATERIALIZED (
    SELECT p.reviewer_id,
           CASE WHEN p.n >= 5 AND p.spread > 0 THEN p.n ELSE e.n END AS n,
           CASE WHEN p.n >= 5 AND p.spread > 0 THEN p.s1 ELSE e.s1 END AS s1,
           sqrt((CASE WHEN p.n >= 5 AND p.spread > 0 THEN p.spread ELSE e.spread END)::float8) AS d
    FROM per p CROSS JOIN every e
)
SELECT r.id AS review_id,
       r.application_id,
       r.reviewer_id,
       r.total,
       (CASE WHEN b.d > 0 THEN (b.n * r.total - b.s1) / b.d ELSE 0 END)::float8 AS z
FROM (
    SELECT id, application_id, reviewer_id,
           (resume_score + links_score + q1_score + q2_score)::integer AS total
    FROM reviews
) r
JOIN basis b ON b.reviewer_id = r.reviewer_id;
CREATE VIEW application_scores AS
SELECT application_id,
       avg(total)::float8 AS score,
       avg(z)::float8 AS normalized_score
FROM review_scores
GROUP BY application_id;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION reviews_keep_counts() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP INDEX reviewer_stats_reviewer_idx;
ALTER TABLE reviewer_stats DROP CONSTRAINT reviewer_stats_pkey, ADD PRIMARY KEY (reviewer_id);
ALTER TABLE reviewer_stats DROP COLUMN hackathon_id;

DROP TRIGGER reviews_set_hackathon ON reviews;
DROP FUNCTION reviews_set_hackathon();
DROP INDEX reviews_reviewer_idx;
CREATE INDEX reviews_reviewer_idx ON reviews (reviewer_id);
ALTER TABLE reviews DROP CONSTRAINT reviews_application_hackathon_fkey,
    ADD CONSTRAINT reviews_application_id_fkey FOREIGN KEY (application_id) REFERENCES applications (id) ON DELETE CASCADE;
ALTER TABLE reviews DROP COLUMN hackathon_id;

DROP INDEX applications_waitlist_idx;
DROP INDEX applications_rsvp_at_idx;
CREATE INDEX applications_rsvp_at_idx ON applications (rsvp_at) WHERE rsvp = 'attending';
DROP INDEX applications_hackathon_idx;
DROP INDEX applications_queue_idx;
CREATE INDEX applications_queue_idx ON applications (review_count, id) WHERE status = 'submitted';
ALTER TABLE applications
    DROP CONSTRAINT applications_id_hackathon_key,
    DROP CONSTRAINT applications_profile_hackathon_key,
    ADD CONSTRAINT applications_profile_id_key UNIQUE (profile_id),
    DROP COLUMN hackathon_id;
DROP FUNCTION hackathon_current_id();
DROP TABLE hackathons;
