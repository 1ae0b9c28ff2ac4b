-- +goose Up
-- Personal data under control (docs/privacy.md): a person's erasure, the
-- retention purges and the staff access log. A row that is purged or
-- erased keeps its CHECKs through its purged_at / erased_at column: the
-- rules a live row obeys hold "unless purged".

-- Erasure. DELETE /api/me locks the account at once (erase_requested_at,
-- erase_at = the end of the grace period); "Keep my account" clears both.
-- The AccountErasure workflow marks erasing_at when it begins (after which
-- the account can no longer be kept and no email is recorded for it), and
-- erased_at when the profile has become a tombstone: its email
-- erased-<id>@erased.invalid (RFC 6761), no display name, no password, so
-- foreign keys, counters, reviews written and payment records stay whole.
ALTER TABLE profiles
    ADD COLUMN erase_requested_at timestamptz,
    ADD COLUMN erase_at           timestamptz,
    ADD COLUMN erasing_at         timestamptz,
    ADD COLUMN erased_at          timestamptz,
    ADD CONSTRAINT profiles_erase_scheduled CHECK ((erase_requested_at IS NULL) = (erase_at IS NULL)),
    ADD CONSTRAINT profiles_erasing_scheduled CHECK (erasing_at IS NULL OR erase_at IS NOT NULL),
    ADD CONSTRAINT profiles_erased_after_erasing CHECK (erased_at IS NULL OR erasing_at IS NOT NULL),
    ADD CONSTRAINT profiles_tombstone CHECK (erased_at IS NULL OR (
        email = 'erased-' || id::text || '@erased.invalid' AND display_name IS NULL AND password_hash = ''
        AND role = 'member' AND NOT marketing_opt_in AND email_confirmed_at IS NULL)),
    DROP CONSTRAINT profiles_password_hash_check,
    ADD CONSTRAINT profiles_password_hash_check CHECK (erased_at IS NOT NULL OR password_hash LIKE '$argon2id$%');
CREATE INDEX profiles_erasure_idx ON profiles (erase_at) WHERE erase_at IS NOT NULL;

-- Applications: purged_at when retention (or an erasure) has stripped
-- every field that could name the person (contact, demographics,
-- education, links, answers, team, résumé), keeping status, decision,
-- RSVP, scores and dates; erased_at too when its person was erased (the
-- application then leaves the review queue, the admin table and open work).
ALTER TABLE applications
    ADD COLUMN purged_at timestamptz,
    ADD COLUMN erased_at timestamptz,
    ADD CONSTRAINT applications_erased_purged CHECK (erased_at IS NULL OR purged_at IS NOT NULL),
    ADD CONSTRAINT applications_purged_stripped CHECK (purged_at IS NULL OR (
        email IS NULL AND phone IS NULL AND discord IS NULL AND tshirt_size IS NULL
        AND dietary_restrictions IS NULL AND age IS NULL AND country IS NULL AND gender IS NULL AND ethnicity IS NULL
        AND university IS NULL AND program IS NULL AND year_of_study IS NULL
        AND experience_level IS NULL AND hackathons_attended IS NULL AND github_url IS NULL AND linkedin_url IS NULL
        AND website_url IS NULL AND resume_key IS NULL AND q1_answer IS NULL AND q2_answer IS NULL
        AND team_members = '')),
    DROP CONSTRAINT applications_check2,
    ADD CONSTRAINT applications_submitted_complete CHECK (purged_at IS NOT NULL OR status = 'draft'
        OR (coc_agreed AND info_share_authorized AND resume_key IS NOT NULL
            AND q1_answer IS NOT NULL AND q2_answer IS NOT NULL));
-- The review queue leaves erased applications out (the query says so too).
DROP INDEX applications_queue_idx;
CREATE INDEX applications_queue_idx ON applications (hackathon_id, review_count, id)
    WHERE status = 'submitted' AND erased_at IS NULL;
-- Retention's scan: an edition's applications not yet purged.
CREATE INDEX applications_unpurged_idx ON applications (hackathon_id, id) WHERE purged_at IS NULL;

