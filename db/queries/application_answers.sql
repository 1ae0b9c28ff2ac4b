-- name: AnswerUpsert :exec
INSERT INTO application_answers (application_id, question_id, answer)
VALUES (@application_id, @question_id, @answer)
ON CONFLICT (application_id, question_id) DO UPDATE SET answer = EXCLUDED.answer, updated_at = now();

-- name: AnswerDelete :exec
DELETE FROM application_answers WHERE application_id = @application_id AND question_id = @question_id;

-- name: AnswersDropInapplicable :exec
-- Drops the answers to questions that no longer apply to the chosen
-- positions (a question tied to positions none of which is chosen).
DELETE FROM application_answers a
WHERE a.application_id = @application_id
  AND EXISTS (SELECT 1 FROM position_questions pq WHERE pq.question_id = a.question_id)
  AND NOT EXISTS (SELECT 1 FROM position_questions pq
                  WHERE pq.question_id = a.question_id AND pq.position_id = ANY(@position_ids::uuid[]));

-- name: AnswersOfApplications :many
-- The answers of some applications with their prompts (archived questions
-- included) and the question's positions; general questions first, then
-- in the order the questions were made.
SELECT a.application_id, a.question_id, q.prompt, a.answer,
       coalesce((SELECT array_agg(pq.position_id ORDER BY pq.position_id) FROM position_questions pq
                 WHERE pq.question_id = q.id), '{}')::uuid[] AS position_ids
FROM application_answers a
JOIN questions q ON q.id = a.question_id
WHERE a.application_id = ANY(@application_ids::uuid[])
ORDER BY a.application_id,
         EXISTS (SELECT 1 FROM position_questions pq WHERE pq.question_id = q.id), q.created_at, q.id;

-- name: AnswersDeleteFor :execrows
-- Retention and erasure: the question-bank answers of these applications.
DELETE FROM application_answers WHERE application_id = ANY(@application_ids::uuid[]);
