package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// termJSON is a term as the API shows it.
type termJSON struct {
	ID                 uuid.UUID  `json:"id"`
	Name               string     `json:"name"`
	StartsOn           string     `json:"starts_on"`
	EndsOn             string     `json:"ends_on"`
	OnboardingOpensAt  *time.Time `json:"onboarding_opens_at"`
	OnboardingClosesAt *time.Time `json:"onboarding_closes_at"`
	ReturningOpensAt   *time.Time `json:"returning_opens_at"`
	ReturningClosesAt  *time.Time `json:"returning_closes_at"`
	Active             bool       `json:"active"`
	CreatedAt          time.Time  `json:"created_at"`
	UpdatedAt          time.Time  `json:"updated_at"`
}

const dateLayout = "2006-01-02"

func toTermJSON(t db.Term) termJSON {
	return termJSON{ID: t.ID, Name: t.Name, StartsOn: t.StartsOn.Format(dateLayout), EndsOn: t.EndsOn.Format(dateLayout),
		OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
		ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt,
		Active: t.Active, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

var (
	errNoActiveTerm = apperr.New(apperr.NotFound, "No active term")
	errTermMissing  = apperr.New(apperr.NotFound, "Term not found")
)

// getActiveTerm is GET /api/terms/active.
func (s *Server) getActiveTerm(w http.ResponseWriter, r *http.Request) error {
	t, err := s.store.TermActive(r.Context())
	if errors.Is(err, db.ErrNotFound) {
		return errNoActiveTerm
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"term": toTermJSON(t)})
	return nil
}

// listTerms is GET /api/admin/terms?page=&page_size=: the terms, latest
// start first, a page at a time (a club has a few a year).
func (s *Server) listTerms(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	rows, err := s.store.TermList(r.Context())
	if err != nil {
		return err
	}
	out := []termJSON{}
	for _, t := range pageOf(rows, pg) {
		out = append(out, toTermJSON(t))
	}
	writeJSON(w, http.StatusOK, map[string]any{"terms": out, "total": len(rows), "page": pg.Number, "page_size": pg.Size})
	return nil
}

// termBody is the body of a term create (every field but the windows and
// active required) or patch (every field optional; null clears a window).
type termBody struct {
	Name               field[string] `json:"name"`
	StartsOn           field[string] `json:"starts_on"`
	EndsOn             field[string] `json:"ends_on"`
	OnboardingOpensAt  field[string] `json:"onboarding_opens_at"`
	OnboardingClosesAt field[string] `json:"onboarding_closes_at"`
	ReturningOpensAt   field[string] `json:"returning_opens_at"`
	ReturningClosesAt  field[string] `json:"returning_closes_at"`
	Active             field[bool]   `json:"active"`

	create bool
}

func (b *termBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	if b.create {
		for name, fl := range map[string]field[string]{"name": b.Name, "starts_on": b.StartsOn, "ends_on": b.EndsOn} {
			if !fl.Set || fl.Null {
				f.Add(name, "is required")
			}
		}
	} else {
		for name, fl := range map[string]field[string]{"name": b.Name, "starts_on": b.StartsOn, "ends_on": b.EndsOn} {
			if fl.Set && fl.Null {
				f.Add(name, "cannot be null")
			}
		}
		if b.Active.Set && (b.Active.Null || !b.Active.V) {
			f.Add("active", "can only be set to true (activate another term to move the flag)")
		}
	}
	if b.Name.Set && !b.Name.Null {
		if n := len([]rune(strings.TrimSpace(b.Name.V))); n < 1 || n > 100 {
			f.Add("name", "must be 1 to 100 characters")
		}
	}
	for name, fl := range map[string]field[string]{"starts_on": b.StartsOn, "ends_on": b.EndsOn} {
		if fl.Set && !fl.Null {
			if _, err := time.Parse(dateLayout, fl.V); err != nil {
				f.Add(name, "must be a date (YYYY-MM-DD)")
			}
		}
	}
	for name, fl := range map[string]field[string]{
		"onboarding_opens_at": b.OnboardingOpensAt, "onboarding_closes_at": b.OnboardingClosesAt,
		"returning_opens_at": b.ReturningOpensAt, "returning_closes_at": b.ReturningClosesAt} {
		if fl.Set && !fl.Null {
			if _, err := time.Parse(time.RFC3339, fl.V); err != nil {
				f.Add(name, "must be an RFC 3339 date-time")
			}
		}
	}
	return f
}

func applyDate(dst *time.Time, fl field[string]) {
	if fl.Set && !fl.Null {
		*dst, _ = time.Parse(dateLayout, fl.V)
	}
}

func applyTime(dst **time.Time, fl field[string]) {
	if !fl.Set {
		return
	}
	if fl.Null {
		*dst = nil
		return
	}
	t, _ := time.Parse(time.RFC3339, fl.V)
	t = t.Truncate(time.Microsecond)
	*dst = &t
}

// apply writes the body onto t and checks the rules between fields: the
// term ends after it starts, and each window is both times or neither and
// opens before it closes.
func (b *termBody) apply(t *db.Term) error {
	if b.Name.Set {
		t.Name = strings.TrimSpace(b.Name.V)
	}
	applyDate(&t.StartsOn, b.StartsOn)
	applyDate(&t.EndsOn, b.EndsOn)
	applyTime(&t.OnboardingOpensAt, b.OnboardingOpensAt)
	applyTime(&t.OnboardingClosesAt, b.OnboardingClosesAt)
	applyTime(&t.ReturningOpensAt, b.ReturningOpensAt)
	applyTime(&t.ReturningClosesAt, b.ReturningClosesAt)
	f := apperr.Fields{}
	if !t.EndsOn.After(t.StartsOn) {
		f.Add("ends_on", "must be after starts_on")
	}
	window := func(name string, open, close *time.Time) {
		switch {
		case (open == nil) != (close == nil):
			f.Add(name+"_closes_at", "a window needs both its open and close times")
		case open != nil && !open.Before(*close):
			f.Add(name+"_closes_at", "must be after "+name+"_opens_at")
		}
	}
	window("onboarding", t.OnboardingOpensAt, t.OnboardingClosesAt)
	window("returning", t.ReturningOpensAt, t.ReturningClosesAt)
	return f.Err()
}

// termWrite maps a term write's conflicts: the name is unique.
func termWrite(err error) error {
	if errors.Is(err, db.ErrConflict) {
		return apperr.WithMessage(apperr.Conflict, "Term exists", "A term with this name exists already")
	}
	return err
}

// createTerm is POST /api/admin/terms; {active:true} makes it the active
// term in the same transaction.
func (s *Server) createTerm(w http.ResponseWriter, r *http.Request) error {
	body := termBody{create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	var t db.Term
	if err := body.apply(&t); err != nil {
		return err
	}
	ctx := r.Context()
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		var err error
		t, err = q.TermInsert(ctx, db.TermInsertParams{Name: t.Name, StartsOn: t.StartsOn, EndsOn: t.EndsOn,
			OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
			ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt})
		if err != nil {
			return termWrite(err)
		}
		if body.Active.Set && !body.Active.Null && body.Active.V {
			if t, err = activateTerm(ctx, q, t.ID); err != nil {
				return err
			}
		}
		// The term's form windows run in its TermWindow workflow.
		_, err = outbox.Enqueue(ctx, q, workflows.TermWindowRequest(s.termWindowInput(t)))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"term": toTermJSON(t)})
	return nil
}

