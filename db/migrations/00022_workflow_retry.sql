-- +goose Up
-- A superadmin may retry a failed or timed-out run of some workflows: the
-- retry is one more outbox row for the same business-key workflow id,
-- numbered. The original start is retry 0; each retry takes the next
-- number, and a workflow is started at most once per number, so two
-- retries sent at once queue one.
ALTER TABLE workflow_starts ADD COLUMN retry integer NOT NULL DEFAULT 0 CHECK (retry >= 0);
DROP INDEX workflow_starts_start_once;
CREATE UNIQUE INDEX workflow_starts_start_once ON workflow_starts (workflow_id, retry) WHERE signal IS NULL;

-- +goose Down
DELETE FROM workflow_starts WHERE retry > 0;
DROP INDEX workflow_starts_start_once;
CREATE UNIQUE INDEX workflow_starts_start_once ON workflow_starts (workflow_id) WHERE signal IS NULL;
ALTER TABLE workflow_starts DROP COLUMN retry;
