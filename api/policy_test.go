package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
)

// A route added to the router without a row in the policy table answers
// 403 to everyone, superadmins included.
func TestRouteWithoutPolicyIsForbidden(t *testing.T) {
	t.Parallel()
	s := New(Deps{Auth: fixedAuth{&Principal{Role: "superadmin"}}})
	mux := s.handler.(*chi.Mux)
	called := false
	mux.Get("/api/unlisted", func(w http.ResponseWriter, r *http.Request) { called = true })

	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/unlisted", nil))
	if w.Code != http.StatusForbidden || called {
		t.Fatalf("status = %d, handler called = %v; want 403 and not called", w.Code, called)
	}
}

func TestPrincipalAllows(t *testing.T) {
	t.Parallel()
	member := &Principal{Role: "member"}
	admin := &Principal{Role: "admin"}
	super := &Principal{Role: "superadmin"}
	vp := &Principal{Role: "member", ExecPosition: "VP", ExecSubteam: "design"}
	pres := &Principal{Role: "admin", ExecPosition: "President"}
	cases := []struct {
		p      *Principal
		policy Policy
		want   bool
	}{
		{member, Authenticated, true}, {member, Admin, false}, {member, VP, false},
		{admin, Admin, true}, {admin, Superadmin, false}, {admin, VP, false},
		{super, Superadmin, true}, {super, President, true}, {super, policyMissing, false},
		{vp, VP, true}, {vp, President, false}, {vp, Admin, false},
		{pres, VP, true}, {pres, President, true}, {pres, Superadmin, false},
	}
	for _, c := range cases {
		if got := c.p.Allows(c.policy); got != c.want {
			t.Errorf("%+v allows %v = %v, want %v", *c.p, c.policy, got, c.want)
		}
	}
}

type fixedAuth struct{ p *Principal }

func (f fixedAuth) Authenticate(*http.Request) (*Principal, error) { return f.p, nil }
