-- +goose Up
-- A recipient of a marketing broadcast who unsubscribes while it is
-- sending is skipped rather than sent to: their batch checks the opt-in
-- again just before it sends.
ALTER TABLE broadcast_recipients DROP CONSTRAINT broadcast_recipients_status_check;
ALTER TABLE broadcast_recipients ADD CONSTRAINT broadcast_recipients_status_check
    CHECK (status IN ('pending', 'sent', 'failed', 'skipped'));
ALTER TABLE broadcasts ADD COLUMN skipped integer NOT NULL DEFAULT 0 CHECK (skipped >= 0);
ALTER TABLE broadcasts DROP CONSTRAINT broadcasts_check;
ALTER TABLE broadcasts ADD CONSTRAINT broadcasts_counts_check CHECK (sent + failed + skipped <= total);

-- +goose Down
ALTER TABLE broadcasts DROP CONSTRAINT broadcasts_counts_check;
ALTER TABLE broadcasts ADD CONSTRAINT broadcasts_check CHECK (sent + failed <= total);
ALTER TABLE broadcasts DROP COLUMN skipped;
UPDATE broadcast_recipients SET status = 'failed' WHERE status = 'skipped';
ALTER TABLE broadcast_recipients DROP CONSTRAINT broadcast_recipients_status_check;
ALTER TABLE broadcast_recipients ADD CONSTRAINT broadcast_recipients_status_check
    CHECK (status IN ('pending', 'sent', 'failed'));
