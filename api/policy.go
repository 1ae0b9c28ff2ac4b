package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
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
)

func (p Policy) String() string {
	return [...]string{"missing", "public", "authenticated", "admin", "superadmin", "VP", "President"}[p]
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
		return p.ExecPosition == "VP" || p.ExecPosition == "President"
	case President:
		return p.ExecPosition == "President"
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
// will reach, looks its policy up in the table and authenticates the caller
// when the policy needs one.
func (s *Server) enforce(mux *chi.Mux) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			pattern := mux.Find(chi.NewRouteContext(), r.Method, r.URL.Path)
			if pattern == "" { // 404 or 405: let the router answer
				next.ServeHTTP(w, r)
				return
			}
			policy := s.policies[r.Method+" "+pattern]
			if policy == policyMissing {
				writeError(w, r, apperr.New(apperr.Forbidden, "Forbidden"))
				return
			}
			p, err := s.auth.Authenticate(r)
			if err != nil && policy != Public {
				writeError(w, r, err)
				return
			}
			if policy != Public {
				if p == nil {
					writeError(w, r, apperr.New(apperr.Unauthorized, "Unauthorized"))
					return
				}
				if !p.Allows(policy) {
					writeError(w, r, apperr.New(apperr.Forbidden, "Forbidden"))
					return
				}
			}
			if p != nil {
				r = r.WithContext(context.WithValue(r.Context(), principalKey{}, p))
			}
			next.ServeHTTP(w, r)
		})
	}
}
