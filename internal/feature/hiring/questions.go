package hiring

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// The question bank's rules (the schema repeats them as CHECKs).
const (
	MaxPromptChars      = 1000
	MaxPlaceholderChars = 500
	MaxHelpTextChars    = 2000
	MaxCharLimit        = 10000
	// MaxQuestionPositions caps the positions one question is asked for.
	MaxQuestionPositions = 100
)

// QuestionTypes are the kinds of answer field a question may have.
var QuestionTypes = []string{"text", "textarea"}

// QuestionView is a question as an applicant sees it.
type QuestionView struct {
	ID          uuid.UUID   `json:"id"`
	Prompt      string      `json:"prompt"`
	Type        string      `json:"type"`
	CharLimit   *int32      `json:"char_limit"`
	Placeholder string      `json:"placeholder"`
	HelpText    string      `json:"help_text"`
	Required    bool        `json:"required"`
	PositionIDs []uuid.UUID `json:"position_ids"`
}

// BankQuestion is a question as the question bank shows it to a VP or
// President: Editable says whether the caller may change it.
type BankQuestion struct {
	QuestionView
	Editable bool `json:"editable"`
}

// ToQuestionView converts a question and the positions it is asked for
// (none: a general question).
func ToQuestionView(q db.Question, positions []uuid.UUID) QuestionView {
	if positions == nil {
		positions = []uuid.UUID{}
	}
	return QuestionView{ID: q.ID, Prompt: q.Prompt, Type: q.Type, CharLimit: q.CharLimit,
		Placeholder: q.Placeholder, HelpText: q.HelpText, Required: q.Required, PositionIDs: positions}
}

// ListQuestions is every live question, Editable for the scope.
func ListQuestions(ctx context.Context, q *db.Queries, scope Scope) ([]BankQuestion, error) {
	rows, err := q.QuestionList(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]BankQuestion, len(rows))
	for i, row := range rows {
		qn := db.Question{ID: row.ID, Prompt: row.Prompt, Type: row.Type, CharLimit: row.CharLimit,
			Placeholder: row.Placeholder, HelpText: row.HelpText, Required: row.Required}
		out[i] = BankQuestion{QuestionView: ToQuestionView(qn, row.PositionIds), Editable: scope.EditsQuestion(row.Subteams)}
	}
	return out, nil
}

// QuestionInput is a question create (prompt and type required) or patch.
type QuestionInput struct {
	Prompt      patch.Field[string]   `json:"prompt"`
	Type        patch.Field[string]   `json:"type"`
	CharLimit   patch.Field[int32]    `json:"char_limit"`
	Placeholder patch.Field[string]   `json:"placeholder"`
	HelpText    patch.Field[string]   `json:"help_text" text:"lines"`
	Required    patch.Field[bool]     `json:"required"`
	PositionIDs patch.Field[[]string] `json:"position_ids"`

	// Create is set by the caller for a create, before decoding.
	Create bool `json:"-"`

	positionIDs []uuid.UUID // parsed by Validate
}

// Validate checks each field and parses the positions.
func (b *QuestionInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	for name, fl := range map[string]patch.Field[string]{"prompt": b.Prompt, "type": b.Type} {
		if (b.Create && !fl.Set) || (fl.Set && fl.Null) {
			f.Add(name, "is required")
		}
	}
	if b.Prompt.Value() {
		if n := utf8.RuneCountInString(strings.TrimSpace(b.Prompt.V)); n < 1 || n > MaxPromptChars {
			f.Add("prompt", fmt.Sprintf("must be 1 to %d characters", MaxPromptChars))
		}
	}
	if b.Type.Value() && !slices.Contains(QuestionTypes, b.Type.V) {
		f.Add("type", "must be one of "+strings.Join(QuestionTypes, ", "))
	}
	if b.CharLimit.Value() && (b.CharLimit.V < 1 || b.CharLimit.V > MaxCharLimit) {
		f.Add("char_limit", fmt.Sprintf("must be from 1 to %d, or null", MaxCharLimit))
	}
	if b.Placeholder.Value() && utf8.RuneCountInString(strings.TrimSpace(b.Placeholder.V)) > MaxPlaceholderChars {
		f.Add("placeholder", fmt.Sprintf("must be at most %d characters", MaxPlaceholderChars))
	}
	if b.HelpText.Value() && utf8.RuneCountInString(strings.TrimSpace(b.HelpText.V)) > MaxHelpTextChars {
		f.Add("help_text", fmt.Sprintf("must be at most %d characters", MaxHelpTextChars))
	}
	if b.Required.Set && b.Required.Null {
		f.Add("required", "must be true or false")
	}
	if b.PositionIDs.Value() {
		ids, why := ParsePositionIDs(b.PositionIDs.V, MaxQuestionPositions)
		if why != "" {
			f.Add("position_ids", why)
		}
		b.positionIDs = ids
	}
	return f
}

