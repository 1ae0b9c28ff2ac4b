package e2e

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/api"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/membership"
)

// caller is one identity of the role matrix.
type caller struct {
	name  string
	role  string // profile role; "" for anonymous
	exec  string // exec position
	email string
}

var callers = []caller{
	{name: "anonymous"},
	{name: "member", role: "member", email: "member@example.com"},
	{name: "admin", role: "admin", email: "admin@example.com"},
	{name: "superadmin", role: "superadmin", email: "super@example.com"},
	{name: "VP", role: "member", exec: "VP", email: "vp@example.com"},
	{name: "President", role: "member", exec: "President", email: "president@example.com"},
	// A member who volunteers at the current edition's door.
	{name: "volunteer", role: "member", email: "volunteer@example.com"},
}

// allowed is the expected outcome of the policy table, written out here
// independently of the code under test.
var allowed = map[string]map[string]bool{
	"public":        {"anonymous": true, "member": true, "admin": true, "superadmin": true, "VP": true, "President": true, "volunteer": true},
	"webhook":       {"anonymous": true, "member": true, "admin": true, "superadmin": true, "VP": true, "President": true, "volunteer": true},
	"authenticated": {"member": true, "admin": true, "superadmin": true, "VP": true, "President": true, "volunteer": true},
	"checkin":       {"admin": true, "superadmin": true, "volunteer": true},
	"admin":         {"admin": true, "superadmin": true},
	"superadmin":    {"superadmin": true},
	"VP":            {"superadmin": true, "VP": true, "President": true},
	"President":     {"superadmin": true, "President": true},
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// TestRoleMatrix walks every route registered on the router with every kind
// of caller and checks the status class against the policy table. A route
// without a policy fails the test. Pages answer as pages: the page (200
// HTML) for a caller the policy allows (a POST: 303 back to the page),
// else a 303 to sign in (anonymous, with the path as next) or home (signed
// in without the role). Every page route is walked with every caller.
func TestRoleMatrix(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ids := map[string]uuid.UUID{}
	for _, c := range callers[1:] {
		p := testenv.Account(t, a.Store, testenv.AccountOpts{Email: c.email, Name: c.name, Password: "matrix-password", Role: c.role})
		if c.exec != "" {
			testenv.ExecRole(t, a.Store, p.ID, testenv.ExecRoleOpts{Position: c.exec, Subteam: "design"})
		}
		ids[c.name] = p.ID
	}
	if _, err := a.Store.Pool().Exec(context.Background(),
		`INSERT INTO hackathon_volunteers (hackathon_id, profile_id) VALUES (hackathon_current_id(), $1)`, ids["volunteer"]); err != nil {
		t.Fatal(err)
	}

	srv := api.New(api.Deps{Config: a.Config, Store: a.Store, Temporal: a.Temporal, Logger: a.Log})
	routes := 0
	err := chi.Walk(srv.Router(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes++
		policy, ok := srv.PolicyOf(method, route)
		if !ok {
			t.Errorf("%s %s has no policy in the route table", method, route)
			return nil
		}
		want, ok := allowed[policy.String()]
		if !ok {
			t.Errorf("%s %s has policy %v, which the matrix does not know", method, route, policy)
			return nil
		}
		path := pathParam.ReplaceAllStringFunc(route, func(string) string { return uuid.NewString() })
		path = strings.TrimSuffix(path, "/*")
		if route == "/api/admin/memberships/{id}" {
			// The QR link's signature is checked before the caller's
			// access to the membership: sign the made-up id.
			key, err := a.Config.SigningKeyBytes()
			if err != nil {
				t.Fatal(err)
			}
			id := strings.TrimPrefix(path, "/api/admin/memberships/")
			path += "?sig=" + membership.QRSigner(key).Sign(id)
		}
		if srv.IsPage(method, route) {
			for _, c := range callers {
				var bearer []string
				if c.role != "" {
					bearer = []string{"Authorization", "Bearer " + newSession(t, a.Store, ids[c.name])}
				}
				r := fetch(t, anon.base, method, path, bearer...)
				loc := r.Header.Get("Location")
				switch {
				case want[c.name] && method == http.MethodPost:
					// A form posted without its script: back to the page,
					// nothing processed (TestScriptlessPostToPages).
					if r.Status != http.StatusSeeOther || loc != path {
						t.Errorf("%s %s (%v) as %s = %d to %q, want 303 to the page", method, route, policy, c.name, r.Status, loc)
					}
				case want[c.name]:
					if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
						t.Errorf("%s %s (%v) as %s = %d %q, want the page", method, route, policy, c.name, r.Status, r.Header.Get("Content-Type"))
					}
				case c.role == "":
					if to := "/login?next=" + url.QueryEscape(path); r.Status != http.StatusSeeOther || loc != to {
						t.Errorf("%s %s (%v) as %s = %d to %q, want 303 to %s", method, route, policy, c.name, r.Status, loc, to)
					}
				default:
					if r.Status != http.StatusSeeOther || loc != "/" {
						t.Errorf("%s %s (%v) as %s = %d to %q, want 303 to /", method, route, policy, c.name, r.Status, loc)
					}
				}
			}
			return nil
		}
		for _, c := range callers {
			// The pages' assets are not API operations.
			cl := &client{t: t, base: anon.base, offSpec: srv.ServesWeb(method, route)}
			if c.role != "" {
				cl.token = newSession(t, a.Store, ids[c.name])
			}
			var body any
			if method == "POST" || method == "PATCH" || method == "PUT" {
				body = map[string]any{}
			}
			got := cl.do(method, path, body).Status
			switch {
			case want[c.name] && (got == 401 || got == 403):
				t.Errorf("%s %s (%v) as %s = %d, want access", method, route, policy, c.name, got)
			case !want[c.name] && c.role == "" && got != 401:
				t.Errorf("%s %s (%v) as %s = %d, want 401", method, route, policy, c.name, got)
			case !want[c.name] && c.role != "" && got != 403:
				t.Errorf("%s %s (%v) as %s = %d, want 403", method, route, policy, c.name, got)
			case got >= 500:
				t.Errorf("%s %s as %s = %d", method, route, c.name, got)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if routes < 10 {
		t.Fatalf("walked only %d routes", routes)
	}
}
