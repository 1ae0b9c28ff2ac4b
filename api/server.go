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
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"go.temporal.io/sdk/client"

	"hackdesk/apperr"
	"hackdesk/codehost"
	"hackdesk/config"
	"hackdesk/db"
	"hackdesk/onboarding"
	"hackdesk/receipts"
	"hackdesk/signing"
	"hackdesk/slots"
	"hackdesk/storage"
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
	Logger   *slog.Logger
	Limits   *RateLimits // nil means DefaultRateLimits
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
}

// Server serves the API.
type Server struct {
	cfg      config.Config
	store    *db.Store
	temporal client.Client
	blob     *storage.Store
	reads    db.Querier
	auth     Authenticator
	log      *slog.Logger
	policies map[string]Policy
	handler  http.Handler
	edge     edge
	limits   limiters
	codehost *codehost.Client
	// qrSigner signs membership QR links; dkimLookup finds shops' DKIM
	// keys (nil: the webhook answers 503).
	qrSigner   signing.Signer
	dkimLookup receipts.LookupTXT
	// webhooks bounds the membership webhook posts handled at once, so
	// that a storm of them (each holding a database connection while it
	// stores, verifies and claims a receipt) cannot take every connection
	// from the rest of the API: the provider retries a 503.
	webhooks *slots.Slots
	// uploads bounds the uploads (resume, headshot) one account runs at
	// once: each holds its file in memory while it is read.
	uploads *slots.PerKey
	// tokenSweep and idemSweep delete expired webhook tokens and
	// idempotency keys now and then.
	tokenSweep, idemSweep sweeper
	// web serves the front end's files; pageRoute marks the routes of the
	// policy table that are pages (IsPage); webCSP is their
	// Content-Security-Policy.
	web       *webFiles
	pageRoute map[string]bool
	webCSP    string
}

// route is one row of the policy table. Its handler returns its error
// rather than writing it (handlerFunc); an http.HandlerFunc, which answers
// every request itself, is wrapped with plain.
type route struct {
	method  string
	pattern string
	policy  Policy
	handler handlerFunc
}

