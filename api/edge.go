package api

import (
	"context"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/config"
)

// edge holds what the middleware in front of every handler needs from the
// configuration: the proxies whose forwarding header is believed and the
// origin a browser request must come from.
type edge struct {
	trusted []netip.Prefix
	origin  string // PUBLIC_URL's scheme://host[:port], lower case; "" when unset
}

// newEdge reads the edge settings. A TRUSTED_PROXIES that does not parse
// (config.Validate refuses it at start-up) trusts no proxy at all.
func newEdge(cfg config.Config, log *slog.Logger) edge {
	trusted, err := config.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		log.Error("ignoring TRUSTED_PROXIES: no proxy is trusted", "error", err)
		trusted = nil
	}
	return edge{trusted: trusted, origin: canonicalOrigin(cfg.PublicURL)}
}

// --- Request ids ---

// maxRequestIDLen is the longest client X-Request-Id that is kept.
const maxRequestIDLen = 64

// safeRequestID reports whether a client's X-Request-Id may be kept: 1 to
// 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'. Anything else could
// forge log lines or carry markup, and is replaced.
func safeRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// requestID gives every request an id: the client's X-Request-Id when it
// is safe, else a new UUID. The id is in the context (middleware.GetReqID)
// and on the response.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(middleware.RequestIDHeader)
		if !safeRequestID(id) {
			id = uuid.NewString()
			r.Header.Set(middleware.RequestIDHeader, id)
		}
		w.Header().Set(middleware.RequestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middleware.RequestIDKey, id)))
	})
}

// --- Response headers ---

// securityHeaders sets the headers every answer carries: no MIME sniffing
// and no Referer sent onwards. Answers about credentials and the caller's
// profile are also never stored by a cache (as are all answers of routes
// that need a signed-in caller: the policy gate marks those). Handlers may
// add to these (the API reference page sets its own
// Content-Security-Policy).
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
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

// realIP sets r.RemoteAddr to the client's address (see clientAddr), so
// that per-IP rate limits and the request log see the client rather than a
// proxy, and never an address the client chose.
func (e edge) realIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(e.trusted) > 0 {
			r.RemoteAddr = clientAddr(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), e.trusted)
		}
		next.ServeHTTP(w, r)
	})
}

// clientAddr returns the client's address for a request from peer (the
// connection's host:port) with the given X-Forwarded-For header lines.
//
// Only a peer inside a trusted prefix may speak for someone else. Then the
// X-Forwarded-For hops are walked from the right (the hop the nearest proxy
// appended) and the first address that is not a trusted proxy is the
// client. Every hop to its left was written by that client, and is ignored.
// If every hop is trusted, the left-most one is the client; if a hop is not
// an IP address, the walk stops at the last address it had reached. An
// untrusted peer, or one without forwarding header, is answered unchanged.
// X-Real-IP, True-Client-IP and Forwarded are never read.
func clientAddr(peer string, xff []string, trusted []netip.Prefix) string {
	addr, ok := parseHop(peer)
	if !ok || !isTrusted(addr, trusted) {
		return peer
	}
	var hops []string
	for _, line := range xff {
		hops = append(hops, strings.Split(line, ",")...)
	}
	client := addr
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := parseHop(strings.TrimSpace(hops[i]))
		if !ok {
			break
		}
		client = hop
		if !isTrusted(hop, trusted) {
			break
		}
	}
	if client == addr {
		return peer
	}
	return client.String()
}

// parseHop reads an address as X-Forwarded-For or RemoteAddr carry it:
// "1.2.3.4", "2001:db8::1", "1.2.3.4:5678" or "[2001:db8::1]:5678". The
// zone is dropped and an IPv4-mapped IPv6 address becomes IPv4.
func parseHop(s string) (netip.Addr, bool) {
	if s == "" {
		return netip.Addr{}, false
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return a.WithZone("").Unmap(), true
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
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

// crossSite reports whether a browser sent the request from a page of
// another origin. Sec-Fetch-Site says so directly ("same-origin" and "none",
// a user's own navigation, pass; "cross-site", "same-site" and any value
// browsers do not send are refused); an Origin header, sent by browsers on
// unsafe requests, must then be the API's own (PUBLIC_URL's). A request
// with neither header is not from a browser and passes.
func (e edge) crossSite(r *http.Request) bool {
	if site := r.Header.Values("Sec-Fetch-Site"); len(site) > 0 {
		switch strings.ToLower(strings.TrimSpace(site[0])) {
		case "same-origin", "none":
		default:
			return true
		}
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		if e.origin == "" || canonicalOrigin(origins[0]) != e.origin {
			return true
		}
	}
	return false
}

// canonicalOrigin returns the scheme://host[:port] of an absolute http(s)
// URL in lower case, without a default port; "" for anything else
// (including the opaque origin "null").
func canonicalOrigin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.User != nil {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

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
// routes check their own type.
func checkBodyType(r *http.Request, route string) error {
	if !unsafeMethod(r.Method) || multipartRoutes[route] || !hasBody(r) {
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
