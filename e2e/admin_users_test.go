package e2e

import (
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"
)

// adminUserJSON is an account as GET /api/admin/users shows it.
type adminUserJSON struct {
	ID             uuid.UUID `json:"id"`
	Email          string    `json:"email"`
	DisplayName    *string   `json:"display_name"`
	Role           string    `json:"role"`
	EmailConfirmed bool      `json:"email_confirmed"`
	ExecRole       *struct {
		Position string     `json:"position"`
		Subteam  *string    `json:"subteam"`
		TermID   *uuid.UUID `json:"term_id"`
	} `json:"exec_role"`
}

type adminUsersPage struct {
	Items    []adminUserJSON `json:"items"`
	Total    int             `json:"total"`
	Page     int             `json:"page"`
	PageSize int             `json:"page_size"`
}

func listAdminUsers(t *testing.T, c *client, query string) adminUsersPage {
	t.Helper()
	var out adminUsersPage
	c.expect(http.StatusOK, "GET", "/api/admin/users"+query, nil).JSON(t, &out)
	return out
}

func (p adminUsersPage) emails() []string {
	var out []string
	for _, u := range p.Items {
		out = append(out, u.Email)
	}
	return out
}

// expectError checks an error answer's title and, when given, that its
// details name exactly these fields.
func expectError(t *testing.T, r response, title string, fields ...string) {
	t.Helper()
	var body struct {
		Error   string            `json:"error"`
		Details map[string]string `json:"details"`
	}
	r.JSON(t, &body)
	var got []string
	for f := range body.Details {
		got = append(got, f)
	}
	slices.Sort(got)
	slices.Sort(fields)
	if body.Error != title || (len(fields) > 0 && !slices.Equal(got, fields)) {
		t.Fatalf("error %s, want %q with details %v", r.Body, title, fields)
	}
}

