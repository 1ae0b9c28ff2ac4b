package api

import (
	"context"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"strings"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/edge"
)

// edgeConfig holds what the middleware in front of every handler needs
// from the configuration (the rules are package edge's): the proxies whose
// forwarding header is believed, the origin a browser request must come
// from, and whether answers pin https.
type edgeConfig struct {
	trusted []netip.Prefix
	origin  string // PUBLIC_URL's scheme://host[:port], lower case; "" when unset
	hsts    string // the Strict-Transport-Security value; "" over http
	coop    bool   // send Cross-Origin-Opener-Policy: the origin is trustworthy
}

// newEdge reads the edge settings. A TRUSTED_PROXIES that does not parse
// (config.Validate refuses it at start-up) trusts no proxy at all.
func newEdge(cfg config.Config, log *slog.Logger) edgeConfig {
	trusted, err := config.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		log.Error("ignoring TRUSTED_PROXIES: no proxy is trusted", "error", err)
		trusted = nil
	}
	return edgeConfig{trusted: trusted, origin: edge.CanonicalOrigin(cfg.PublicURL), hsts: edge.StrictTransport(cfg.PublicURL),
		coop: edge.Trustworthy(cfg.PublicURL)}
}

// --- Request ids ---

// requestID gives every request an id: the client's X-Request-Id when it
// is safe (edge.SafeRequestID), else a new UUID. The id is in the context (middleware.GetReqID)
// and on the response.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(middleware.RequestIDHeader)
		if !edge.SafeRequestID(id) {
			id = uuid.NewString()
			r.Header.Set(middleware.RequestIDHeader, id)
		}
		w.Header().Set(middleware.RequestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middleware.RequestIDKey, id)))
	})
}

// --- Response headers ---

// securityHeaders sets the headers every answer carries: no MIME sniffing,
// no Referer sent onwards, no powerful browser feature but the camera for
// this origin (edge.PermissionsPolicy), no window shared with another
// origin's (Cross-Origin-Opener-Policy, when the origin is one browsers
// apply it to: https or loopback, edge.Trustworthy), and HSTS when
// PUBLIC_URL is https (edge.StrictTransport). Answers about credentials and the
// caller's profile are also never stored by a cache (as are all answers of
// routes that need a signed-in caller: the policy gate marks those).
// Handlers may add to these (pages and the API reference page set their
// own Content-Security-Policy).
func (e edgeConfig) securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if e.coop {
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
		}
		h.Set("Permissions-Policy", edge.PermissionsPolicy)
		if e.hsts != "" {
			h.Set("Strict-Transport-Security", e.hsts)
		}
		if noStore(r.URL.Path) {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// noStore reports whether answers on path carry secrets or personal data
// that no cache may keep: everything under /api/auth and /api/profile.
func noStore(path string) bool {
	for _, p := range []string{"/api/auth", "/api/profile"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// --- Client address ---

// realIP sets r.RemoteAddr to the client's address (edge.ClientAddr), so
// that per-IP rate limits and the request log see the client rather than a
// proxy, and never an address the client chose.
func (e edgeConfig) realIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(e.trusted) > 0 {
			r.RemoteAddr = edge.ClientAddr(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), e.trusted)
		}
		next.ServeHTTP(w, r)
	})
}

// --- Cross-site requests ---

// unsafeMethod reports whether method may change state.
func unsafeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return false
	}
	return true
}

// cookieCredentials reports whether the request's credential is the session
// cookie: it carries the cookie and no Authorization header (a bearer token
// takes precedence over the cookie).
func cookieCredentials(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return false
	}
	c, err := r.Cookie(sessionCookie)
	return err == nil && c.Value != ""
}

var errCrossSite = apperr.WithMessage(apperr.Forbidden, "Forbidden",
	"A request signed in with the session cookie may change data only from the site itself; other clients send a bearer token")

// --- Request bodies ---

// multipartRoutes take a multipart/form-data body; every other route that
// takes a body takes JSON.
var multipartRoutes = map[string]bool{
	"POST /api/applications/resumes":          true,
	"POST /api/onboarding/headshot":           true,
	"POST /api/onboarding/returning/headshot": true,
	// The inbound-email provider posts a form, multipart or urlencoded.
	"POST /api/webhooks/membership": true,
	// Mail clients post the RFC 8058 one-click form, or nothing.
	"POST /api/unsubscribe": true,
}

var errNotJSON = apperr.WithMessage(apperr.Unsupported, "Unsupported media type", "Send the body as application/json")

// checkBodyType refuses (415) an unsafe request to a JSON route that
// carries a body that is not declared as JSON, whether or not its handler
// reads one; a body-less request needs no Content-Type. The multipart
// routes check their own type, and a page (a form posted to it is never
// read) takes any.
func checkBodyType(r *http.Request, route string, page bool) error {
	if !unsafeMethod(r.Method) || multipartRoutes[route] || page || !hasBody(r) {
		return nil
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return errNotJSON
	}
	return nil
}

// hasBody reports whether the request carries a body: a non-zero
// Content-Length, or a body of unknown length (chunked).
func hasBody(r *http.Request) bool {
	return r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody
}