// routes is the policy table: every endpoint, who may call it, and its
// handler; then the front end's pages and assets (webRoutes, from the page
// table in pages.go).
func (s *Server) routes() []route {
	api := []route{
		{"GET", "/healthz", Public, s.healthz},
		{"GET", "/readyz", Public, s.readyz},
		{"GET", "/api/openapi.yaml", Public, s.openapi},
		{"GET", "/api/docs", Public, plain(s.apiDocs)},
		{"GET", "/api/docs/*", Public, plain(s.apiDocs)},
		{"POST", "/api/auth/signup", Public, s.signup},
		{"POST", "/api/auth/confirm", Public, s.confirm},
		{"POST", "/api/auth/login", Public, s.login},
		{"POST", "/api/auth/logout", Authenticated, s.logout},
		{"GET", "/api/auth/sessions", Authenticated, s.listSessions},
		{"DELETE", "/api/auth/sessions", Authenticated, s.revokeOtherSessions},
		{"POST", "/api/auth/forgot-password", Public, s.forgotPassword},
		{"POST", "/api/auth/reset-password", Public, s.resetPassword},
		{"GET", "/api/auth/session", Public, s.sessionStatus},
		{"GET", "/api/profile", Authenticated, s.getProfile},
		{"PATCH", "/api/profile", Authenticated, s.patchProfile},
		{"POST", "/api/applications", Authenticated, s.createApplication},
		{"GET", "/api/applications", Authenticated, s.getApplication},
		{"PATCH", "/api/applications", Authenticated, s.patchApplication},
		{"POST", "/api/applications/submit", Authenticated, s.submitApplication},
		{"POST", "/api/applications/resumes", Authenticated, s.uploadResume},
		{"GET", "/api/applications/resumes", Authenticated, s.getResume},
		{"GET", "/api/users/emails", Authenticated, s.searchUsers},
		{"GET", "/api/applications/random", Admin, s.nextApplication},
		{"POST", "/api/review/submit", Admin, s.submitReview},
		{"POST", "/api/admin/applications/decisions", Admin, s.decide},
		{"POST", "/api/applications/rsvp", Authenticated, s.rsvp},
		{"GET", "/api/admin/dashboard", Superadmin, s.dashboard},
		{"GET", "/api/admin/leaderboard", Superadmin, s.leaderboard},
		{"GET", "/api/admin/review-settings", Superadmin, s.reviewSettings},
		{"PATCH", "/api/admin/review-settings", Superadmin, s.patchReviewSettings},
		{"GET", "/api/admin/applications", Admin, s.adminListApplications},
		{"GET", "/api/admin/applications/{id}", Admin, s.adminGetApplication},
		{"GET", "/api/admin/emails", Superadmin, s.listEmails},
		{"GET", "/api/codehost/teams", Admin, s.codehostTeams},
		{"GET", "/api/codehost/templates", Admin, s.codehostTemplates},
		{"POST", "/api/codehost/foundry/launch", Admin, s.launchProject},
		{"GET", "/api/codehost/projects", Admin, s.listProjects},
		{"GET", "/api/codehost/projects/{id}", Admin, s.getProject},
		{"GET", "/api/codehost/projects/{id}/runs", Admin, s.projectRuns},
		{"GET", "/api/terms/active", Authenticated, s.getActiveTerm},
		{"GET", "/api/admin/terms", Superadmin, s.listTerms},
		{"POST", "/api/admin/terms", Superadmin, s.createTerm},
		{"PATCH", "/api/admin/terms/{id}", Superadmin, s.patchTerm},
		{"GET", "/api/positions", Public, s.listPositions},
		{"POST", "/api/positions", President, s.createPosition},
		{"PATCH", "/api/positions/{id}", President, s.patchPosition},
		{"DELETE", "/api/positions/{id}", President, s.deletePosition},
		{"GET", "/api/applications/review", VP, s.listReview},
		{"PATCH", "/api/applications/review/{selection_id}", VP, s.patchSelection("selection_id")},
		{"GET", "/api/applications/review/questions", VP, s.listQuestions},
		{"POST", "/api/applications/review/questions", VP, s.createQuestion},
		{"PATCH", "/api/applications/review/questions/{id}", VP, s.patchQuestion},
		{"DELETE", "/api/applications/review/questions/{id}", VP, s.deleteQuestion},
		{"GET", "/api/applications/questions", Authenticated, s.applicantQuestions},
		{"GET", "/api/applications/hiring", President, s.hiringBoard},
		{"PATCH", "/api/applications/hiring/selections/{id}", President, s.patchSelection("id")},
		{"GET", "/api/applications/hiring/team", President, s.hiringTeam},
		{"POST", "/api/applications/hiring/finalize", President, s.finalizeHiring},
		{"GET", "/api/onboarding", Authenticated, s.getForm(onboarding.Onboarding)},
		{"PUT", "/api/onboarding", Authenticated, s.putForm(onboarding.Onboarding)},
		{"POST", "/api/onboarding/headshot", Authenticated, s.uploadHeadshot(onboarding.Onboarding)},
		{"GET", "/api/onboarding/returning", Authenticated, s.getForm(onboarding.Returning)},
		{"PUT", "/api/onboarding/returning", Authenticated, s.putForm(onboarding.Returning)},
		{"POST", "/api/onboarding/returning/headshot", Authenticated, s.uploadHeadshot(onboarding.Returning)},
		{"GET", "/api/onboarding/submissions", VP, s.listSubmissions},
		{"GET", "/api/onboarding/export.csv", VP, s.exportCSV},
		{"GET", "/api/onboarding/headshots.zip", VP, s.exportHeadshots},
		{"POST", "/api/admin/broadcasts", Superadmin, s.createBroadcast},
		{"GET", "/api/admin/broadcasts", Superadmin, s.listBroadcasts},
		{"GET", "/api/admin/broadcasts/{id}", Superadmin, s.getBroadcast},
		{"POST", "/api/admin/broadcasts/{id}/cancel", Superadmin, s.cancelBroadcast},
		{"GET", "/api/unsubscribe", Public, s.unsubscribePage},
		{"POST", "/api/unsubscribe", Public, s.unsubscribe},
		{"GET", "/api/membership", Authenticated, s.getMembership},
		{"POST", "/api/membership", Authenticated, s.joinMembership},
		{"GET", "/api/membership/qr", Authenticated, s.membershipQR},
		{"GET", "/api/admin/memberships", Admin, s.adminListMemberships},
		{"GET", "/api/admin/memberships/{id}", Admin, s.adminGetMembership},
		{"POST", "/api/admin/memberships/{id}/payments", Admin, s.recordPayment},
		{"POST", "/api/webhooks/membership", Public, s.membershipWebhook},
		{"GET", "/api/admin/receipts", Admin, s.listReceipts},
		{"POST", "/api/admin/receipts/{id}/match", Admin, s.matchReceipt},
	}
	return append(api, s.webRoutes()...)
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
	}
	if s.auth == nil {
		s.auth = sessionAuth{store: d.Store}
	}
	if s.reads == nil && d.Store != nil {
		s.reads = d.Store.Queries
	}
	limits := DefaultRateLimits
	if d.Limits != nil {
		limits = *d.Limits
	}
	s.limits = newLimiters(limits, d.Store, d.Logger)
	if s.log == nil {
		s.log = slog.Default()
	}
	s.qrSigner, s.dkimLookup = s.signers(d)
	s.webhooks = slots.New(d.Config.WebhookConcurrency, webhookGateWait)
	s.uploads = slots.NewPerKey(maxUploadsPerAccount)
	s.web = s.webBuild(d)
	s.edge = newEdge(d.Config, s.log)
	r := chi.NewRouter()
	// The edge, in order: the server's logger in the request's context
	// (for writeError), the request id (kept from the client only when
	// safe), the headers every answer carries, the client address (from
	// X-Forwarded-For only behind a trusted proxy), the log, panics; then
	// the policy gate.
	r.Use(s.withLogger, requestID, securityHeaders, s.edge.realIP, s.requestLog, s.recoverer)
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
	return s
}

// mount puts a row of the policy table on the router.
func (s *Server) mount(r *chi.Mux, rt route) {
	s.policies[rt.method+" "+rt.pattern] = rt.policy
	r.Method(rt.method, rt.pattern, s.gated(rt.method+" "+rt.pattern, rt.handler))
}

// webBuild picks the front end's build: Deps.Web, else WEB_DIR (read on
// every request, for the front end's dev loop), else the embedded one.
func (s *Server) webBuild(d Deps) *webFiles {
	switch {
	case d.Web != nil:
		return &webFiles{fsys: d.Web, cache: &sync.Map{}}
	case d.Config.WebDir != "":
		if st, err := os.Stat(d.Config.WebDir); err != nil || !st.IsDir() {
			s.log.Error("WEB_DIR is not a directory: every page answers 404 until it is", "dir", d.Config.WebDir)
		} else {
			s.log.Info("serving the web front end from WEB_DIR, read on every request", "dir", d.Config.WebDir)
		}
		return &webFiles{fsys: web.Dir(d.Config.WebDir)}
	}
	return &webFiles{fsys: web.FS(), cache: &sync.Map{}}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

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
