package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/application"
	"hackdesk/db"
)

var (
	errQuestionMissing = apperr.New(apperr.NotFound, "Question not found")
	errQuestionScope   = apperr.WithMessage(apperr.Forbidden, "Forbidden",
		"A VP may only change questions whose positions are all of their subteam")
)

// Question rules (the schema repeats them as CHECKs).
const (
	maxPromptChars      = 1000
	maxPlaceholderChars = 500
	maxHelpTextChars    = 2000
	maxCharLimit        = 10000
)

var questionTypes = []string{"text", "textarea"}

// questionJSON is a question as an applicant sees it.
type questionJSON struct {
	ID          uuid.UUID   `json:"id"`
	Prompt      string      `json:"prompt"`
	Type        string      `json:"type"`
	CharLimit   *int32      `json:"char_limit"`
	Placeholder string      `json:"placeholder"`
	HelpText    string      `json:"help_text"`
	Required    bool        `json:"required"`
	PositionIDs []uuid.UUID `json:"position_ids"`
}

// bankQuestionJSON is a question as the question bank shows it to a VP or
// President: editable says whether the caller may change it.
type bankQuestionJSON struct {
	questionJSON
	Editable bool `json:"editable"`
}

func toQuestionJSON(q db.Question, positions []uuid.UUID) questionJSON {
	if positions == nil {
		positions = []uuid.UUID{}
	}
	return questionJSON{ID: q.ID, Prompt: q.Prompt, Type: q.Type, CharLimit: q.CharLimit,
		Placeholder: q.Placeholder, HelpText: q.HelpText, Required: q.Required, PositionIDs: positions}
}

// listQuestions is GET /api/applications/review/questions (VP,
// President): every live question, with editable for the caller.
func (s *Server) listQuestions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	scope, _ := callerScope(principalFrom(ctx))
	rows, err := s.store.QuestionList(ctx)
	if err != nil {
		return err
	}
	out := make([]bankQuestionJSON, len(rows))
	for i, row := range rows {
		q := db.Question{ID: row.ID, Prompt: row.Prompt, Type: row.Type, CharLimit: row.CharLimit,
			Placeholder: row.Placeholder, HelpText: row.HelpText, Required: row.Required}
		out[i] = bankQuestionJSON{questionJSON: toQuestionJSON(q, row.PositionIds), Editable: scope.EditsQuestion(row.Subteams)}
	}
	writeJSON(w, http.StatusOK, map[string]any{"questions": out})
	return nil
}

// questionBody is a question create (prompt and type required) or patch.
type questionBody struct {
	Prompt      field[string]   `json:"prompt"`
	Type        field[string]   `json:"type"`
	CharLimit   field[int32]    `json:"char_limit"`
	Placeholder field[string]   `json:"placeholder"`
	HelpText    field[string]   `json:"help_text"`
	Required    field[bool]     `json:"required"`
	PositionIDs field[[]string] `json:"position_ids"`

	create      bool
	positionIDs []uuid.UUID
}

func (b *questionBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	for name, fl := range map[string]field[string]{"prompt": b.Prompt, "type": b.Type} {
		if (b.create && !fl.Set) || (fl.Set && fl.Null) {
			f.Add(name, "is required")
		}
	}
	if b.Prompt.Set && !b.Prompt.Null {
		if n := utf8.RuneCountInString(strings.TrimSpace(b.Prompt.V)); n < 1 || n > maxPromptChars {
			f.Add("prompt", fmt.Sprintf("must be 1 to %d characters", maxPromptChars))
		}
	}
	if b.Type.Set && !b.Type.Null {
		if why := application.OneOf(questionTypes)(b.Type.V); why != "" {
			f.Add("type", why)
		}
	}
	if b.CharLimit.Set && !b.CharLimit.Null && (b.CharLimit.V < 1 || b.CharLimit.V > maxCharLimit) {
		f.Add("char_limit", fmt.Sprintf("must be from 1 to %d, or null", maxCharLimit))
	}
	if b.Placeholder.Set && !b.Placeholder.Null && utf8.RuneCountInString(strings.TrimSpace(b.Placeholder.V)) > maxPlaceholderChars {
		f.Add("placeholder", fmt.Sprintf("must be at most %d characters", maxPlaceholderChars))
	}
	if b.HelpText.Set && !b.HelpText.Null && utf8.RuneCountInString(strings.TrimSpace(b.HelpText.V)) > maxHelpTextChars {
		f.Add("help_text", fmt.Sprintf("must be at most %d characters", maxHelpTextChars))
	}
	if b.Required.Set && b.Required.Null {
		f.Add("required", "must be true or false")
	}
	if b.PositionIDs.Set && !b.PositionIDs.Null {
		ids, why := application.ParsePositionIDs(b.PositionIDs.V, maxQuestionPositions)
		if why != "" {
			f.Add("position_ids", why)
		}
		b.positionIDs = ids
	}
	return f
}

