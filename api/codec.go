package api

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"go.temporal.io/sdk/converter"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/edge"
)

// The codec server: the Temporal Web UI and the temporal CLI post the
// encrypted payloads they show to /api/temporal/codec/decode (Temporal's
// remote codec protocol: {"payloads":[...]} in and out) and get them back
// in clear. Only superadmins may, with the session cookie (the UI's
// "include credentials" setting, from a same-site UI) or a bearer token
// (the UI's "pass access token", the CLI's --codec-auth). The browser
// reaches it from the UI's origin, TEMPORAL_UI_URL, which is the one origin
// these routes answer CORS for and accept a cookie from.

// codecPrefix is the routes' common path.
const codecPrefix = "/api/temporal/codec/"

// maxCodecBody caps a codec request: a page of a history's payloads.
const maxCodecBody = 4 << 20

// codecRoute reports whether a route of the policy table is one of the
// codec server's.
func codecRoute(route string) bool {
	_, pattern, _ := strings.Cut(route, " ")
	return strings.HasPrefix(pattern, codecPrefix)
}

// codecCrossSite is edge.CrossSite for the codec routes: the UI is
// another origin than the site (another port, or a sibling host), so a
// same-site request from exactly TEMPORAL_UI_URL's origin is the UI's own.
// A same-site request always names its origin (it is cross-origin), so one
// without an Origin is refused too.
func codecCrossSite(h http.Header, uiOrigin string) bool {
	sameSite := false
	if site := h.Values("Sec-Fetch-Site"); len(site) > 0 {
		switch strings.ToLower(strings.TrimSpace(site[0])) {
		case "same-origin", "none":
		case "same-site":
			sameSite = true
		default:
			return true
		}
	}
	if origins := h.Values("Origin"); len(origins) > 0 {
		return uiOrigin == "" || edge.CanonicalOrigin(origins[0]) != uiOrigin
	}
	return sameSite
}

// codecCORS answers CORS for the codec routes, to TEMPORAL_UI_URL's origin
// only: the headers go on every answer to it (refusals included, so the UI
// can read them). A preflight (OPTIONS) of a codec path is answered here,
// at the edge, 204 and nothing else: it carries no credentials and reaches
// no handler. Any other origin gets no CORS header, so its browser reads
// nothing.
func (s *Server) codecCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, codecPrefix) {
			next.ServeHTTP(w, r)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && s.edge.uiOrigin != "" && edge.CanonicalOrigin(o) == s.edge.uiOrigin {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", o)
			h.Set("Access-Control-Allow-Credentials", "true")
			if r.Method == http.MethodOptions {
				h.Set("Access-Control-Allow-Methods", "POST")
				h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, X-Namespace")
				h.Set("Access-Control-Max-Age", "600")
			}
		}
		w.Header().Add("Vary", "Origin")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// errNoCodec: a server built without the payload codec (tests of other
// routes) has nothing to decode with.
var errNoCodec = apperr.New(apperr.Unavailable, "Codec not configured")

// codec encodes or decodes a page of payloads with the server's payload
// codec. The namespace in the path, when given, must be this server's.
func (s *Server) codec(w http.ResponseWriter, r *http.Request) error {
	if s.payloadCodec == nil {
		return errNoCodec
	}
	if ns := chi.URLParam(r, "namespace"); ns != "" && ns != s.cfg.TemporalNamespace {
		return apperr.New(apperr.NotFound, "Unknown namespace")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCodecBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return apperr.WithMessage(apperr.TooLarge, "Request body too large", "At most 4 MiB of payloads at once")
		}
		return apperr.WithMessage(apperr.Invalid, "Invalid body", "The body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// The SDK's handler speaks the protocol: protojson payloads in and out,
	// 400 without detail when they do not decode.
	converter.NewPayloadCodecHTTPHandler(s.payloadCodec).ServeHTTP(w, r)
	return nil
}
