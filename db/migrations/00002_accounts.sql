-- +goose Up
CREATE TABLE profiles (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email              text NOT NULL CHECK (email LIKE '_%@_%' AND length(email) <= 254),
    display_name       text CHECK (display_name IS NULL OR length(display_name) BETWEEN 1 AND 100),
    -- PHC string; parameters are read back from it when verifying.
    password_hash      text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
    role               text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'admin', 'superadmin')),
    email_confirmed_at timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX profiles_email_key ON profiles (lower(email));

CREATE TABLE sessions (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash   bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32), -- SHA-256 of the token
    profile_id   uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL, -- absolute limit
    revoked_at   timestamptz,
    CHECK (expires_at > created_at)
);
CREATE INDEX sessions_profile_live_idx ON sessions (profile_id) WHERE revoked_at IS NULL;

-- One-time tokens mailed to the user (email confirmation, password reset).
CREATE TABLE auth_tokens (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    purpose    text NOT NULL CHECK (purpose IN ('confirm', 'reset')),
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    CHECK (expires_at > created_at)
);
CREATE INDEX auth_tokens_profile_idx ON auth_tokens (profile_id, purpose);

CREATE TABLE terms (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    starts_at  timestamptz NOT NULL,
    ends_at    timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at > starts_at)
);

CREATE TABLE exec_roles (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    position   text NOT NULL CHECK (position IN ('President', 'VP')),
    -- A VP leads one subteam; a President leads them all.
    subteam    text CHECK (subteam IS NULL OR length(subteam) BETWEEN 1 AND 100),
    term_id    uuid REFERENCES terms (id),
    active     boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (position <> 'VP' OR subteam IS NOT NULL)
);
-- At most one active exec role per person.
CREATE UNIQUE INDEX exec_roles_one_active_idx ON exec_roles (profile_id) WHERE active;

-- +goose Down
DROP TABLE exec_roles;
DROP TABLE terms;
DROP TABLE auth_tokens;
DROP TABLE sessions;
DROP TABLE profiles;
