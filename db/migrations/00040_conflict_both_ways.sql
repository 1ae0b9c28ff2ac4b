-- +goose Up
-- The conflict-of-interest rule (package coi), both ways within one
-- edition: '' when the actor may act on the application, else the kind
-- of conflict —
--   'own'    the application is the actor's;
--   'team'   its team list names the actor's email;
--   'listed' the actor's own application of the same edition (actor_team,
--            '' when they have none) names the applicant's email.
-- The review queue, the review insert and the admin table apply it here;
-- decisions, hiring status changes and the details view apply coi.Of to
-- the same inputs, and a store test keeps the two equal. A plain CASE
-- expression, so the planner inlines it; applicant_email is read last and
-- only when the actor's team is not empty, so a caller may pass it as a
-- sub-select that then runs only for reviewers who list someone.
-- +goose StatementBegin
CREATE FUNCTION application_conflict(actor_id uuid, actor_email text, actor_team text,
                                     applicant_id uuid, applicant_email text, team_members text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN applicant_id = actor_id THEN 'own'
        WHEN team_lists_email(team_members, actor_email) THEN 'team'
        WHEN actor_team <> '' AND team_lists_email(actor_team, applicant_email) THEN 'listed'
        ELSE ''
    END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION application_conflict(uuid, text, text, uuid, text, text);
