package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/edge"
)

// Policy is who may call a route. Every route declares one in the route
// table; a route without one answers 403.
type Policy int

const (
	policyMissing Policy = iota
	Public
	Authenticated
	Admin
	Superadmin
	VP
	President
	// Checkin is the event day's door: admins, and the volunteers of the
	// current edition, who may use nothing else.
	Checkin
)

func (p Policy) String() string {
	return [...]string{"missing", "public", "authenticated", "admin", "superadmin", "VP", "President", "checkin"}[p]
}

// Principal is the signed-in caller, loaded fresh on every request so that
// role changes apply to the next request.
type Principal struct {
	ProfileID    uuid.UUID
	SessionID    uuid.UUID
	Email        string
	Role         string // member, admin or superadmin
	ExecPosition string // President, VP or empty
	ExecSubteam  string
	// Volunteer: the caller volunteers at the current edition's door.
	Volunteer bool
}

// IsAdmin reports whether the role is admin or superadmin.
func (p *Principal) IsAdmin() bool { return p.Role == "admin" || p.Role == "superadmin" }

// Allows reports whether p passes policy.
func (p *Principal) Allows(policy Policy) bool {
	if p.Role == "superadmin" && policy != policyMissing {
		return true
	}
	switch policy {
	case Public, Authenticated:
		return true
	case Admin:
		return p.IsAdmin()
	case VP:
		return p.ExecPosition == term.PositionVP || p.ExecPosition == term.PositionPresident
	case President:
		return p.ExecPosition == term.PositionPresident
	case Checkin:
		return p.IsAdmin() || p.Volunteer
	}
	return false
}

// Authenticator finds the caller of a request. It returns (nil, nil) when
// the request carries no credentials and an Unauthorized error when it
// carries bad ones (unknown, expired or revoked).
type Authenticator interface {
	Authenticate(r *http.Request) (*Principal, error)
}

type principalKey struct{}

// principalFrom returns the caller put in the context by the policy
// middleware; nil on public routes without credentials.
func principalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// enforce is the deny-by-default gate. It resolves the route the request
// will reach, on exactly the path and method the router matches (see
// routePath), looks its policy up in the table, marks every answer of a
// non-public route Cache-Control: no-store, refuses cross-site unsafe
// requests signed in with the cookie, authenticates the caller when the
// policy needs one and checks the body's type. The route it resolved goes
// into the context, and each handler runs only under that route (gated),
// so a request the gate did not resolve to a route reaches no handler.
func (s *Server) enforce(mux *chi.Mux) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			method, path := routePath(r)
			pattern := mux.Find(chi.NewRouteContext(), method, path)
			if pattern == "" { // 404 or 405: let the router answer
				next.ServeHTTP(w, r)
				return
			}
			route := method + " " + pattern
			policy := s.policies[route]
			if policy == policyMissing {
				writeError(w, r, apperr.New(apperr.Forbidden, "Forbidden"))
				return
			}
			if policy != Public {
				// A signed-in route's answers carry personal data or
				// signed links (applications, memberships, admin views,
				// exports): no cache may keep them. A handler may still
				// set its own (a page's HTML shell).
				w.Header().Set("Cache-Control", "no-store")
			}
			// A cookie on a cross-site request that changes state is not a
			// credential: refused where a caller is needed, ignored on
			// public routes.
			cookieOnly := unsafeMethod(r.Method) && cookieCredentials(r) && s.crossSite(r.Header, route)
			if cookieOnly && policy != Public {
				writeError(w, r, errCrossSite)
				return
			}
			// A refusal on a page is a redirect (refuse).
			var p *Principal
			if !cookieOnly {
				var err error
				p, err = s.auth.Authenticate(r)
				if err != nil && policy != Public {
					s.refuse(w, r, route, err)
					return
				}
			}
			if policy != Public {
				if p == nil {
					s.refuse(w, r, route, apperr.New(apperr.Unauthorized, "Unauthorized"))
					return
				}
				if !p.Allows(policy) {
					s.refuse(w, r, route, apperr.New(apperr.Forbidden, "Forbidden"))
					return
				}
			}
			// A page's POST is a form posted without its script, answered
			// without reading it (scriptlessPost): any body type.
			if err := checkBodyType(r, route, s.pageRoute[route]); err != nil {
				writeError(w, r, err)
				return
			}
			ctx := context.WithValue(r.Context(), gateKey{}, route)
			if p != nil {
				ctx = context.WithValue(ctx, principalKey{}, p)
			}
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// crossSite reports whether a request comes from another site than the
// one that may use route with the cookie: the site's own origin, or for
// the codec server the Temporal UI's (codecCrossSite).
func (s *Server) crossSite(h http.Header, route string) bool {
	if codecRoute(route) {
		return codecCrossSite(h, s.edge.uiOrigin)
	}
	return edge.CrossSite(h, s.edge.origin)
}

// routePath returns the method and path the router matches a request on,
// as chi's Mux.routeHTTP picks them: the sub-router's remaining path when
// there is one, else the escaped path (RawPath) when the URL has one, else
// the decoded path. Resolving the policy on the decoded path instead would
// let "/api/admin/applications/a%2Fb" pass the gate as an unknown route and
// reach the handler of "/api/admin/applications/{id}".
func routePath(r *http.Request) (method, path string) {
	method = r.Method
	rctx := chi.RouteContext(r.Context())
	if rctx != nil {
		path = rctx.RoutePath
		if rctx.RouteMethod != "" {
			method = rctx.RouteMethod
		}
	}
	if path == "" {
		path = r.URL.RawPath
		if path == "" {
			path = r.URL.Path
		}
		if path == "" {
			path = "/"
		}
	}
	return method, path
}

type gateKey struct{}

// gated runs h only for a request the gate resolved to route; anything else
// (a request the router matched on another path than the gate did) is a
// 404, logged, and never reaches h.
func (s *Server) gated(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got, _ := r.Context().Value(gateKey{}).(string); got != route {
			s.log.ErrorContext(r.Context(), "request reached a handler the policy gate did not resolve",
				"route", route, "gate", got, "path", r.URL.EscapedPath())
			writeError(w, r, apperr.New(apperr.NotFound, "Not found"))
			return
		}
		h.ServeHTTP(w, r)
	})
}
