-- +goose Up
-- The W3C traceparent of the request that queued a workflow start (NULL
-- when tracing is off or the request had no trace): the dispatcher starts
-- the workflow under it, so the workflow's spans join the request's trace.
ALTER TABLE workflow_starts ADD COLUMN trace_parent text CHECK (length(trace_parent) <= 100);

-- +goose Down
ALTER TABLE workflow_starts DROP COLUMN trace_parent;
