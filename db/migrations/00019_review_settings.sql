-- +goose Up
-- The review process's settings: one row (id is always true). blind hides
-- who the applicant is from the reviewer view; cap, when set, takes an
-- application with that many reviews out of the queue.
CREATE TABLE review_settings (
    id    boolean PRIMARY KEY DEFAULT true CHECK (id),
    blind boolean NOT NULL DEFAULT false,
    cap   integer CHECK (cap IS NULL OR cap >= 1)
);
INSERT INTO review_settings (id) VALUES (true);

-- Every change of the settings: who made it, the settings it left, and
-- when. The settings row itself holds only the current values.
CREATE TABLE review_settings_history (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    changed_by uuid REFERENCES profiles (id) ON DELETE SET NULL, -- NULL once the account is gone
    blind      boolean NOT NULL,
    cap        integer CHECK (cap IS NULL OR cap >= 1),
    changed_at timestamptz NOT NULL DEFAULT now()
);

-- Per reviewer: the number of reviews and the sum and sum of squares of
-- their totals (0-15). Integers, so the statistics below are exact: the
-- mean is s1/n, the population variance (n*s2 - s1^2)/n^2.
CREATE VIEW reviewer_totals AS
SELECT reviewer_id,
       count(*)::bigint AS n,
       sum(total)::bigint AS s1,
       sum(total * total)::bigint AS s2
FROM (SELECT reviewer_id, resume_score + links_score + q1_score + q2_score AS total FROM reviews) t
GROUP BY reviewer_id;

-- Each review's total and its z-score, (total - mean) / deviation, which
-- is (n*total - s1) / sqrt(n*s2 - s1^2): within its reviewer's reviews
-- when the reviewer has at least 5 that are not all equal, else within
-- every review; 0 when every review has the same total. Computed from the
-- reviews on every read (one pass to aggregate per reviewer, then the
-- rows asked for), never stored. Both terms are exact integers, so equal
-- inputs give equal scores, and the square root is taken once per
-- reviewer, not per review.
CREATE VIEW review_scores AS
WITH per AS (
    SELECT reviewer_id, n, s1, n * s2 - s1 * s1 AS spread, s2 FROM reviewer_totals
), every AS (
    SELECT sum(n)::bigint AS n, sum(s1)::bigint AS s1, (sum(n) * sum(s2) - sum(s1) * sum(s1))::bigint AS spread
    FROM per
), basis AS MATERIALIZED (
    -- The mean and deviation each reviewer's reviews are scored against.
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

-- An application's mean raw total and normalized score (the mean of its
-- reviews' z); reviewed applications only.
CREATE VIEW application_scores AS
SELECT application_id,
       avg(total)::float8 AS score,
       avg(z)::float8 AS normalized_score
FROM review_scores
GROUP BY application_id;

-- +goose Down
DROP VIEW application_scores;
DROP VIEW review_scores;
DROP VIEW reviewer_totals;
DROP TABLE review_settings_history;
DROP TABLE review_settings;
