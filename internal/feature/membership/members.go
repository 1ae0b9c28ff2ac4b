package membership

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
)

// Mine is a member's membership of the active term.
type Mine struct {
	Term       *db.Term // nil without an active term
	Membership *View    // nil before the member joins
}

// Current is profile's membership of the active term, if any.
func Current(ctx context.Context, q *db.Queries, profile uuid.UUID) (Mine, error) {
	t, err := term.Active(ctx, q)
	if errors.Is(err, term.ErrNoActive) {
		return Mine{}, nil
	}
	if err != nil {
		return Mine{}, err
	}
	out := Mine{Term: &t}
	m, err := q.MembershipGetByProfileTerm(ctx, db.MembershipGetByProfileTermParams{ProfileID: profile, TermID: t.ID})
	switch {
	case err == nil:
		v := ToView(m)
		out.Membership = &v
	case !errors.Is(err, db.ErrNotFound):
		return Mine{}, err
	}
	return out, nil
}

// Joined is a member's membership of the active term after Join.
type Joined struct {
	Membership View
	Term       db.Term
	Created    bool // false when the member had joined already
}

// Join makes profile a member of the active term, unpaid, or returns the
// membership already there, paid or not.
func Join(ctx context.Context, q *db.Queries, profile uuid.UUID) (Joined, error) {
	t, err := term.Active(ctx, q)
	if err != nil {
		return Joined{}, err
	}
	// The insert of a member who has joined already returns no row (a
	// concurrent join waits for the other's commit first); then the
	// existing one is read.
	params := db.MembershipInsertParams{ProfileID: profile, TermID: t.ID}
	m, err := q.MembershipInsert(ctx, params)
	created := err == nil
	if errors.Is(err, db.ErrNotFound) {
		m, err = q.MembershipGetByProfileTerm(ctx, db.MembershipGetByProfileTermParams(params))
	}
	if err != nil {
		return Joined{}, err
	}
	return Joined{Membership: ToView(m), Term: t, Created: created}, nil
}

// Own is the id of profile's membership of the active term, for its QR
// code: term.ErrNoActive, or ErrNotAMember before the member joins.
func Own(ctx context.Context, q *db.Queries, profile uuid.UUID) (uuid.UUID, error) {
	t, err := term.Active(ctx, q)
	if err != nil {
		return uuid.Nil, err
	}
	m, err := q.MembershipGetByProfileTerm(ctx, db.MembershipGetByProfileTermParams{ProfileID: profile, TermID: t.ID})
	if errors.Is(err, db.ErrNotFound) {
		return uuid.Nil, ErrNotAMember
	}
	if err != nil {
		return uuid.Nil, err
	}
	return m.ID, nil
}

// GetDetail is membership id as an exec sees it: ErrMembershipNotFound
// when there is none.
func GetDetail(ctx context.Context, q *db.Queries, id uuid.UUID) (Detail, error) {
	d, err := q.MembershipDetail(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return Detail{}, ErrMembershipNotFound
	}
	if err != nil {
		return Detail{}, err
	}
	t, err := q.TermGet(ctx, d.Membership.TermID)
	if err != nil {
		return Detail{}, err
	}
	return Detail{Membership: ToView(d.Membership), Member: toMember(d.DisplayName, d.Email), Term: t}, nil
}

// maxSearch is the longest search of the admins' list, in bytes.
const maxSearch = 200

// ListFilter is the admins' list's ?q=&status=&term_id=.
type ListFilter struct {
	Q      *string // a search of the member's name or email
	Status *string // paid or unpaid
	TermID string  // "" for the active term
	termID uuid.UUID
}

// Validate checks the filter and readies it for List: a blank search is
// none, and a search is matched literally (LIKE's wildcards escaped).
func (f *ListFilter) Validate() apperr.Fields {
	fields := apperr.Fields{}
	if f.Status != nil && !Status(*f.Status).Valid() {
		fields.Add("status", "must be paid or unpaid")
	}
	if f.Q != nil {
		v := strings.TrimSpace(*f.Q)
		switch {
		case v == "":
			f.Q = nil
		case len(v) > maxSearch:
			fields.Add("q", "must be at most 200 characters")
		default:
			v = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(v)
			f.Q = &v
		}
	}
	if f.TermID != "" {
		id, err := uuid.Parse(f.TermID)
		if err != nil {
			fields.Add("term_id", "must be a term id")
		}
		f.termID = id
	}
	return fields
}

// List is a page of a term's memberships (the active term's by default)
// and how many match the filter in all; f has been validated.
func List(ctx context.Context, q *db.Queries, f ListFilter, limit, offset int32) ([]ListItem, int64, error) {
	termID := f.termID
	if termID == uuid.Nil {
		t, err := term.Active(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		termID = t.ID
	}
	rows, err := q.MembershipList(ctx, db.MembershipListParams{TermID: termID, Status: f.Status, Q: f.Q,
		PageSize: limit, PageOffset: offset})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.MembershipCount(ctx, db.MembershipCountParams{TermID: termID, Status: f.Status, Q: f.Q})
	if err != nil {
		return nil, 0, err
	}
	items := make([]ListItem, len(rows))
	for i, m := range rows {
		items[i] = ListItem{View: ToView(m.Membership), Member: toMember(m.DisplayName, m.Email)}
	}
	return items, total, nil
}
