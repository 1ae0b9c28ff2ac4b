// Package api is hackdesk's HTTP interface: a chi router, one file per
// resource, the policy table and the JSON helpers.
package api

import (
	"context"
	_ "embed"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"hackdesk/db"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/codehost"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/idempotency"
	"hackdesk/internal/platform/metrics"
	"hackdesk/internal/platform/ratelimit"
	"hackdesk/internal/platform/receipts"
	"hackdesk/internal/platform/searchattrs"
	"hackdesk/internal/platform/signing"
	"hackdesk/internal/platform/slots"
	"hackdesk/internal/platform/storage"
	"hackdesk/web"
)

//go:embed openapi.yaml
var openAPISpec []byte

// OpenAPISpec returns the API description served at /api/openapi.yaml.
func OpenAPISpec() []byte { return openAPISpec }

// Deps are the server's collaborators.
type Deps struct {
	Config   config.Config
	Store    *db.Store
	Temporal client.Client
	Blob     *storage.Store
	Auth     Authenticator // nil means sessions in the store
	// SessionCacheTTL is how long a session read from the store is reused
	// by this process: zero means SessionCacheTTL (the constant), negative
	// means every request reads its session. At most one second.
	SessionCacheTTL time.Duration
	Logger          *slog.Logger
	Limits          *RateLimits // nil means ratelimit.Defaults
	// Reads serves the leaderboard's queries and the page guards' reads;
	// nil means Store. Tests wrap it to make one part fail.
	Reads db.Querier
	// CodeHost serves the Foundry routes; nil means none is configured and
	// they answer 503.
	CodeHost *codehost.Client
	// DKIMLookup finds shops' DKIM keys for the membership webhook; nil
	// means DKIM_TXT_FILE when set, else DNS.
	DKIMLookup receipts.LookupTXT
	// Web is the front end's build the pages and assets are served from;
	// nil means the directory Config.WebDir (WEB_DIR) when set, read on
	// every request, else the build embedded in the binary.
	Web fs.FS
	// Metrics counts requests (by route pattern), rate-limit refusals and
	// webhook outcomes; nil counts nothing.
	Metrics *metrics.Metrics
	// Tracer traces each request (one span, named by its route); nil
	// means tracing is off.
	Tracer trace.TracerProvider
	// Codec is the Temporal payload codec the codec server (codec.go)
	// encodes and decodes with; nil: those routes answer 503.
	Codec converter.PayloadCodec
	// SearchAttributes checks that the Temporal namespace knows the
	// workflows' search attributes (/readyz); nil leaves the check out.
	SearchAttributes *searchattrs.Checker
}

// Server serves the API.
type Server struct {
	cfg      config.Config
	store    *db.Store
	temporal client.Client
	blob     *storage.Store
	reads    db.Querier
	auth     Authenticator
	// sessions is sessionAuth's cache (nil when off or when Deps.Auth
	// replaced it); handlers that change sessions, roles or accounts clear it.
	sessions *sessionCache
	log      *slog.Logger
	policies map[string]Policy
	handler  http.Handler
	// entry is handler, in a span per request when tracing is on.
	entry    http.Handler
	edge     edgeConfig
	limits   ratelimit.Limiters
	codehost *codehost.Client
	// qrSigner signs membership QR links; dkimLookup finds shops' DKIM
	// keys (nil: the webhook answers 503).
	qrSigner signing.Signer
	// ticketSigner signs the event day's ticket links.
	ticketSigner signing.Signer
	dkimLookup   receipts.LookupTXT
	// queueSizes keeps the review queue's size per edition and cap while
	// the queue's generation stands (review.Left).
	queueSizes review.QueueSizes
	// webhooks bounds the membership webhook posts handled at once, so
	// that a storm of them (each holding a database connection while it
	// stores, verifies and claims a receipt) cannot take every connection
	// from the rest of the API: the provider retries a 503.
	webhooks *slots.Slots
	// uploads bounds the uploads (resume, headshot) one account runs at
	// once: each holds its file in memory while it is read.
	uploads *slots.PerKey
	// idem runs the requests that carry an Idempotency-Key once.
	idem *idempotency.Keys
	// web serves the front end's files; pageRoute marks the routes of the
	// policy table that are pages (IsPage); webCSP is their
	// Content-Security-Policy.
	web       *web.Files
	pageRoute map[string]bool
	webCSP    string
	metrics   *metrics.Metrics
	// payloadCodec serves the codec routes.
	payloadCodec converter.PayloadCodec
	// searchAttrs checks the namespace's search attributes for /readyz.
	searchAttrs *searchattrs.Checker
	// window counts the last hour's requests and 5xx answers for the
	// operator's page (requestLog feeds it).
	window metrics.RequestWindow
}

