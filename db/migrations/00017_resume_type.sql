-- +goose Up
-- The type found in the current resume's content when it was uploaded
-- (pdf, doc or docx), stored with its key, so that a PDF can be offered as
-- an inline preview. Rows uploaded before this migration start with NULL:
-- SQL cannot read the objects' first bytes, so the API fills the type in
-- the first time it signs that resume's links (api/resume_links.go).
ALTER TABLE applications ADD COLUMN resume_type text;
ALTER TABLE applications ADD CONSTRAINT applications_resume_type_check
    CHECK (resume_type IN ('pdf', 'doc', 'docx'));
ALTER TABLE applications ADD CONSTRAINT applications_resume_type_key_check
    CHECK (resume_type IS NULL OR resume_key IS NOT NULL);

-- +goose Down
ALTER TABLE applications DROP COLUMN resume_type;
