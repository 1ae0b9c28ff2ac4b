-- +goose Up
-- The attendance CSV (names, emails, sizes, diets, teams of the attending)
-- is a staff read of personal data: one access-log row per person in it.
ALTER TABLE access_log DROP CONSTRAINT access_log_action_check,
    ADD CONSTRAINT access_log_action_check
        CHECK (action IN ('application.view', 'resume.link', 'onboarding.csv',
                          'onboarding.headshots', 'membership.qr', 'attendance.csv'));

-- +goose Down
DELETE FROM access_log WHERE action = 'attendance.csv';
ALTER TABLE access_log DROP CONSTRAINT access_log_action_check,
    ADD CONSTRAINT access_log_action_check
        CHECK (action IN ('application.view', 'resume.link', 'onboarding.csv',
                          'onboarding.headshots', 'membership.qr'));