// New builds the router.
func New(d Deps) *Server {
	s := &Server{
		cfg:       d.Config,
		store:     d.Store,
		temporal:  d.Temporal,
		blob:      d.Blob,
		reads:     d.Reads,
		auth:      d.Auth,
		log:       d.Logger,
		policies:  map[string]Policy{},
		codehost:  d.CodeHost,
		pageRoute: map[string]bool{},
		webCSP:    newWebCSP(d.Config),
		metrics:   d.Metrics,

		searchAttrs:  d.SearchAttributes,
		payloadCodec: d.Codec,
	}
	if s.auth == nil {
		ttl := d.SessionCacheTTL
		if ttl == 0 || ttl > time.Second {
			ttl = SessionCacheTTL
		}
		s.sessions = newSessionCache(ttl)
		s.auth = sessionAuth{store: d.Store, cache: s.sessions}
	}
	if s.reads == nil && d.Store != nil {
		s.reads = d.Store.Queries
	}
	limits := ratelimit.Defaults
	if d.Limits != nil {
		limits = *d.Limits
	}
	s.limits = ratelimit.NewCounted(limits, d.Store, d.Logger, d.Metrics)
	if s.log == nil {
		s.log = slog.Default()
	}
	s.qrSigner, s.dkimLookup = s.signers(d)
	s.ticketSigner = s.ticketSignerOf(d)
	s.idem = idempotency.New(d.Store, s.log)
	s.webhooks = slots.New(d.Config.WebhookConcurrency, webhookGateWait)
	s.uploads = slots.NewPerKey(maxUploadsPerAccount)
	s.web = s.webBuild(d)
	s.edge = newEdge(d.Config, s.log)
	r := chi.NewRouter()
	if d.Metrics != nil {
		r.Use(d.Metrics.HTTP) // first: it times and counts every answer
	}
	if d.Tracer != nil {
		r.Use(routeSpanName)
	}
	// The edge, in order: the server's logger in the request's context
	// (for writeError), the request id (kept from the client only when
	// safe), the headers every answer carries, the client address (from
	// X-Forwarded-For only behind a trusted proxy), the log, panics; then
	// the policy gate.
	r.Use(s.withLogger, requestID, s.edge.securityHeaders, s.edge.realIP, s.requestLog, s.recoverer, s.codecCORS)
	r.Use(s.enforce(r))
	r.NotFound(s.notFound)
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: "Method not allowed"})
	})
	for _, rt := range s.routes() {
		s.mount(r, rt)
	}
	for _, p := range s.pages() {
		s.markPage(p)
	}
	s.handler = r
	s.entry = traced(d.Tracer, r)
	return s
}

// mount puts a row of the policy table on the router.
func (s *Server) mount(r *chi.Mux, rt route) {
	s.policies[rt.method+" "+rt.pattern] = rt.policy
	r.Method(rt.method, rt.pattern, s.gated(rt.method+" "+rt.pattern, rt.handler))
}

// webBuild picks the front end's build: Deps.Web, else WEB_DIR (read on
// every request, for the front end's dev loop), else the embedded one.
func (s *Server) webBuild(d Deps) *web.Files {
	switch {
	case d.Web != nil:
		return web.NewFiles(d.Web, true)
	case d.Config.WebDir != "":
		if st, err := os.Stat(d.Config.WebDir); err != nil || !st.IsDir() {
			s.log.Error("WEB_DIR is not a directory: every page answers 404 until it is", "dir", d.Config.WebDir)
		} else {
			s.log.Info("serving the web front end from WEB_DIR, read on every request", "dir", d.Config.WebDir)
		}
		return web.NewFiles(web.Dir(d.Config.WebDir), false)
	}
	return web.NewFiles(web.FS(), true)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.entry.ServeHTTP(w, r) }

// Router returns the chi router, for tests that walk every route.
func (s *Server) Router() chi.Routes { return s.handler.(chi.Routes) }

// PolicyOf returns the declared policy of a route pattern.
func (s *Server) PolicyOf(method, pattern string) (Policy, bool) {
	p, ok := s.policies[method+" "+pattern]
	return p, ok
}

// requestLog logs one line per request. Only the path is logged: query
// strings can carry tokens.
func (s *Server) requestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		s.window.Record(start, ww.Status())
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "http",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", ww.Status()),
			slog.Int("bytes", ww.BytesWritten()),
			slog.Duration("took", time.Since(start)),
			slog.String("ip", r.RemoteAddr),
			slog.String("request_id", middleware.GetReqID(r.Context())))
	})
}

// withLogger puts the server's logger in the request's context, so that
// writeError, a function of the request alone, logs through it.
func (s *Server) withLogger(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loggerKey{}, s.log)))
	})
}

// recoverer turns a panic into a logged 500 without internal detail.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "request_id", middleware.GetReqID(r.Context()), "panic", v, "stack", string(debugStack()))
				writeError(w, r, apperr.New(apperr.Internal, "panic"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
