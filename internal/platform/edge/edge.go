// Package edge holds the rules a request meets at the service's edge,
// before any handler: which X-Request-Id a client may choose, which
// address is the client's behind trusted proxies, and which browser
// requests come from another site. The API's middleware applies them.
package edge

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// MaxRequestID is the longest client X-Request-Id that is kept.
const MaxRequestID = 64

// SafeRequestID reports whether a client's X-Request-Id may be kept: 1 to
// 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'. Anything else could
// forge log lines or carry markup, and is replaced.
func SafeRequestID(id string) bool {
	if id == "" || len(id) > MaxRequestID {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// ClientAddr returns the client's address for a request from peer (the
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
func ClientAddr(peer string, xff []string, trusted []netip.Prefix) string {
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

// CrossSite reports whether a browser sent a request with header h from a
// page of another origin than origin (a CanonicalOrigin; "" is none). Sec-Fetch-Site says so directly ("same-origin" and "none",
// a user's own navigation, pass; "cross-site", "same-site" and any value
// browsers do not send are refused); an Origin header, sent by browsers on
// unsafe requests, must then be origin. A request
// with neither header is not from a browser and passes.
func CrossSite(h http.Header, origin string) bool {
	if site := h.Values("Sec-Fetch-Site"); len(site) > 0 {
		switch strings.ToLower(strings.TrimSpace(site[0])) {
		case "same-origin", "none":
		default:
			return true
		}
	}
	if origins := h.Values("Origin"); len(origins) > 0 {
		if origin == "" || CanonicalOrigin(origins[0]) != origin {
			return true
		}
	}
	return false
}

// CanonicalOrigin returns the scheme://host[:port] of an absolute http(s)
// URL in lower case, without a default port; "" for anything else
// (including the opaque origin "null").
func CanonicalOrigin(raw string) string {
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

// Trustworthy reports whether a browser treats the origin of publicURL as
// potentially trustworthy (the secure-context rule): https, or http on a
// loopback host (localhost, 127.0.0.0/8, ::1). Browsers apply
// Cross-Origin-Opener-Policy only there, and log an error for it
// anywhere else.
func Trustworthy(publicURL string) bool {
	origin := CanonicalOrigin(publicURL)
	if strings.HasPrefix(origin, "https://") {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.IsLoopback()
}

// PermissionsPolicy is the Permissions-Policy every answer carries: the
// camera for this origin only (a check-in page will scan tickets with it),
// and none of the other powerful features the service never uses, for
// any origin (a framed or injected script included).
const PermissionsPolicy = "camera=(self), microphone=(), geolocation=(), payment=(), usb=()"

// HSTSMaxAge is the Strict-Transport-Security of a service reached over
// https: a year, this host only (no includeSubDomains: sibling hosts, such
// as a Temporal UI, are not ours to pin; no preload).
const HSTSMaxAge = "max-age=31536000"

// StrictTransport returns the Strict-Transport-Security value for a
// service whose public URL is publicURL: HSTSMaxAge when it is https, ""
// (no header) otherwise, since a browser ignores HSTS over http and a
// development stack on http must stay reachable.
func StrictTransport(publicURL string) string {
	if strings.HasPrefix(CanonicalOrigin(publicURL), "https://") {
		return HSTSMaxAge
	}
	return ""
}
