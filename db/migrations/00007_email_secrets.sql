-- +goose Up
-- Emails whose body carries a secret (a link with a one-time token) are
-- marked when recorded. Once such an email is sent (or given up), its
-- bodies are replaced by a notice unless the worker runs the local stack
-- (the log mail driver and a loopback PUBLIC_URL), where the list of emails
-- is the developer's mail catcher.
ALTER TABLE emails ADD COLUMN secret boolean NOT NULL DEFAULT false;
UPDATE emails SET secret = true WHERE kind IN ('confirm', 'reset');
-- Rows delivered before this migration lose their links too.
UPDATE emails
SET text_body = E'[Redacted: this email carried a one-time link. Its body is not kept once sent and never shown.]\n',
    html_body = '<p>[Redacted: this email carried a one-time link. Its body is not kept once sent and never shown.]</p>',
    updated_at = now()
WHERE secret AND status IN ('sent', 'failed');

-- +goose Down
ALTER TABLE emails DROP COLUMN secret;
