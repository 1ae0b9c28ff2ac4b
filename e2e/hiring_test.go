package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// hiringTermVia creates a term through the API and returns its id.
func hiringTermVia(t *testing.T, c *client, name, starts, ends string, active bool) uuid.UUID {
	t.Helper()
	var out struct {
		Term struct {
			ID uuid.UUID `json:"id"`
		} `json:"term"`
	}
	c.expect(201, "POST", "/api/admin/terms", map[string]any{"name": name, "starts_on": starts, "ends_on": ends, "active": active}).JSON(t, &out)
	return out.Term.ID
}

func hiringPosition(t *testing.T, c *client, term uuid.UUID, title, subteam, grants string) uuid.UUID {
	t.Helper()
	var out struct {
		Position struct {
			ID uuid.UUID `json:"id"`
		} `json:"position"`
	}
	c.expect(201, "POST", "/api/positions", map[string]any{"term_id": term, "title": title, "subteam": subteam, "grants": grants}).JSON(t, &out)
	return out.Position.ID
}

// execAccount makes an account holding an exec role of a term.
func execAccount(t *testing.T, a *app.App, email, role, exec, subteam string, term *uuid.UUID) uuid.UUID {
	t.Helper()
	id := account(t, a, email, strings.Split(email, "@")[0], role)
	testenv.ExecRole(t, a.Store, id, testenv.ExecRoleOpts{Position: exec, Subteam: subteam, Term: term})
	return id
}

// applyFor drafts an application for the account choosing the positions
// and submits it; it returns the selection ids by position.
func applyFor(t *testing.T, a *app.App, base *client, owner uuid.UUID, positions ...uuid.UUID) map[uuid.UUID]uuid.UUID {
	t.Helper()
	appID := seedApplication(t, a, owner, "draft")
	c := as(t, a, base, owner)
	c.expect(200, "PATCH", "/api/applications", map[string]any{"position_ids": positions})
	c.expect(200, "POST", "/api/applications/submit", nil)
	out := map[uuid.UUID]uuid.UUID{}
	for pos, sel := range testenv.Selections(t, a.Store, appID) {
		if sel.Status != "in_review" {
			t.Errorf("new selection is %s", sel.Status)
		}
		out[pos] = sel.ID
	}
	if len(out) != len(positions) {
		t.Fatalf("%d selections for %d positions", len(out), len(positions))
	}
	return out
}

func errorOf(t *testing.T, r response) (string, string) {
	t.Helper()
	m := r.Map(t)
	msg, _ := m["message"].(string)
	return m["error"].(string), msg
}

