-- +goose Up
-- A parked receipt's reason named the customer's address ("no account with
-- the email ...", "the ... membership of ... is already paid"). The address
-- is the receipt's own column, which an erasure blanks; the reason is kept
-- for good and shown to admins, so it names no one. Stored reasons are
-- rewritten to the wording the service now writes.
UPDATE receipts SET reason = 'no account with the receipt''s email'
WHERE reason LIKE 'no account with the email %';
UPDATE receipts SET reason = 'the account''s ' || substring(reason FROM '^the (.*) membership of .* is already paid$') || ' membership is already paid'
WHERE reason ~ '^the .* membership of .* is already paid$';

-- +goose Down
-- The addresses are not put back: nothing needs them there.
SELECT 1;
