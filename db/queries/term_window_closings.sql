-- name: TermWindowCloseRecord :one
-- Records a window's close with how many had submitted by then.
INSERT INTO term_window_closings (term_id, kind, closes_at, submitted)
VALUES (@term_id, @kind, @closes_at,
        (SELECT count(*) FROM exec_form_submissions s WHERE s.term_id = @term_id AND s.kind = @kind))
ON CONFLICT (term_id, kind) DO UPDATE SET
    closes_at = EXCLUDED.closes_at, submitted = EXCLUDED.submitted, recorded_at = now()
RETURNING *;

-- name: TermWindowCloseGet :one
SELECT * FROM term_window_closings WHERE term_id = @term_id AND kind = @kind;
