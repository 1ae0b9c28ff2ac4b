-- +goose Up
-- The one statement of who a broadcast's audience is, so that composing a
-- broadcast (its recipient list) and previewing it (a count) cannot drift:
-- confirmed accounts only, one row per person, and with marketing only
-- those who opted in. kind is one of members, paid_members (both of
-- term_id), execs (an active exec role) and applicants (a submitted
-- application; decision filters them, 'none' meaning not decided).
-- +goose StatementBegin
CREATE FUNCTION broadcast_audience(only_opted_in boolean, audience_kind text, audience_term uuid, audience_decision text)
RETURNS TABLE (profile_id uuid, email text) LANGUAGE sql STABLE AS $$
    SELECT p.id, p.email
    FROM profiles p
    WHERE p.email_confirmed_at IS NOT NULL
      AND (NOT only_opted_in OR p.marketing_opt_in)
      AND CASE audience_kind
          WHEN 'members' THEN EXISTS (
              SELECT 1 FROM memberships m WHERE m.profile_id = p.id AND m.term_id = audience_term)
          WHEN 'paid_members' THEN EXISTS (
              SELECT 1 FROM memberships m
              WHERE m.profile_id = p.id AND m.term_id = audience_term AND m.status = 'paid')
          WHEN 'execs' THEN EXISTS (
              SELECT 1 FROM exec_roles e WHERE e.profile_id = p.id AND e.active)
          WHEN 'applicants' THEN EXISTS (
              SELECT 1 FROM applications a
              WHERE a.profile_id = p.id AND a.status = 'submitted'
                AND (audience_decision IS NULL OR coalesce(a.decision, 'none') = audience_decision))
          ELSE false
          END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION broadcast_audience(boolean, text, uuid, text);
