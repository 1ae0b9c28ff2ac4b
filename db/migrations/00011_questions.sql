-- +goose Up
-- The question bank: questions the application asks, each either general
-- (no positions) or tied to exec positions (asked only of applicants who
-- chose one of them).
CREATE TABLE questions (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    prompt      text NOT NULL CHECK (length(prompt) BETWEEN 1 AND 1000),
    type        text NOT NULL CHECK (type IN ('text', 'textarea')),
    char_limit  integer CHECK (char_limit BETWEEN 1 AND 10000),
    placeholder text NOT NULL DEFAULT '' CHECK (length(placeholder) <= 500),
    help_text   text NOT NULL DEFAULT '' CHECK (length(help_text) <= 2000),
    required    boolean NOT NULL DEFAULT false,
    -- Set instead of deleting once the question has answers: the answers
    -- keep their prompt.
    archived_at timestamptz,
    created_by  uuid REFERENCES profiles (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX questions_live_idx ON questions (created_at, id) WHERE archived_at IS NULL;

CREATE TABLE position_questions (
    question_id uuid NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
    -- No cascade: a position with questions is not deleted (a question
    -- losing its last position would turn general).
    position_id uuid NOT NULL REFERENCES positions (id),
    PRIMARY KEY (question_id, position_id)
);
CREATE INDEX position_questions_position_idx ON position_questions (position_id);

-- An applicant's answer to one question. A question with answers is never
-- deleted (no cascade from questions), only archived.
CREATE TABLE application_answers (
    application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    question_id    uuid NOT NULL REFERENCES questions (id),
    answer         text NOT NULL CHECK (length(answer) BETWEEN 1 AND 10000),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (application_id, question_id)
);
CREATE INDEX application_answers_question_idx ON application_answers (question_id);

-- +goose Down
DROP TABLE application_answers;
DROP TABLE position_questions;
DROP TABLE questions;
