-- +goose Up
-- The team of an application as reviewers see it: the listed emails in
-- order, each with the account's display name (one definition for every
-- query that shows it).
-- +goose StatementBegin
CREATE FUNCTION application_team_names(team_members text) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(jsonb_agg(jsonb_build_object('email', p.email, 'display_name', p.display_name) ORDER BY t.ord), '[]')
    FROM unnest(string_to_array(nullif(team_members, ''), ',')) WITH ORDINALITY AS t(email, ord)
    JOIN profiles p ON lower(p.email) = lower(t.email)
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION application_team_names(text);
