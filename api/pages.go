package api

import (
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"

	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/edge"
	"hackdesk/web"
)

// webPage is one row of the page table: a path a browser opens, the HTML
// entry of the front end's build that answers it, and who may open it.
// Patterns are chi's, so "/admin/memberships/{id}" is one row.
type webPage struct {
	pattern string
	entry   string
	policy  Policy
	// elsewhere, when set, may send the caller to another page instead
	// (a 303 to the path it returns; "" serves the entry).
	elsewhere func(r *http.Request) string
}

// PagePatterns are the page table's patterns, in its order: what a test
// that visits every page walks.
func PagePatterns() []string {
	var s Server
	out := []string{}
	for _, p := range s.pages() {
		out = append(out, p.pattern)
	}
	return out
}

// pages is the page table. Adding a page is one row here (and its HTML
// entry in web/). Pages answer GET and HEAD, and POST (a form submitted
// without its script: 303 back to the page, nothing processed), and enter
// the policy table with their policy (routes), so the role walk covers
// them; a caller the policy refuses is sent elsewhere rather than answered
// 401 or 403 (see refuse).
func (s *Server) pages() []webPage {
	return []webPage{
		{"/", "index.html", Public, nil},
		{"/signup", "account.html", Public, nil},
		{"/login", "account.html", Public, nil},
		{"/forgot-password", "account.html", Public, nil},
		{"/reset-password", "account.html", Public, nil},
		{"/auth/confirm", "account.html", Public, nil},
		{"/profile", "profile.html", Authenticated, nil},
		{"/apply", "apply.html", Authenticated, s.submittedApplication},
		{"/apply/submitted", "application.html", Authenticated, nil},
		{"/application", "application.html", Authenticated, nil},
		{"/events", "events.html", Authenticated, nil},
		{"/review", "review.html", Admin, nil},
		{"/admin/applications", "admin-applications.html", Admin, nil},
		{"/admin/applications/{id}", "admin-applications.html", Admin, nil},
		{"/admin/leaderboard", "leaderboard.html", Superadmin, nil},
		{"/admin/dashboard", "dashboard.html", Superadmin, nil},
		{"/admin/assign", "assign.html", Superadmin, nil},
		{"/admin/broadcasts", "broadcasts.html", Superadmin, nil},
		{"/admin/emails", "emails.html", Superadmin, nil},
		{"/admin/hackathons", "hackathons.html", Superadmin, nil},
		{"/admin/terms", "terms.html", Superadmin, nil},
		{"/admin/memberships", "memberships.html", Admin, nil},
		{"/admin/memberships/{id}", "memberships.html", Admin, nil},
		{"/admin/receipts", "receipts.html", Admin, nil},
		{"/admin/applications/review", "selections.html", VP, nil},
		{"/admin/applications/hiring", "hiring.html", President, nil},
		{"/applications/questions", "questions.html", VP, nil},
		{"/onboarding", "onboarding.html", Authenticated, s.closedForm(onboarding.Onboarding)},
		{"/onboarding/returning", "onboarding.html", Authenticated, s.closedForm(onboarding.Returning)},
		{"/onboarding/review", "onboarding-review.html", VP, nil},
		{"/nexus/foundry", "foundry.html", Admin, nil},
		{"/nexus/projects", "projects.html", Admin, nil},
		{"/nexus/projects/{id}", "projects.html", Admin, nil},
		{"/admin/system", "system.html", Superadmin, nil},
		{"/admin/access", "access.html", Superadmin, nil},
		{"/checkin", "checkin.html", Checkin, nil},
		{"/checkin/{id}", "checkin.html", Checkin, nil},
	}
}

// pageMethods are the methods every page answers. POST is a form the
// page's script did not handle (scriptlessPost).
var pageMethods = [...]string{http.MethodGet, http.MethodHead, http.MethodPost}

// assetsPattern is where the build's hashed assets are served.
const assetsPattern = "/assets/*"

