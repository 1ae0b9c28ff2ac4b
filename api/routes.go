package api

import (
	"hackdesk/internal/feature/onboarding"
	"hackdesk/web"
)

// apiDocs is the API reference page and its assets, shared by every
// Server (rendered once).
var apiDocs = web.Docs("/api/docs", "/api/openapi.yaml")

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
		{"GET", "/api/docs", Public, plain(apiDocs.ServeHTTP)},
		{"GET", "/api/docs/*", Public, plain(apiDocs.ServeHTTP)},
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
		{"GET", "/api/applications/history", Authenticated, s.applicationHistory},
		{"GET", "/api/hackathons/current", Public, s.currentHackathon},
		{"GET", "/api/hackathons", Admin, s.listEditions},
		{"GET", "/api/admin/hackathons", Superadmin, s.listEditions},
		{"POST", "/api/admin/hackathons", Superadmin, s.createHackathon},
		{"PATCH", "/api/admin/hackathons/{id}", Superadmin, s.patchHackathon},
		{"GET", "/api/admin/dashboard", Superadmin, s.dashboard},
		{"GET", "/api/admin/leaderboard", Superadmin, s.leaderboard},
		{"GET", "/api/admin/review-settings", Superadmin, s.reviewSettings},
		{"PATCH", "/api/admin/review-settings", Superadmin, s.patchReviewSettings},
		{"GET", "/api/admin/applications", Admin, s.adminListApplications},
		{"GET", "/api/admin/applications/export.csv", Admin, s.adminExportApplications},
		{"GET", "/api/admin/applications/{id}", Admin, s.adminGetApplication},
		{"GET", "/api/admin/emails", Superadmin, s.listEmails},
		{"GET", "/api/admin/users", Superadmin, s.listUsers},
		{"PATCH", "/api/admin/users/{id}", Superadmin, s.patchUser},
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
		{"GET", "/api/applications/hiring/finalization", President, s.hiringFinalization},
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
		{"POST", "/api/admin/broadcasts/preview", Superadmin, s.previewBroadcast},
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
		{"GET", "/api/admin/system", Superadmin, s.adminSystem},
		{"GET", "/api/admin/workflows", Superadmin, s.adminWorkflows},
		{"POST", "/api/admin/workflows/{workflow_id}/retry", Superadmin, s.retryWorkflow},
		{"GET", "/api/admin/workflows/stuck", Superadmin, s.adminStuckWorkflows},
		{"POST", "/api/admin/workflows/{workflow_id}/cancel", Superadmin, s.cancelWorkflow},
		{"GET", "/api/admin/schedules", Superadmin, s.adminSchedules},
	}
	return append(api, s.webRoutes()...)
}