func countRows(t *testing.T, a *app.App, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTermRoutes covers the term routes: create, list, the one active
// term, window rules and moving the active flag.
func TestTermRoutes(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	member := as(t, a, anon, account(t, a, "m@example.com", "M", "member"))
	// The migration keeps no terms here; none is active yet.
	member.expect(404, "GET", "/api/terms/active", nil)
	first := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	second := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
	active := func() uuid.UUID {
		var out struct {
			Term struct {
				ID uuid.UUID `json:"id"`
			} `json:"term"`
		}
		member.expect(200, "GET", "/api/terms/active", nil).JSON(t, &out)
		return out.Term.ID
	}
	if active() != first {
		t.Fatal("first term not active")
	}
	super.expect(200, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{"active": true})
	if active() != second {
		t.Fatal("active flag did not move")
	}
	if n := countRows(t, a, `SELECT count(*) FROM terms WHERE active`); n != 1 {
		t.Errorf("%d active terms", n)
	}
	super.expect(409, "POST", "/api/admin/terms", map[string]any{"name": "2025-2026", "starts_on": "2030-01-01", "ends_on": "2030-12-31"})
	super.expect(400, "POST", "/api/admin/terms", map[string]any{"name": "x", "starts_on": "2030-01-01", "ends_on": "2029-12-31"})
	super.expect(400, "POST", "/api/admin/terms", map[string]any{"name": "x", "starts_on": "2030-01-01"})
	super.expect(400, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{
		"onboarding_opens_at": "2026-09-10T00:00:00Z", "onboarding_closes_at": "2026-09-01T00:00:00Z"})
	super.expect(400, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{"onboarding_opens_at": "2026-09-10T00:00:00Z"})
	super.expect(400, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{"active": false})
	var out struct {
		Term map[string]any `json:"term"`
	}
	super.expect(200, "PATCH", "/api/admin/terms/"+second.String(), map[string]any{
		"onboarding_opens_at": "2026-09-01T00:00:00Z", "onboarding_closes_at": "2026-09-10T00:00:00Z"}).JSON(t, &out)
	if out.Term["onboarding_closes_at"] == nil || out.Term["active"] != true {
		t.Errorf("patched term %v", out.Term)
	}
	super.expect(404, "PATCH", "/api/admin/terms/"+uuid.NewString(), map[string]any{"name": "y"})
	var terms struct {
		Terms    []map[string]any `json:"terms"`
		Total    int              `json:"total"`
		Page     int              `json:"page"`
		PageSize int              `json:"page_size"`
	}
	super.expect(200, "GET", "/api/admin/terms", nil).JSON(t, &terms)
	if len(terms.Terms) != 2 || terms.Terms[0]["name"] != "2026-2027" || terms.Total != 2 || terms.Page != 1 || terms.PageSize != 25 {
		t.Errorf("terms %+v", terms)
	}
	super.expect(200, "GET", "/api/admin/terms?page=2&page_size=10", nil).JSON(t, &terms)
	if len(terms.Terms) != 0 || terms.Total != 2 || terms.Page != 2 || terms.PageSize != 10 {
		t.Errorf("terms page 2 %+v", terms)
	}
	super.expect(400, "GET", "/api/admin/terms?page_size=5", nil)
	member.expect(403, "GET", "/api/admin/terms", nil)
}

// TestPositionRoutes covers positions without a hiring round.
func TestPositionRoutes(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	anon.expect(200, "GET", "/api/positions", nil) // no term yet: an empty list
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	pres := as(t, a, anon, execAccount(t, a, "p@example.com", "member", "President", "Board", &term))
	vp := as(t, a, anon, execAccount(t, a, "v@example.com", "member", "VP", "Tech", &term))
	pres.expect(400, "POST", "/api/positions", map[string]any{"title": "Dev", "subteam": "Tech", "grants": "admin"})
	pres.expect(400, "POST", "/api/positions", map[string]any{"title": "Dev"})
	vp.expect(403, "POST", "/api/positions", map[string]any{"title": "Dev", "subteam": "Tech", "grants": "exec"})
	var out struct {
		Position map[string]any `json:"position"`
	}
	pres.expect(201, "POST", "/api/positions", map[string]any{"title": "Dev", "subteam": "Tech", "grants": "exec"}).JSON(t, &out)
	if out.Position["term_id"] != term.String() || out.Position["open"] != true {
		t.Errorf("position %v", out.Position)
	}
	id := out.Position["id"].(string)
	pres.expect(200, "PATCH", "/api/positions/"+id, map[string]any{"open": false, "description": "Builds things"})
	var list struct {
		Positions []map[string]any `json:"positions"`
	}
	anon.expect(200, "GET", "/api/positions", nil).JSON(t, &list)
	if len(list.Positions) != 0 {
		t.Errorf("a closed position is public: %v", list.Positions)
	}
	pres.expect(200, "GET", "/api/positions?term_id="+term.String(), nil).JSON(t, &list)
	if len(list.Positions) != 1 || list.Positions[0]["description"] != "Builds things" {
		t.Errorf("President's list %v", list.Positions)
	}
	anon.expect(400, "GET", "/api/positions?term_id=nope", nil)
	pres.expect(200, "DELETE", "/api/positions/"+id, nil)
	pres.expect(404, "PATCH", "/api/positions/"+id, map[string]any{"open": true})
}