// notFoundEntry is the build's page for a path that matches nothing.
const notFoundEntry = "404.html"

// webRoutes are the rows of the policy table that serve the front end: every
// page, and its assets (public: their names are in every page).
func (s *Server) webRoutes() []route {
	var out []route
	for _, p := range s.pages() {
		out = append(out, s.pageRoutes(p)...)
	}
	for _, m := range [...]string{http.MethodGet, http.MethodHead} {
		out = append(out, route{m, assetsPattern, Public, plain(s.asset)})
	}
	return out
}

// pageRoutes are the routes of one page.
func (s *Server) pageRoutes(p webPage) []route {
	h := plain(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			scriptlessPost(w, r)
			return
		}
		if p.elsewhere != nil {
			if to := p.elsewhere(r); to != "" {
				seeOther(w, to)
				return
			}
		}
		s.servePage(w, r, p.entry)
	})
	out := make([]route, 0, len(pageMethods))
	for _, m := range pageMethods {
		out = append(out, route{m, p.pattern, p.policy, h})
	}
	return out
}

// scriptlessPost answers a form posted to a page: the pages' forms are
// handled by their script, which calls the API, so a POST here is a form
// submitted without it (a password manager, automation, a script that
// failed to load). It is sent back to the page (303, its query kept) and
// nothing is read or done: the body, which may hold a password, is never
// looked at, and the form's fields never reach a URL.
func scriptlessPost(w http.ResponseWriter, r *http.Request) {
	seeOther(w, web.SafeNext(r.URL.RequestURI()))
}

// markPage records that the routes of p answer as pages (see refuse).
func (s *Server) markPage(p webPage) {
	for _, m := range pageMethods {
		s.pageRoute[m+" "+p.pattern] = true
	}
}

// IsPage reports whether a route of the table is a page of the front end:
// it answers HTML, and a caller its policy refuses is redirected (303) to
// sign in or to the home page instead of answered 401 or 403.
func (s *Server) IsPage(method, pattern string) bool { return s.pageRoute[method+" "+pattern] }

// ServesWeb reports whether a route of the table serves the front end (a
// page or the pages' assets) rather than an API operation described in
// openapi.yaml.
func (s *Server) ServesWeb(method, pattern string) bool {
	return s.IsPage(method, pattern) || pattern == assetsPattern
}

// refuse answers a request the gate turns away with err. A page answers as
// a page: an anonymous caller, or one whose session is no longer valid, is
// sent to sign in and come back (303 to /login?next=<path and query>), and
// a signed-in caller without the role goes home (303 to /). Everything
// else gets the error.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, route string, err error) {
	if e, ok := apperr.As(err); ok && s.pageRoute[route] {
		switch e.Code {
		case apperr.Unauthorized:
			seeOther(w, loginURL(r))
			return
		case apperr.Forbidden:
			seeOther(w, "/")
			return
		}
	}
	writeError(w, r, err)
}

// loginURL is the sign-in page with the request's own path and query as
// `next`, percent-encoded, so that signing in leads back to it.
func loginURL(r *http.Request) string {
	return "/login?next=" + url.QueryEscape(web.SafeNext(r.URL.RequestURI()))
}

// seeOther redirects to a path of this site. The answer depends on the
// caller, so no cache keeps it.
func seeOther(w http.ResponseWriter, to string) {
	w.Header().Set("Location", to)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusSeeOther)
}

// submittedApplication sends a caller whose application is submitted from
// /apply to /apply/submitted. It is a convenience, not a guard (the API
// refuses changes to a submitted application), so when the application
// cannot be read the page is served and the error logged.
func (s *Server) submittedApplication(r *http.Request) string {
	p := principalFrom(r.Context())
	if p == nil {
		return ""
	}
	submitted, err := application.Submitted(r.Context(), s.reads, p.ProfileID)
	switch {
	case err != nil:
		s.log.WarnContext(r.Context(), "page: reading the caller's application", "path", r.URL.Path,
			"request_id", middleware.GetReqID(r.Context()), "error", err)
		return ""
	case submitted:
		return "/apply/submitted"
	}
	return ""
}

