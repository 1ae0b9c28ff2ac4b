-- +goose Up
-- A finalization's progress kept on its row as its activities go, so the
-- hiring page follows it by reading the row (no query of the run, which
-- replays its history on a worker): the run, the step under way, how many
-- hires and previous execs the plan holds, and the hires promoted so far
-- (promoted, demoted and welcomed become the result once recorded).
ALTER TABLE hiring_finalizations
    ADD COLUMN run_id   text,
    ADD COLUMN step     text CHECK (step IN ('load', 'promote', 'demote', 'welcome', 'record', 'done')),
    ADD COLUMN hires    integer CHECK (hires >= 0),
    ADD COLUMN previous integer CHECK (previous >= 0);
-- A finalization recorded before this migration is done.
UPDATE hiring_finalizations SET step = 'done', hires = promoted, previous = demoted
WHERE finalized_at IS NOT NULL;

-- +goose Down
ALTER TABLE hiring_finalizations
    DROP COLUMN previous,
    DROP COLUMN hires,
    DROP COLUMN step,
    DROP COLUMN run_id;
