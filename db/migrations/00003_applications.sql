-- +goose Up
-- Team search matches any part of a name or email.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX profiles_search_idx ON profiles
    USING gin ((lower(email) || ' ' || lower(coalesce(display_name, ''))) gin_trgm_ops)
    WHERE email_confirmed_at IS NOT NULL;

CREATE TABLE applications (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    profile_id            uuid NOT NULL UNIQUE REFERENCES profiles (id) ON DELETE CASCADE,
    status                text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted')),
    -- Step 1: your info
    email                 text CHECK (length(email) <= 254),
    phone                 text CHECK (length(phone) <= 30),
    discord               text CHECK (length(discord) <= 40),
    tshirt_size           text CHECK (tshirt_size IN ('XS', 'S', 'M', 'L', 'XL', 'XXL')),
    dietary_restrictions  text CHECK (length(dietary_restrictions) <= 300),
    age                   integer CHECK (age BETWEEN 13 AND 100),
    country               text CHECK (length(country) <= 100),
    gender                text CHECK (length(gender) <= 300),
    ethnicity             text CHECK (length(ethnicity) <= 300),
    -- Step 2: your experience
    university            text CHECK (length(university) <= 200),
    program               text CHECK (length(program) <= 200),
    year_of_study         text CHECK (length(year_of_study) <= 50),
    experience_level      text CHECK (length(experience_level) <= 300),
    hackathons_attended   integer CHECK (hackathons_attended BETWEEN 0 AND 1000),
    github_url            text CHECK (length(github_url) <= 300),
    linkedin_url          text CHECK (length(linkedin_url) <= 300),
    website_url           text CHECK (length(website_url) <= 300),
    resume_key            text CHECK (length(resume_key) <= 200),
    resume_name           text CHECK (length(resume_name) <= 100),
    -- Step 3: questions
    q1_answer             text CHECK (length(q1_answer) <= 5000),
    q2_answer             text CHECK (length(q2_answer) <= 1000),
    -- Step 4: team (comma-separated emails of confirmed accounts, at most 3)
    team_members          text NOT NULL DEFAULT ''
                          CHECK (team_members = '' OR array_length(string_to_array(team_members, ','), 1) <= 3),
    -- Step 5: league requirements
    coc_agreed            boolean NOT NULL DEFAULT false,
    info_share_authorized boolean NOT NULL DEFAULT false,
    marketing_opt_in      boolean NOT NULL DEFAULT false,
    -- Kept by the review transaction; orders the review queue.
    review_count          integer NOT NULL DEFAULT 0 CHECK (review_count >= 0),
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    submitted_at          timestamptz,
    CHECK ((status = 'submitted') = (submitted_at IS NOT NULL)),
    CHECK ((resume_key IS NULL) = (resume_name IS NULL)),
    -- A submitted application is complete (the Go validation says why).
    CHECK (status = 'draft' OR (coc_agreed AND info_share_authorized AND resume_key IS NOT NULL
                                AND q1_answer IS NOT NULL AND q2_answer IS NOT NULL))
);

-- +goose Down
DROP TABLE applications;
DROP INDEX profiles_search_idx;
