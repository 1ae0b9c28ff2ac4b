-- +goose Up
-- The onboarding form (new execs of a term) and the returning-exec form
-- (execs of the term before it): one submission per person, term and kind;
-- a resubmission updates the row.
CREATE TABLE exec_form_submissions (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    term_id          uuid NOT NULL REFERENCES terms (id),
    profile_id       uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    kind             text NOT NULL CHECK (kind IN ('onboarding', 'returning')),
    display_name     text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
    email            text NOT NULL CHECK (length(email) BETWEEN 3 AND 254 AND email LIKE '%_@_%'),
    role             text NOT NULL CHECK (length(role) BETWEEN 1 AND 200),
    term_type        text NOT NULL CHECK (term_type IN ('full_year', 'fall', 'winter', 'summer')),
    headshot_key     text CHECK (headshot_key IS NULL OR length(headshot_key) BETWEEN 1 AND 300),
    headshot_consent boolean NOT NULL DEFAULT false,
    chat_handle      text NOT NULL DEFAULT '' CHECK (length(chat_handle) <= 100),
    photo_handle     text NOT NULL DEFAULT '' CHECK (length(photo_handle) <= 100),
    ds_competency    text NOT NULL CHECK (ds_competency IN ('none', 'beginner', 'intermediate', 'advanced')),
    submitted_at     timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (term_id, profile_id, kind),
    -- A stored headshot was given with consent.
    CHECK (headshot_key IS NULL OR headshot_consent)
);
CREATE INDEX exec_form_submissions_term_idx ON exec_form_submissions (term_id, kind, display_name);

-- Each form window's close as the TermWindow workflow recorded it; a window
-- moved later and closed again updates its row.
CREATE TABLE term_window_closings (
    term_id    uuid NOT NULL REFERENCES terms (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('onboarding', 'returning')),
    closes_at  timestamptz NOT NULL,
    submitted  integer NOT NULL CHECK (submitted >= 0),
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (term_id, kind)
);

-- +goose Down
DROP TABLE term_window_closings;
DROP TABLE exec_form_submissions;
