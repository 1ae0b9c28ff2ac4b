-- name: QuestionInsert :one
INSERT INTO questions (prompt, type, char_limit, placeholder, help_text, required, created_by)
VALUES (@prompt, @type, sqlc.narg(char_limit), @placeholder, @help_text, @required, sqlc.narg(created_by))
RETURNING *;

-- name: QuestionLock :one
-- A live (not archived) question for change.
SELECT * FROM questions WHERE id = $1 AND archived_at IS NULL FOR UPDATE;

-- name: QuestionUpdate :one
UPDATE questions SET prompt = @prompt, type = @type, char_limit = sqlc.narg(char_limit),
    placeholder = @placeholder, help_text = @help_text, required = @required, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: QuestionDeleteUnanswered :execrows
-- Deletes a question nobody answered; one with answers is kept (archive it).
DELETE FROM questions q
WHERE q.id = $1 AND NOT EXISTS (SELECT 1 FROM application_answers a WHERE a.question_id = q.id);

-- name: QuestionArchive :exec
UPDATE questions SET archived_at = now(), updated_at = now() WHERE id = $1 AND archived_at IS NULL;

-- name: QuestionList :many
-- Every live question with its positions and their subteams; general
-- questions (no positions) first, then oldest first.
SELECT q.*,
       coalesce(array_agg(p.id ORDER BY p.id) FILTER (WHERE p.id IS NOT NULL), '{}')::uuid[] AS position_ids,
       coalesce(array_agg(p.subteam ORDER BY p.id) FILTER (WHERE p.id IS NOT NULL), '{}')::text[] AS subteams
FROM questions q
LEFT JOIN position_questions pq ON pq.question_id = q.id
LEFT JOIN positions p ON p.id = pq.position_id
WHERE q.archived_at IS NULL
GROUP BY q.id
ORDER BY count(p.id) > 0, q.created_at, q.id;

-- name: QuestionPositions :many
-- A question's positions with their subteams.
SELECT p.id, p.subteam FROM position_questions pq JOIN positions p ON p.id = pq.position_id
WHERE pq.question_id = $1 ORDER BY p.id;

-- name: QuestionApplicable :many
-- The live questions an applicant who chose position_ids answers: the
-- general ones and those of any chosen position, general first, then
-- oldest first.
SELECT q.*,
       coalesce((SELECT array_agg(pq.position_id ORDER BY pq.position_id) FROM position_questions pq
                 WHERE pq.question_id = q.id), '{}')::uuid[] AS position_ids
FROM questions q
WHERE q.archived_at IS NULL
  AND (NOT EXISTS (SELECT 1 FROM position_questions pq WHERE pq.question_id = q.id)
       OR EXISTS (SELECT 1 FROM position_questions pq
                  WHERE pq.question_id = q.id AND pq.position_id = ANY(@position_ids::uuid[])))
ORDER BY EXISTS (SELECT 1 FROM position_questions pq WHERE pq.question_id = q.id), q.created_at, q.id;

-- name: PositionQuestionsClear :exec
DELETE FROM position_questions WHERE question_id = $1;

-- name: PositionQuestionsAdd :exec
INSERT INTO position_questions (question_id, position_id)
SELECT @question_id, unnest(@position_ids::uuid[])
ON CONFLICT DO NOTHING;
