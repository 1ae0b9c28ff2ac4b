-- name: ApplicationInsert :one
INSERT INTO applications (profile_id, email) VALUES (@profile_id, @email)
RETURNING *;

-- name: ApplicationGetByProfile :one
SELECT * FROM applications WHERE profile_id = $1;

-- name: ApplicationLockByProfile :one
SELECT * FROM applications WHERE profile_id = $1 FOR UPDATE;

-- name: ApplicationUpdate :exec
-- Writes every applicant-editable field; callers load the row FOR UPDATE,
-- apply the patch and write it back.
UPDATE applications SET
    email = @email, phone = @phone, discord = @discord, tshirt_size = @tshirt_size,
    dietary_restrictions = @dietary_restrictions, age = @age, country = @country,
    gender = @gender, ethnicity = @ethnicity, university = @university, program = @program,
    year_of_study = @year_of_study, experience_level = @experience_level,
    hackathons_attended = @hackathons_attended, github_url = @github_url,
    linkedin_url = @linkedin_url, website_url = @website_url, q1_answer = @q1_answer,
    q2_answer = @q2_answer, team_members = @team_members, coc_agreed = @coc_agreed,
    info_share_authorized = @info_share_authorized, marketing_opt_in = @marketing_opt_in,
    updated_at = now()
WHERE id = @id AND status = 'draft';

-- name: ApplicationSetResume :exec
UPDATE applications SET resume_key = @resume_key, resume_name = @resume_name, updated_at = now()
WHERE id = @id AND status = 'draft';

-- name: ApplicationSubmit :one
UPDATE applications SET status = 'submitted', submitted_at = now(), updated_at = now()
WHERE id = $1 AND status = 'draft'
RETURNING *;

-- name: ApplicationReviewView :one
-- An application as reviewers see it, with the display names of its team.
SELECT sqlc.embed(a),
       application_team_names(a.team_members)::jsonb AS team_members_with_names
FROM applications a
WHERE a.id = $1;