func TestAdminUsers(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	rootID := account(t, a, "root@example.com", "Root", "superadmin")
	adminID := account(t, a, "admin@example.com", "Grace Admin", "admin")
	memberID := account(t, a, "member@example.com", "Alan Member", "member")
	adaID := account(t, a, "ada@example.com", "Ada Lovelace", "member")
	root := as(t, a, anon, rootID)
	users := "/api/admin/users/"

	// Who may call: a superadmin only.
	anon.expect(http.StatusUnauthorized, "GET", "/api/admin/users", nil)
	anon.expect(http.StatusUnauthorized, "PATCH", users+adaID.String(), map[string]any{"role": "admin"})
	for _, id := range []uuid.UUID{adminID, memberID} {
		c := as(t, a, anon, id)
		c.expect(http.StatusForbidden, "GET", "/api/admin/users", nil)
		c.expect(http.StatusForbidden, "PATCH", users+adaID.String(), map[string]any{"role": "admin"})
	}

	// The list, by email; search and role filter.
	all := listAdminUsers(t, root, "")
	if want := []string{"ada@example.com", "admin@example.com", "member@example.com", "root@example.com"}; !slices.Equal(all.emails(), want) ||
		all.Total != 4 || all.Page != 1 || all.PageSize != 25 {
		t.Fatalf("the list: %+v", all)
	}
	if p := listAdminUsers(t, root, "?q=LOVE"); !slices.Equal(p.emails(), []string{"ada@example.com"}) || p.Total != 1 ||
		!p.Items[0].EmailConfirmed || *p.Items[0].DisplayName != "Ada Lovelace" || p.Items[0].Role != "member" || p.Items[0].ExecRole != nil {
		t.Fatalf("search by name: %+v", p)
	}
	if p := listAdminUsers(t, root, "?q=%25"); p.Total != 0 {
		t.Fatalf("%% matched: %+v", p)
	}
	if p := listAdminUsers(t, root, "?role=admin&q=example"); !slices.Equal(p.emails(), []string{"admin@example.com"}) {
		t.Fatalf("role filter: %+v", p)
	}
	if p := listAdminUsers(t, root, "?page=2&page_size=10"); len(p.Items) != 0 || p.Total != 4 || p.Page != 2 || p.PageSize != 10 {
		t.Fatalf("page 2: %+v", p)
	}
	expectError(t, root.expect(http.StatusBadRequest, "GET", "/api/admin/users?role=owner&page_size=5", nil),
		"Validation failed", "page_size", "role")

	// A role and an exec role of the active term; the account's profile
	// shows them.
	term := hiringTermVia(t, root, "2025-2026", "2025-09-01", "2026-08-31", true)
	var u adminUserJSON
	root.expect(http.StatusOK, "PATCH", users+adaID.String(), map[string]any{
		"role": "admin", "exec": map[string]any{"position": "VP", "subteam": " Design ", "term_id": term}}).JSON(t, &u)
	if u.ID != adaID || u.Role != "admin" || u.ExecRole == nil || u.ExecRole.Position != "VP" || *u.ExecRole.Subteam != "Design" || *u.ExecRole.TermID != term {
		t.Fatalf("the patched account: %+v", u)
	}
	ada := as(t, a, anon, adaID)
	var prof adminUserJSON
	ada.expect(http.StatusOK, "GET", "/api/profile", nil).JSON(t, &prof)
	if prof.Role != "admin" || prof.ExecRole == nil || prof.ExecRole.Position != "VP" || *prof.ExecRole.TermID != term {
		t.Fatalf("the account's profile: %+v", prof)
	}
	if p := listAdminUsers(t, root, "?q=ada@"); p.Items[0].ExecRole == nil || p.Items[0].Role != "admin" {
		t.Fatalf("the list after the patch: %+v", p)
	}
	ada.expect(http.StatusForbidden, "GET", "/api/admin/users", nil) // admin, not superadmin
	root.expect(http.StatusOK, "PATCH", users+adaID.String(), map[string]any{"exec": nil}).JSON(t, &u)
	if u.ExecRole != nil || u.Role != "admin" {
		t.Fatalf("exec null: %+v", u)
	}
	ada.expect(http.StatusOK, "GET", "/api/profile", nil).JSON(t, &prof)
	if prof.ExecRole != nil {
		t.Fatalf("the profile keeps the exec role: %+v", prof.ExecRole)
	}

	// Bad bodies, unknown account and term.
	expectError(t, root.expect(http.StatusBadRequest, "PATCH", users+adaID.String(), map[string]any{
		"role": "owner", "exec": map[string]any{"position": "VP", "term_id": "x"}}),
		"Validation failed", "exec.subteam", "exec.term_id", "role")
	expectError(t, root.expect(http.StatusBadRequest, "PATCH", users+adaID.String(), map[string]any{
		"exec": map[string]any{"position": "Exec", "term_id": term, "rank": 1}}), "Validation failed", "exec.rank")
	expectError(t, root.expect(http.StatusBadRequest, "PATCH", users+adaID.String(), map[string]any{"role": nil}),
		"Validation failed", "role")
	expectError(t, root.expect(http.StatusNotFound, "PATCH", users+uuid.NewString(), map[string]any{"role": "admin"}), "User not found")
	expectError(t, root.expect(http.StatusNotFound, "PATCH", users+"not-a-uuid", map[string]any{"role": "admin"}), "User not found")
	expectError(t, root.expect(http.StatusNotFound, "PATCH", users+adaID.String(), map[string]any{
		"exec": map[string]any{"position": "President", "term_id": uuid.New()}}), "Term not found")

	// The last superadmin stays one; with two, one may step down.
	expectError(t, root.expect(http.StatusConflict, "PATCH", users+rootID.String(), map[string]any{"role": "admin"}), "Last superadmin")
	root.expect(http.StatusOK, "PATCH", users+adaID.String(), map[string]any{"role": "superadmin"})
	root.expect(http.StatusOK, "PATCH", users+rootID.String(), map[string]any{"role": "member"}).JSON(t, &u)
	if u.Role != "member" {
		t.Fatalf("root stepping down: %+v", u)
	}
	root.expect(http.StatusForbidden, "GET", "/api/admin/users", nil) // the change applies to the next request
	expectError(t, ada.expect(http.StatusConflict, "PATCH", users+adaID.String(), map[string]any{"role": "member"}), "Last superadmin")
	if p := listAdminUsers(t, ada, "?role=superadmin"); !slices.Equal(p.emails(), []string{"ada@example.com"}) {
		t.Fatalf("superadmins: %+v", p)
	}
}