func (b *QuestionInput) apply(q *db.Question) {
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

// positions is the input's positions, never nil.
func (b *QuestionInput) positions() []uuid.UUID {
	if b.positionIDs == nil {
		return []uuid.UUID{}
	}
	return b.positionIDs
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

// CreateQuestion adds a question to the bank for the input's positions
// (none: a general question). The actor's scope must edit it
// (ErrQuestionScope): a VP's question names positions, all of their
// subteam.
func CreateQuestion(ctx context.Context, q *db.Queries, actor Actor, in *QuestionInput) (BankQuestion, error) {
	subteams, err := positionSubteams(ctx, q, in.positionIDs)
	if err != nil {
		return BankQuestion{}, err
	}
	if !actor.Scope.EditsQuestion(subteams) {
		return BankQuestion{}, ErrQuestionScope
	}
	var qn db.Question
	in.apply(&qn)
	me := actor.ProfileID
	row, err := q.QuestionInsert(ctx, db.QuestionInsertParams{Prompt: qn.Prompt, Type: qn.Type, CharLimit: qn.CharLimit,
		Placeholder: qn.Placeholder, HelpText: qn.HelpText, Required: qn.Required, CreatedBy: &me})
	if err != nil {
		return BankQuestion{}, err
	}
	ids := in.positions()
	if err := q.PositionQuestionsAdd(ctx, db.PositionQuestionsAddParams{QuestionID: row.ID, PositionIds: ids}); err != nil {
		return BankQuestion{}, err
	}
	return BankQuestion{QuestionView: ToQuestionView(row, ids), Editable: true}, nil
}

// lockInScope locks live question id (ErrQuestionMissing otherwise) and
// checks that the scope may change it (ErrQuestionScope otherwise); it
// answers the question's positions.
func lockInScope(ctx context.Context, q *db.Queries, scope Scope, id uuid.UUID) (db.Question, []uuid.UUID, error) {
	qn, err := q.QuestionLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return qn, nil, ErrQuestionMissing
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
	if !scope.EditsQuestion(subteams) {
		return qn, nil, ErrQuestionScope
	}
	return qn, ids, nil
}

// UpdateQuestion applies a patch to question id: the question must be in
// the scope, and so must its new positions.
func UpdateQuestion(ctx context.Context, q *db.Queries, scope Scope, id uuid.UUID, in *QuestionInput) (BankQuestion, error) {
	qn, ids, err := lockInScope(ctx, q, scope, id)
	if err != nil {
		return BankQuestion{}, err
	}
	if in.PositionIDs.Set {
		ids = in.positions()
		subteams, err := positionSubteams(ctx, q, ids)
		if err != nil {
			return BankQuestion{}, err
		}
		if !scope.EditsQuestion(subteams) {
			return BankQuestion{}, ErrQuestionScope
		}
		if err := q.PositionQuestionsClear(ctx, qn.ID); err != nil {
			return BankQuestion{}, err
		}
		if err := q.PositionQuestionsAdd(ctx, db.PositionQuestionsAddParams{QuestionID: qn.ID, PositionIds: ids}); err != nil {
			return BankQuestion{}, err
		}
	}
	in.apply(&qn)
	row, err := q.QuestionUpdate(ctx, db.QuestionUpdateParams{ID: qn.ID, Prompt: qn.Prompt, Type: qn.Type,
		CharLimit: qn.CharLimit, Placeholder: qn.Placeholder, HelpText: qn.HelpText, Required: qn.Required})
	if err != nil {
		return BankQuestion{}, err
	}
	return BankQuestion{QuestionView: ToQuestionView(row, ids), Editable: true}, nil
}

// DeleteQuestion removes question id from the bank (in the scope): a
// question nobody answered is deleted; one with answers is archived, so
// the answers keep their prompt. It reports whether it archived.
func DeleteQuestion(ctx context.Context, q *db.Queries, scope Scope, id uuid.UUID) (archived bool, err error) {
	qn, _, err := lockInScope(ctx, q, scope, id)
	if err != nil {
		return false, err
	}
	n, err := q.QuestionDeleteUnanswered(ctx, qn.ID)
	if err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	return true, q.QuestionArchive(ctx, qn.ID)
}

// ApplicantQuestions is the questions an applicant answers: the general
// ones plus those of the positions their application chose.
func ApplicantQuestions(ctx context.Context, q *db.Queries, profileID uuid.UUID) ([]QuestionView, error) {
	positions := []uuid.UUID{}
	a, err := q.ApplicationGetByProfile(ctx, profileID)
	switch {
	case err == nil:
		positions = PositionsOf(a)
	case !errors.Is(err, db.ErrNotFound):
		return nil, err
	}
	rows, err := q.QuestionApplicable(ctx, positions)
	if err != nil {
		return nil, err
	}
	out := make([]QuestionView, len(rows))
	for i, row := range rows {
		qn := db.Question{ID: row.ID, Prompt: row.Prompt, Type: row.Type, CharLimit: row.CharLimit,
			Placeholder: row.Placeholder, HelpText: row.HelpText, Required: row.Required}
		out[i] = ToQuestionView(qn, row.PositionIds)
	}
	return out, nil
}