// maxQuestionPositions caps the positions one question is asked for.
const maxQuestionPositions = 100

func (b *questionBody) apply(q *db.Question) {
	if b.Prompt.Set {
		q.Prompt = strings.TrimSpace(b.Prompt.V)
	}
	if b.Type.Set {
		q.Type = b.Type.V
	}
	if b.CharLimit.Set {
		q.CharLimit = nil
		if !b.CharLimit.Null {
			v := b.CharLimit.V
			q.CharLimit = &v
		}
	}
	if b.Placeholder.Set {
		q.Placeholder = strings.TrimSpace(b.Placeholder.V) // null clears
	}
	if b.HelpText.Set {
		q.HelpText = strings.TrimSpace(b.HelpText.V)
	}
	if b.Required.Set {
		q.Required = b.Required.V
	}
}

// positionSubteams loads the named positions (400 on position_ids for an
// unknown one) and answers their subteams.
func positionSubteams(ctx context.Context, q *db.Queries, ids []uuid.UUID) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.PositionsByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	found := map[uuid.UUID]string{}
	for _, p := range rows {
		found[p.ID] = p.Subteam
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		st, ok := found[id]
		if !ok {
			return nil, apperr.ValidationFailed(apperr.Fields{"position_ids": id.String() + " is not a position"})
		}
		out[i] = st
	}
	return out, nil
}

// createQuestion is POST /api/applications/review/questions (VP,
// President). A VP's question must name positions, all of their subteam.
func (s *Server) createQuestion(w http.ResponseWriter, r *http.Request) error {
	body := questionBody{create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	p := principalFrom(ctx)
	scope, _ := callerScope(p)
	var out questionJSON
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		subteams, err := positionSubteams(ctx, q, body.positionIDs)
		if err != nil {
			return err
		}
		if !scope.EditsQuestion(subteams) {
			return errQuestionScope
		}
		var qn db.Question
		body.apply(&qn)
		me := p.ProfileID
		row, err := q.QuestionInsert(ctx, db.QuestionInsertParams{Prompt: qn.Prompt, Type: qn.Type, CharLimit: qn.CharLimit,
			Placeholder: qn.Placeholder, HelpText: qn.HelpText, Required: qn.Required, CreatedBy: &me})
		if err != nil {
			return err
		}
		ids := body.positionIDs
		if ids == nil {
			ids = []uuid.UUID{}
		}
		if err := q.PositionQuestionsAdd(ctx, db.PositionQuestionsAddParams{QuestionID: row.ID, PositionIds: ids}); err != nil {
			return err
		}
		out = toQuestionJSON(row, ids)
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"question": bankQuestionJSON{questionJSON: out, Editable: true}})
	return nil
}

// lockQuestionInScope locks a live question (404 otherwise) and checks
// that the caller may change it (403 otherwise); it answers the question's
// positions.
func lockQuestionInScope(ctx context.Context, q *db.Queries, r *http.Request) (db.Question, []uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return db.Question{}, nil, errQuestionMissing
	}
	qn, err := q.QuestionLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return qn, nil, errQuestionMissing
	}
	if err != nil {
		return qn, nil, err
	}
	rows, err := q.QuestionPositions(ctx, id)
	if err != nil {
		return qn, nil, err
	}
	ids := make([]uuid.UUID, len(rows))
	subteams := make([]string, len(rows))
	for i, row := range rows {
		ids[i], subteams[i] = row.ID, row.Subteam
	}
	scope, _ := callerScope(principalFrom(ctx))
	if !scope.EditsQuestion(subteams) {
		return qn, nil, errQuestionScope
	}
	return qn, ids, nil
}

