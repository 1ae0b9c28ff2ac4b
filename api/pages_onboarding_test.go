package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// The other page tests' reads have no terms: the form pages are served.
func (fakeApplications) TermHiring(context.Context) (db.Term, error) {
	return db.Term{}, db.ErrNotFound
}
func (fakeApplications) TermGet(context.Context, uuid.UUID) (db.Term, error) {
	return db.Term{}, db.ErrNotFound
}
func (fakeApplications) TermOfActiveExecRole(context.Context, uuid.UUID) (db.Term, error) {
	return db.Term{}, db.ErrNotFound
}

// fakeForms answers the form pages' reads: one hiring term (and the term
// before it), whether the caller holds an exec role in each, and the
// database's now.
type fakeForms struct {
	db.Querier
	term, prev       db.Term
	inTerm, inPrev   bool
	now              time.Time
	err              error // from every read
	noTerm, noPrevTm bool
	// ownPrev: the caller's active exec role is of the term before (the
	// President of the active term while the next is being hired for).
	ownPrev bool
}

// TermOfActiveExecRole is the term of the caller's active role: the term
// before with ownPrev, else the hiring term when they hold a role in it.
func (f fakeForms) TermOfActiveExecRole(context.Context, uuid.UUID) (db.Term, error) {
	switch {
	case f.err != nil:
		return db.Term{}, f.err
	case f.ownPrev:
		return f.prev, nil
	case f.inTerm:
		return f.term, nil
	}
	return db.Term{}, db.ErrNotFound
}

func (f fakeForms) TermHiring(context.Context) (db.Term, error) {
	if f.err != nil {
		return db.Term{}, f.err
	}
	if f.noTerm {
		return db.Term{}, db.ErrNotFound
	}
	return f.term, nil
}

func (f fakeForms) TermGet(_ context.Context, id uuid.UUID) (db.Term, error) {
	switch {
	case f.err != nil:
		return db.Term{}, f.err
	case id == f.term.ID:
		return f.term, nil
	case id == f.prev.ID:
		return f.prev, nil
	}
	return db.Term{}, db.ErrNotFound
}

func (f fakeForms) TermPrevious(_ context.Context, id uuid.UUID) (db.Term, error) {
	if id == f.term.ID && !f.noPrevTm {
		return f.prev, nil
	}
	return db.Term{}, db.ErrNotFound
}

func (f fakeForms) ExecRoleHeldInTerm(_ context.Context, arg db.ExecRoleHeldInTermParams) (bool, error) {
	switch {
	case arg.TermID == nil:
		return false, nil
	case *arg.TermID == f.term.ID:
		return f.inTerm, nil
	case *arg.TermID == f.prev.ID:
		return f.inPrev, nil
	}
	return false, nil
}

func (f fakeForms) DBNow(context.Context) (time.Time, error) { return f.now, nil }

