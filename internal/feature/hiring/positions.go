package hiring

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// PositionView is a position as the API shows it.
type PositionView struct {
	ID          uuid.UUID `json:"id"`
	TermID      uuid.UUID `json:"term_id"`
	Title       string    `json:"title"`
	Subteam     string    `json:"subteam"`
	Grants      string    `json:"grants"`
	Description string    `json:"description"`
	Open        bool      `json:"open"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// ToPositionView converts a position row.
func ToPositionView(p db.Position) PositionView {
	return PositionView{ID: p.ID, TermID: p.TermID, Title: p.Title, Subteam: p.Subteam, Grants: p.Grants,
		Description: p.Description, Open: p.Open, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// PositionRef is the short form of a position inside a selection.
type PositionRef struct {
	ID      uuid.UUID `json:"id"`
	Title   string    `json:"title"`
	Subteam string    `json:"subteam"`
}

// TermOf resolves a ?term_id= parameter: a term by id (a 400 on term_id
// when malformed, term.ErrMissing when unknown) or, when empty, the
// hiring term, the one that starts last (ErrNoTerm when there is none).
func TermOf(ctx context.Context, q *db.Queries, termID string) (db.Term, error) {
	if termID != "" {
		id, err := uuid.Parse(termID)
		if err != nil {
			return db.Term{}, apperr.ValidationFailed(apperr.Fields{"term_id": "must be a UUID"})
		}
		return term.Get(ctx, q, id)
	}
	t, err := q.TermHiring(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return t, ErrNoTerm
	}
	return t, err
}

// ListPositions is the open positions of a term (TermOf), the closed ones
// too when includeClosed; none when there is no term yet.
func ListPositions(ctx context.Context, q *db.Queries, termID string, includeClosed bool) ([]PositionView, error) {
	t, err := TermOf(ctx, q, termID)
	if errors.Is(err, ErrNoTerm) {
		return []PositionView{}, nil
	}
	if err != nil {
		return nil, err
	}
	rows, err := q.PositionList(ctx, db.PositionListParams{TermID: t.ID, IncludeClosed: includeClosed})
	if err != nil {
		return nil, err
	}
	out := make([]PositionView, len(rows))
	for i, p := range rows {
		out[i] = ToPositionView(p)
	}
	return out, nil
}

// PositionInput is a position create (title, subteam and grants required)
// or patch.
type PositionInput struct {
	TermID      patch.Field[string] `json:"term_id"`
	Title       patch.Field[string] `json:"title"`
	Subteam     patch.Field[string] `json:"subteam"`
	Grants      patch.Field[string] `json:"grants"`
	Description patch.Field[string] `json:"description" text:"lines"`
	Open        patch.Field[bool]   `json:"open"`

	// Create is set by the caller for a create, before decoding.
	Create bool `json:"-"`
}

// Validate checks each field.
func (b *PositionInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	required := map[string]patch.Field[string]{"title": b.Title, "subteam": b.Subteam, "grants": b.Grants}
	for name, fl := range required {
		switch {
		case b.Create && !fl.Set, fl.Set && fl.Null:
			f.Add(name, "is required")
		}
	}
	if !b.Create && b.TermID.Set {
		f.Add("term_id", "cannot be changed")
	}
	if b.Create && b.TermID.Value() {
		if _, err := uuid.Parse(b.TermID.V); err != nil {
			f.Add("term_id", "must be a UUID")
		}
	}
	if b.Title.Value() {
		if n := len([]rune(strings.TrimSpace(b.Title.V))); n < 1 || n > 200 {
			f.Add("title", "must be 1 to 200 characters")
		}
	}
	if b.Subteam.Value() {
		if n := len([]rune(strings.TrimSpace(b.Subteam.V))); n < 1 || n > 100 {
			f.Add("subteam", "must be 1 to 100 characters")
		}
	}
	if b.Grants.Value() && !Grant(b.Grants.V).Valid() {
		f.Add("grants", "must be one of "+joinSet(Grants()))
	}
	if b.Description.Value() && len([]rune(b.Description.V)) > 5000 {
		f.Add("description", "must be at most 5000 characters")
	}
	if b.Open.Set && b.Open.Null {
		f.Add("open", "must be true or false")
	}
	return f
}

func (b *PositionInput) apply(p *db.Position) {
	if b.Title.Set {
		p.Title = strings.TrimSpace(b.Title.V)
	}
	if b.Subteam.Set {
		p.Subteam = strings.TrimSpace(b.Subteam.V)
	}
	if b.Grants.Set {
		p.Grants = b.Grants.V
	}
	if b.Description.Set {
		p.Description = strings.TrimSpace(b.Description.V) // null clears
	}
	if b.Open.Set {
		p.Open = b.Open.V
	}
}

// CreatePosition inserts an open position of the input's term (a 400 on
// term_id when there is no such term) or of the hiring term (ErrNoTerm).
func CreatePosition(ctx context.Context, q *db.Queries, in *PositionInput) (PositionView, error) {
	var termID uuid.UUID
	if in.TermID.Value() {
		t, err := q.TermGet(ctx, uuid.MustParse(in.TermID.V))
		if errors.Is(err, db.ErrNotFound) {
			return PositionView{}, apperr.ValidationFailed(apperr.Fields{"term_id": "no such term"})
		}
		if err != nil {
			return PositionView{}, err
		}
		termID = t.ID
	} else {
		t, err := TermOf(ctx, q, "")
		if err != nil {
			return PositionView{}, err
		}
		termID = t.ID
	}
	p := db.Position{Open: true}
	in.apply(&p)
	out, err := q.PositionInsert(ctx, db.PositionInsertParams{TermID: termID, Title: p.Title, Subteam: p.Subteam,
		Grants: p.Grants, Description: p.Description, Open: p.Open})
	return ToPositionView(out), err
}

// UpdatePosition applies a patch to position id (ErrPositionMissing).
func UpdatePosition(ctx context.Context, q *db.Queries, id uuid.UUID, in *PositionInput) (PositionView, error) {
	p, err := q.PositionLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return PositionView{}, ErrPositionMissing
	}
	if err != nil {
		return PositionView{}, err
	}
	in.apply(&p)
	out, err := q.PositionUpdate(ctx, db.PositionUpdateParams{ID: id, Title: p.Title, Subteam: p.Subteam,
		Grants: p.Grants, Description: p.Description, Open: p.Open})
	return ToPositionView(out), err
}

// DeletePosition deletes position id (ErrPositionMissing). A position
// someone chose is kept (ErrPositionInUse), and so is one with
// application questions (ErrPositionHasQuestions): close it instead.
func DeletePosition(ctx context.Context, q *db.Queries, id uuid.UUID) error {
	if _, err := q.PositionLock(ctx, id); errors.Is(err, db.ErrNotFound) {
		return ErrPositionMissing
	} else if err != nil {
		return err
	}
	n, err := q.PositionDelete(ctx, id)
	var ce *db.ConstraintError
	if errors.As(err, &ce) && ce.Constraint == "position_questions_position_id_fkey" {
		return ErrPositionHasQuestions
	}
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrPositionInUse
	}
	return nil
}

// ParsePositionIDs reads a list of positions: at most limit distinct
// UUIDs (an application's choices, a question's positions). The string is
// the reason the list is refused, empty when it is accepted.
func ParsePositionIDs(raw []string, limit int) ([]uuid.UUID, string) {
	if len(raw) > limit {
		return nil, fmt.Sprintf("at most %d positions", limit)
	}
	ids := make([]uuid.UUID, 0, len(raw))
	seen := map[uuid.UUID]bool{}
	for _, v := range raw {
		id, err := uuid.Parse(v)
		if err != nil {
			return nil, v + " is not a UUID"
		}
		if seen[id] {
			return nil, v + " is listed twice"
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, ""
}

// joinSet lists the values of set for an error message: "a, b, c".
func joinSet[T ~string](set []T) string {
	s := make([]string, len(set))
	for i, v := range set {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