// closedForm sends a caller from the page of a kind's form that is closed
// to them to the home page, which shows why: a notice code and the ids it
// needs, never text (`?notice=form-closed&form=<kind>&term=<id>`; the
// page reads the window's words from the API's 403 "Form closed",
// "Onboarding for <term> opens <date>"). The term is the page's
// ?term_id=, else the hiring term. A caller the form is not for stays: the
// page tells them why. Like submittedApplication it is a convenience (the
// API refuses a closed form), so a failed read serves the page and is
// logged.
func (s *Server) closedForm(kind onboarding.Kind) func(r *http.Request) string {
	return func(r *http.Request) string {
		p := principalFrom(r.Context())
		if p == nil {
			return ""
		}
		term, err := onboarding.ClosedTerm(r.Context(), s.reads, r.URL.Query().Get("term_id"), kind, p.ProfileID)
		if err != nil {
			s.log.WarnContext(r.Context(), "page: reading the form's window", "path", r.URL.Path,
				"request_id", middleware.GetReqID(r.Context()), "error", err)
			return ""
		}
		if term == uuid.Nil {
			return ""
		}
		return web.NoticeURL(web.NoticeFormClosed, "form", string(kind), "term", term.String())
	}
}

// servePage answers with an HTML entry of the build, or with the 404 page
// when the build has no such entry (never a 500: a build in progress under
// WEB_DIR, or an entry not built yet, is a missing page).
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, entry string) {
	w.Header().Set("Content-Security-Policy", s.webCSP)
	if s.web.Serve(w, r, entry, http.StatusOK, web.PageCaching) {
		return
	}
	s.log.ErrorContext(r.Context(), "page: the web build has no such entry", "entry", entry,
		"path", r.URL.Path, "request_id", middleware.GetReqID(r.Context()))
	s.notFoundPage(w, r)
}

// fallback404 answers when the build has no 404 page either.
const fallback404 = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head>
<body><main><h1>Page not found</h1><p><a href="/">Go to the home page</a></p></main></body></html>
`

// notFoundPage answers 404 with the build's HTML 404 page.
func (s *Server) notFoundPage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", s.webCSP)
	if s.web.Serve(w, r, notFoundEntry, http.StatusNotFound, web.PageCaching) {
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", web.PageCaching)
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(fallback404))
	}
}

// notFound answers a request that matches no route. A browser opening a
// path outside the API (GET or HEAD) gets the HTML 404 page; paths under
// /api/, and other methods anywhere, get the API's JSON 404.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && !apiPath(r.URL.Path) {
		s.notFoundPage(w, r)
		return
	}
	writeError(w, r, apperr.New(apperr.NotFound, "Not found"))
}

// apiPath reports whether p is /api or below it, compared as a browser or
// a careless client might spell it ("//api/x", "/API/x", "/x/../api/y").
func apiPath(p string) bool {
	p = strings.ToLower(path.Clean("/" + p))
	return p == "/api" || strings.HasPrefix(p, "/api/")
}

// asset serves a file of the build's assets/ by the name below /assets/
// (web.Files.Asset).
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	s.web.Asset(w, r, chi.URLParam(r, "*"))
}

// newWebCSP is the Content-Security-Policy of every HTML answer: everything
// from this origin only, no inline script or style, images also from data:
// and blob: URLs, and frames only from the object store (the resume
// preview is a presigned S3 URL, so a PDF never runs in the app's origin).
// No one may frame the pages.
func newWebCSP(cfg config.Config) string {
	frames := edge.CanonicalOrigin(cfg.S3Endpoint)
	if frames == "" {
		frames = "'none'"
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self'",
		"img-src 'self' data: blob:",
		"frame-src " + frames,
		"frame-ancestors 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"object-src 'none'",
	}, "; ")
}