// A form page that is closed to its caller answers 303 to the home page
// with a notice code and the ids it needs, never text: ?notice=form-closed
// with the form and the term whose window is closed (the page asks the
// API for the window's words); an open form, a caller the form is not
// for, an unknown or malformed term_id and a failed read serve the page.
func TestFormPagesRedirectWhenClosed(t *testing.T) {
	t.Parallel()
	member := &Principal{ProfileID: uuid.New(), Role: "member"}
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	term := db.Term{ID: uuid.New(), Name: "2026-2027",
		OnboardingOpensAt: at(24 * time.Hour), OnboardingClosesAt: at(48 * time.Hour),
		ReturningOpensAt: at(-48 * time.Hour), ReturningClosesAt: at(-24 * time.Hour)}
	open := term
	open.OnboardingOpensAt, open.OnboardingClosesAt = at(-time.Hour), at(time.Hour)
	open.ReturningOpensAt, open.ReturningClosesAt = at(-time.Hour), at(time.Hour)
	unscheduled := term
	unscheduled.OnboardingOpensAt, unscheduled.OnboardingClosesAt = nil, nil
	prev := db.Term{ID: uuid.New(), Name: "2025-2026", OnboardingOpensAt: at(-400 * time.Hour), OnboardingClosesAt: at(-200 * time.Hour)}
	notice := func(form string, term uuid.UUID) string {
		return "/?" + url.Values{"notice": {"form-closed"}, "form": {form}, "term": {term.String()}}.Encode()
	}

	for _, c := range []struct {
		name  string
		reads fakeForms
		path  string
		loc   string // "" is the page
	}{
		{"NotYetOpen", fakeForms{term: term, prev: prev, inTerm: true, now: now}, "/onboarding",
			notice("onboarding", term.ID)},
		{"ReturningClosed", fakeForms{term: term, prev: prev, inPrev: true, now: now}, "/onboarding/returning",
			notice("returning", term.ID)},
		{"NotScheduled", fakeForms{term: unscheduled, prev: prev, inTerm: true, now: now}, "/onboarding",
			notice("onboarding", term.ID)},
		{"ByTermID", fakeForms{term: term, prev: prev, inTerm: true, now: now}, "/onboarding?term_id=" + term.ID.String(),
			notice("onboarding", term.ID)},
		{"Open", fakeForms{term: open, prev: prev, inTerm: true, now: now}, "/onboarding", ""},
		// The President of the active term opens their own term's form,
		// not the hiring term's (which is not for them).
		{"OwnTerm", fakeForms{term: open, prev: prev, inPrev: true, ownPrev: true, now: now}, "/onboarding",
			notice("onboarding", prev.ID)},
		{"OwnTermReturning", fakeForms{term: term, prev: prev, inPrev: true, ownPrev: true, now: now}, "/onboarding/returning",
			notice("returning", term.ID)},
		{"ReturningOpen", fakeForms{term: open, prev: prev, inPrev: true, now: now}, "/onboarding/returning", ""},
		{"NotAnExec", fakeForms{term: term, prev: prev, now: now}, "/onboarding", ""},
		{"NotAnExecBefore", fakeForms{term: term, prev: prev, inTerm: true, now: now}, "/onboarding/returning", ""},
		{"NoTermBefore", fakeForms{term: term, prev: prev, inPrev: true, noPrevTm: true, now: now}, "/onboarding/returning", ""},
		{"NoTerm", fakeForms{noTerm: true, now: now}, "/onboarding", ""},
		{"UnknownTermID", fakeForms{term: term, prev: prev, inTerm: true, now: now}, "/onboarding?term_id=" + uuid.NewString(), ""},
		{"MalformedTermID", fakeForms{term: term, prev: prev, inTerm: true, now: now}, "/onboarding?term_id=nope", ""},
		{"ErrRead", fakeForms{err: errors.New("connection refused"), now: now}, "/onboarding", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newPageServer(t, member, testBuild(), c.reads)
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				w := do(s, method, c.path)
				loc := w.Header().Get("Location")
				if c.loc == "" {
					if w.Code != http.StatusOK || loc != "" {
						t.Errorf("%s %s = %d to %q, want the page", method, c.path, w.Code, loc)
					}
					continue
				}
				if w.Code != http.StatusSeeOther || loc != c.loc {
					t.Errorf("%s %s = %d to %q, want 303 to %q", method, c.path, w.Code, loc, c.loc)
				}
				if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
					t.Errorf("%s %s: Cache-Control %q", method, c.path, cc)
				}
			}
		})
	}
	// Signed out, the page asks to sign in first (the policy's answer).
	s := newPageServer(t, nil, testBuild(), fakeForms{term: term, prev: prev, now: now})
	if w := do(s, http.MethodGet, "/onboarding"); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login?next=%2Fonboarding" {
		t.Errorf("anonymous /onboarding = %d to %q", w.Code, w.Header().Get("Location"))
	}
}
