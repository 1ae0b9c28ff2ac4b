package hiring

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/freetext"
)

// MaxAnswerChars caps an answer to a question without a char_limit.
const MaxAnswerChars = 10000

// AnswerView is one written answer with its prompt.
type AnswerView struct {
	QuestionID string `json:"question_id"`
	Prompt     string `json:"prompt"`
	Answer     string `json:"answer"`
}

// SaveAnswers checks and stores an application's answers against the
// questions that apply to its positions: an unknown question, one that
// does not apply, text over the question's limit, or a line break in the
// answer of a one-line ("text") question is a 400 on answers.<id>. A null or blank answer removes it.
func SaveAnswers(ctx context.Context, q *db.Queries, a db.Application, answers map[string]*string) error {
	applicable, err := q.QuestionApplicable(ctx, PositionsOf(a))
	if err != nil {
		return err
	}
	byID := map[uuid.UUID]db.QuestionApplicableRow{}
	for _, row := range applicable {
		byID[row.ID] = row
	}
	live, err := q.QuestionList(ctx)
	if err != nil {
		return err
	}
	exists := map[uuid.UUID]bool{}
	for _, row := range live {
		exists[row.ID] = true
	}
	f := apperr.Fields{}
	type write struct {
		id   uuid.UUID
		text string
	}
	var writes []write
	for key, v := range answers {
		name := "answers." + key
		id, err := uuid.Parse(key)
		if err != nil || !exists[id] {
			f.Add(name, "is not a question")
			continue
		}
		qn, ok := byID[id]
		if !ok {
			f.Add(name, "does not apply to the chosen positions")
			continue
		}
		text := ""
		if v != nil {
			text = strings.TrimSpace(*v)
		}
		if why := answerTooLong(text, qn.CharLimit); why != "" {
			f.Add(name, why)
			continue
		}
		// The decoder let line breaks through (the question was not known
		// yet); a one-line question refuses them.
		if qn.Type != "textarea" {
			if why := freetext.Line(text); why != "" {
				f.Add(name, why)
				continue
			}
		}
		writes = append(writes, write{id, text})
	}
	if err := f.Err(); err != nil {
		return err
	}
	for _, wr := range writes {
		if wr.text == "" {
			err = q.AnswerDelete(ctx, db.AnswerDeleteParams{ApplicationID: a.ID, QuestionID: wr.id})
		} else {
			err = q.AnswerUpsert(ctx, db.AnswerUpsertParams{ApplicationID: a.ID, QuestionID: wr.id, Answer: wr.text})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// answerTooLong returns why text is over a question's limit (its
// char_limit, MaxAnswerChars without one), or "".
func answerTooLong(text string, charLimit *int32) string {
	limit := MaxAnswerChars
	if charLimit != nil {
		limit = int(*charLimit)
	}
	if utf8.RuneCountInString(text) > limit {
		return fmt.Sprintf("must be at most %d characters", limit)
	}
	return ""
}

// MissingAnswers lists the required questions that apply to the
// application's positions and have no answer, as 400 reasons on
// answers.<id>.
func MissingAnswers(ctx context.Context, q *db.Queries, a db.Application) (apperr.Fields, error) {
	f := apperr.Fields{}
	applicable, err := q.QuestionApplicable(ctx, PositionsOf(a))
	if err != nil {
		return f, err
	}
	answered, err := q.AnswersOfApplications(ctx, []uuid.UUID{a.ID})
	if err != nil {
		return f, err
	}
	has := map[uuid.UUID]bool{}
	for _, row := range answered {
		has[row.QuestionID] = true
	}
	for _, qn := range applicable {
		if qn.Required && !has[qn.ID] {
			f.Add("answers."+qn.ID.String(), "is required")
		}
	}
	return f, nil
}

// PositionsOf is an application's chosen positions, never nil (the
// queries take an array).
func PositionsOf(a db.Application) []uuid.UUID {
	if a.PositionIds == nil {
		return []uuid.UUID{}
	}
	return a.PositionIds
}

// AnswersOf loads the answers of some applications, by application.
func AnswersOf(ctx context.Context, q *db.Queries, ids ...uuid.UUID) (map[uuid.UUID][]db.AnswersOfApplicationsRow, error) {
	out := map[uuid.UUID][]db.AnswersOfApplicationsRow{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.AnswersOfApplications(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ApplicationID] = append(out[row.ApplicationID], row)
	}
	return out, nil
}

// AnswerMap is an application's answers as {question_id: text}.
func AnswerMap(rows []db.AnswersOfApplicationsRow) map[string]string {
	out := make(map[string]string, len(rows))
	for _, row := range rows {
		out[row.QuestionID.String()] = row.Answer
	}
	return out
}

// AnswerList is an application's answers with their prompts.
func AnswerList(rows []db.AnswersOfApplicationsRow) []AnswerView {
	out := make([]AnswerView, len(rows))
	for i, row := range rows {
		out[i] = AnswerView{QuestionID: row.QuestionID.String(), Prompt: row.Prompt, Answer: row.Answer}
	}
	return out
}
