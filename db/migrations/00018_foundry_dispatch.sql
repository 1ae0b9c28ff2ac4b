-- +goose Up
-- When the setup workflow was last dispatched for a project. DispatchSetup
-- records it before it calls the code host, whose answer (204, no run id)
-- can be lost: a retry then waits for the run of that dispatch to appear
-- instead of dispatching a second one, and dispatches again only once the
-- recorded dispatch is old enough to count as lost.
ALTER TABLE foundry_projects ADD COLUMN setup_dispatched_at timestamptz;

-- +goose Down
ALTER TABLE foundry_projects DROP COLUMN setup_dispatched_at;