// activateTerm moves the active flag to id (in the caller's transaction).
func activateTerm(ctx context.Context, q *db.Queries, id uuid.UUID) (db.Term, error) {
	if err := q.TermClearActive(ctx, id); err != nil {
		return db.Term{}, err
	}
	if err := q.TermSetActive(ctx, id); err != nil {
		return db.Term{}, err
	}
	return q.TermGet(ctx, id)
}

// patchTerm is PATCH /api/admin/terms/{id}.
func (s *Server) patchTerm(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return errTermMissing
	}
	var body termBody
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var t db.Term
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		var err error
		t, err = q.TermLock(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return errTermMissing
		}
		if err != nil {
			return err
		}
		before := termWindowsOf(t)
		if err := body.apply(&t); err != nil {
			return err
		}
		if termWindowsOf(t) != before {
			// Changed dates go to the TermWindow workflow, which a
			// signal-with-start starts afresh if its run has ended.
			if _, err := outbox.Enqueue(ctx, q, workflows.TermWindowSignalRequest(s.termWindowInput(t))); err != nil {
				return err
			}
		}
		if t, err = q.TermUpdate(ctx, db.TermUpdateParams{ID: id, Name: t.Name, StartsOn: t.StartsOn, EndsOn: t.EndsOn,
			OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
			ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt}); err != nil {
			return termWrite(err)
		}
		if body.Active.Set {
			t, err = activateTerm(ctx, q, id)
		}
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"term": toTermJSON(t)})
	return nil
}

// windowTimes are a term's four window times, comparable.
type windowTimes [4]int64

func unixMicro(t *time.Time) int64 {
	if t == nil {
		return -1 << 62
	}
	return t.UnixMicro()
}

func termWindowsOf(t db.Term) windowTimes {
	return windowTimes{unixMicro(t.OnboardingOpensAt), unixMicro(t.OnboardingClosesAt),
		unixMicro(t.ReturningOpensAt), unixMicro(t.ReturningClosesAt)}
}

// termWindowInput is the TermWindow input (and dates) of a term.
func (s *Server) termWindowInput(t db.Term) workflows.TermWindowInput {
	return workflows.TermWindowInput{TermID: t.ID, TermName: t.Name, PublicURL: strings.TrimRight(s.cfg.PublicURL, "/"),
		Windows: workflows.TermWindows{OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
			ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt}}
}
