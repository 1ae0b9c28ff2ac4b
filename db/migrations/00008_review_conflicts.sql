-- +goose Up
-- Whether an application's team list (comma-separated emails) names an
-- address: compared case-insensitively, item by item (spaces around the
-- commas ignored), so a@x.org does not match ba@x.org or a@x.org.uk. One
-- definition for the review queue, the review insert and the admin view;
-- a plain SQL expression, so the planner inlines it.
-- +goose StatementBegin
CREATE FUNCTION team_lists_email(team_members text, email text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT email <> ''
       AND strpos(',' || replace(lower(team_members), ' ', '') || ',', ',' || lower(email) || ',') > 0
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION team_lists_email(text, text);
