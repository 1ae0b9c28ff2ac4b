-- +goose Up
-- Foundry projects: one row per launch of a repository from a template,
-- with its options and the state of each step of its FoundryLaunch
-- workflow.
CREATE TABLE foundry_projects (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- A repository name the code host accepts: letters, digits, '.', '_'
    -- and '-', at most 100, and neither '.' nor '..'.
    name           text NOT NULL CHECK (name ~ '^[A-Za-z0-9._-]{1,100}$' AND name NOT IN ('.', '..')),
    description    text NOT NULL DEFAULT '' CHECK (length(description) <= 350),
    project_type   text NOT NULL CHECK (project_type IN ('nextjs', 'express', 'fastapi')),
    database       text NOT NULL CHECK (database IN ('postgresql', 'mongodb')),
    redis          boolean NOT NULL,
    s3             boolean NOT NULL,
    team_slug      text NOT NULL CHECK (team_slug <> ''),
    private        boolean NOT NULL,
    status         text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
    workflow_id    text NOT NULL UNIQUE,
    repository_url text,
    run_url        text,
    created_by     uuid NOT NULL REFERENCES profiles (id),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
-- Repository names are case-insensitive on the code host. A name belongs
-- to at most one project that is running or succeeded; a failed one frees
-- it for another launch.
CREATE UNIQUE INDEX foundry_projects_live_name_key ON foundry_projects (lower(name)) WHERE status <> 'failed';
CREATE INDEX foundry_projects_created_idx ON foundry_projects (created_at DESC, id DESC);

CREATE TABLE foundry_steps (
    project_id  uuid NOT NULL REFERENCES foundry_projects (id) ON DELETE CASCADE,
    name        text NOT NULL CHECK (name IN ('create_repository', 'grant_team', 'dispatch_setup', 'setup_run')),
    position    integer NOT NULL,
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed')),
    started_at  timestamptz,
    finished_at timestamptz,
    detail      text NOT NULL DEFAULT '',
    PRIMARY KEY (project_id, name),
    UNIQUE (project_id, position)
);

-- +goose Down
DROP TABLE foundry_steps;
DROP TABLE foundry_projects;