// patchQuestion is PATCH /api/applications/review/questions/{id}: the
// question must be in the caller's scope, and so must its new positions.
func (s *Server) patchQuestion(w http.ResponseWriter, r *http.Request) error {
	var body questionBody
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	scope, _ := callerScope(principalFrom(ctx))
	var out questionJSON
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		qn, ids, err := lockQuestionInScope(ctx, q, r)
		if err != nil {
			return err
		}
		if body.PositionIDs.Set {
			ids = body.positionIDs
			if ids == nil {
				ids = []uuid.UUID{}
			}
			subteams, err := positionSubteams(ctx, q, ids)
			if err != nil {
				return err
			}
			if !scope.EditsQuestion(subteams) {
				return errQuestionScope
			}
			if err := q.PositionQuestionsClear(ctx, qn.ID); err != nil {
				return err
			}
			if err := q.PositionQuestionsAdd(ctx, db.PositionQuestionsAddParams{QuestionID: qn.ID, PositionIds: ids}); err != nil {
				return err
			}
		}
		body.apply(&qn)
		row, err := q.QuestionUpdate(ctx, db.QuestionUpdateParams{ID: qn.ID, Prompt: qn.Prompt, Type: qn.Type,
			CharLimit: qn.CharLimit, Placeholder: qn.Placeholder, HelpText: qn.HelpText, Required: qn.Required})
		if err != nil {
			return err
		}
		out = toQuestionJSON(row, ids)
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"question": bankQuestionJSON{questionJSON: out, Editable: true}})
	return nil
}

// deleteQuestion is DELETE /api/applications/review/questions/{id}: a
// question nobody answered is deleted; one with answers is archived, so
// the answers keep their prompt.
func (s *Server) deleteQuestion(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	archived := false
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		qn, _, err := lockQuestionInScope(ctx, q, r)
		if err != nil {
			return err
		}
		n, err := q.QuestionDeleteUnanswered(ctx, qn.ID)
		if err != nil {
			return err
		}
		if n == 0 {
			archived = true
			return q.QuestionArchive(ctx, qn.ID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "archived": archived})
	return nil
}

// applicantQuestions is GET /api/applications/questions: the general
// questions plus those of the caller's chosen positions.
func (s *Server) applicantQuestions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	positions := []uuid.UUID{}
	a, err := s.store.ApplicationGetByProfile(ctx, principalFrom(ctx).ProfileID)
	switch {
	case err == nil:
		if a.PositionIds != nil {
			positions = a.PositionIds
		}
	case !errors.Is(err, db.ErrNotFound):
		return err
	}
	rows, err := s.store.QuestionApplicable(ctx, positions)
	if err != nil {
		return err
	}
	out := make([]questionJSON, len(rows))
	for i, row := range rows {
		out[i] = toQuestionJSON(applicableQuestion(row), row.PositionIds)
	}
	writeJSON(w, http.StatusOK, map[string]any{"questions": out})
	return nil
}

func applicableQuestion(row db.QuestionApplicableRow) db.Question {
	return db.Question{ID: row.ID, Prompt: row.Prompt, Type: row.Type, CharLimit: row.CharLimit,
		Placeholder: row.Placeholder, HelpText: row.HelpText, Required: row.Required}
}

// answerList is an application's answers with their prompts.
func answerList(rows []db.AnswersOfApplicationsRow) []answerJSON {
	out := make([]answerJSON, len(rows))
	for i, row := range rows {
		out[i] = answerJSON{QuestionID: row.QuestionID.String(), Prompt: row.Prompt, Answer: row.Answer}
	}
	return out
}