-- The email audit: after 90 days (or with its recipient's erasure) an
-- email's address, subject and bodies go; its key and status stay, so a
-- key is still sent exactly once.
ALTER TABLE emails
    ADD COLUMN purged_at timestamptz,
    ADD CONSTRAINT emails_purged_blank CHECK (purged_at IS NULL OR (
        to_address = '' AND subject = '' AND text_body = '' AND html_body = '' AND last_error IS NULL)),
    DROP CONSTRAINT emails_to_address_check,
    ADD CONSTRAINT emails_to_address_check CHECK (purged_at IS NOT NULL OR to_address LIKE '_%@_%'),
    DROP CONSTRAINT emails_subject_check,
    ADD CONSTRAINT emails_subject_check CHECK (purged_at IS NOT NULL OR length(subject) BETWEEN 1 AND 300);
CREATE INDEX emails_unpurged_created_idx ON emails (created_at) WHERE purged_at IS NULL;

-- Raw receipt emails go 90 days after the receipt settled (or with the
-- person); the parsed payment record (amount, date, term) stays.
ALTER TABLE receipts
    ADD COLUMN purged_at timestamptz,
    ADD CONSTRAINT receipts_purged_raw CHECK (purged_at IS NULL OR length(raw) = 0);

-- The outbox's inputs hold what a workflow starts with: once a row is
-- started and 7 days old its input is cleared (the row stays for the
-- start-once index).
ALTER TABLE workflow_starts
    ADD COLUMN input_cleared_at timestamptz,
    ADD CONSTRAINT workflow_starts_cleared_started CHECK (input_cleared_at IS NULL OR started_at IS NOT NULL);
CREATE INDEX workflow_starts_uncleared_idx ON workflow_starts (created_at) WHERE input_cleared_at IS NULL;

-- Staff reads of personal data: who (and in which role at the time), what
-- action, whose data (subject) and which record (object), when. Kept one
-- year (retention deletes older rows). The review queue's résumé links are
-- not logged: reviewing is the job.
CREATE TABLE access_log (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor_id   uuid NOT NULL REFERENCES profiles (id),
    actor_role text NOT NULL CHECK (length(actor_role) BETWEEN 1 AND 100),
    action     text NOT NULL CHECK (action IN ('application.view', 'resume.link', 'onboarding.csv',
                                               'onboarding.headshots', 'membership.qr')),
    subject_id uuid NOT NULL REFERENCES profiles (id),
    object_id  uuid,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_log_subject_idx ON access_log (subject_id, at DESC, id DESC);
CREATE INDEX access_log_actor_idx ON access_log (actor_id, at DESC, id DESC);
CREATE INDEX access_log_at_idx ON access_log (at DESC, id DESC);

-- Each retention run, as the hackdesk-retention schedule's workflow
-- recorded it: what it purged, by kind (counts only).
CREATE TABLE retention_runs (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workflow_id    text NOT NULL UNIQUE CHECK (length(workflow_id) BETWEEN 1 AND 300),
    retention_days integer NOT NULL CHECK (retention_days >= 1),
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz NOT NULL DEFAULT now(),
    purged         jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(purged) = 'object')
);
CREATE INDEX retention_runs_finished_idx ON retention_runs (finished_at DESC, id DESC);

-- Broadcast audiences leave out accounts locked for erasure.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION broadcast_audience(only_opted_in boolean, audience_kind text, audience_term uuid, audience_decision text)
RETURNS TABLE (profile_id uuid, email text) LANGUAGE sql STABLE AS $$
    SELECT p.id, p.email
    FROM profiles p
    WHERE p.email_confirmed_at IS NOT NULL
      AND p.erase_at IS NULL
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
                -- the current edition, read once per statement
                AND a.hackathon_id = (SELECT h.id FROM hackathons h WHERE h.current)
                AND (audience_decision IS NULL OR coalesce(a.decision, 'none') = audience_decision))
          WHEN 'marketing' THEN p.marketing_opt_in
          ELSE false
          END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION broadcast_audience(only_opted_in boolean, audience_kind text, audience_term uuid, audience_decision text)
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
                AND a.hackathon_id = (SELECT h.id FROM hackathons h WHERE h.current)
                AND (audience_decision IS NULL OR coalesce(a.decision, 'none') = audience_decision))
          WHEN 'marketing' THEN p.marketing_opt_in
          ELSE false
          END
$$;
-- +goose StatementEnd
DROP TABLE retention_runs;
DROP TABLE access_log;
DROP INDEX workflow_starts_uncleared_idx;
ALTER TABLE workflow_starts DROP CONSTRAINT workflow_starts_cleared_started, DROP COLUMN input_cleared_at;
ALTER TABLE receipts DROP CONSTRAINT receipts_purged_raw, DROP COLUMN purged_at;
DROP INDEX emails_unpurged_created_idx;
DELETE FROM emails WHERE purged_at IS NOT NULL;
ALTER TABLE emails
    DROP CONSTRAINT emails_purged_blank,
    DROP CONSTRAINT emails_to_address_check,
    ADD CONSTRAINT emails_to_address_check CHECK (to_address LIKE '_%@_%'),
    DROP CONSTRAINT emails_subject_check,
    ADD CONSTRAINT emails_subject_check CHECK (length(subject) BETWEEN 1 AND 300),
    DROP COLUMN purged_at;
DROP INDEX applications_unpurged_idx;
DROP INDEX applications_queue_idx;
CREATE INDEX applications_queue_idx ON applications (hackathon_id, review_count, id) WHERE status = 'submitted';
-- Purged submissions cannot stand as complete again: they go back to drafts.
UPDATE applications SET status = 'draft', submitted_at = NULL, decision = NULL, decided_at = NULL,
    rsvp = NULL, rsvp_at = NULL, rsvp_deadline = NULL
WHERE purged_at IS NOT NULL AND status = 'submitted';
ALTER TABLE applications
    DROP CONSTRAINT applications_submitted_complete,
    ADD CONSTRAINT applications_check2 CHECK (status = 'draft' OR (coc_agreed AND info_share_authorized
        AND resume_key IS NOT NULL AND q1_answer IS NOT NULL AND q2_answer IS NOT NULL)),
    DROP CONSTRAINT applications_purged_stripped,
    DROP CONSTRAINT applications_erased_purged,
    DROP COLUMN erased_at,
    DROP COLUMN purged_at;
DROP INDEX profiles_erasure_idx;
UPDATE profiles SET password_hash = '$argon2id$erased' WHERE erased_at IS NOT NULL;
ALTER TABLE profiles
    DROP CONSTRAINT profiles_password_hash_check,
    ADD CONSTRAINT profiles_password_hash_check CHECK (password_hash LIKE '$argon2id$%'),
    DROP CONSTRAINT profiles_tombstone,
    DROP CONSTRAINT profiles_erased_after_erasing,
    DROP CONSTRAINT profiles_erasing_scheduled,
    DROP CONSTRAINT profiles_erase_scheduled,
    DROP COLUMN erased_at,
    DROP COLUMN erasing_at,
    DROP COLUMN erase_at,
    DROP COLUMN erase_requested_at;
