package e2e

import (
	"net/http"
	"testing"
)

// wantFields expects a 400 Validation failed naming each field.
func wantFields(t *testing.T, r response, fields ...string) {
	t.Helper()
	m := r.Map(t)
	details, _ := m["details"].(map[string]any)
	if m["error"] != "Validation failed" {
		t.Errorf("answer %s, want Validation failed", r.Body)
	}
	for _, f := range fields {
		if details[f] == nil {
			t.Errorf("no reason for %s: %s", f, r.Body)
		}
	}
}

// TestControlCharactersRefused: control and format characters (a bidi
// override, a bell, a zero-width space, a line separator) are refused in
// every free-text field with 400 Validation failed naming the field; line
// breaks and tabs only where the field is multi-line.
func TestControlCharactersRefused(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	term := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	pres := as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "Board", &term))
	me, myID := member(t, a, anon, "ada@example.com", "Ada")
	seedApplication(t, a, myID, "draft")

	// The application: one-line fields refuse a line break too.
	wantFields(t, me.expect(http.StatusBadRequest, "PATCH", "/api/applications", map[string]any{
		"university": "Uni\u0007", "program": "CS\u202egpj.exe", "dietary_restrictions": "none\nreally",
		"country": "Can\u200bada", "q1_answer": "a\u202eb", "q2_answer": "old pond\u2028frog",
	}), "university", "program", "dietary_restrictions", "country", "q1_answer", "q2_answer")
	// The answers are multi-line: line breaks and tabs stay.
	var app appJSON
	me.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{
		"q1_answer": "I built:\n\tan engine\r\n\ta loom", "q2_answer": "old pond\nfrog jumps in\nsplash",
	})
	me.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &app)
	// The profile and sign-up keep the display name's rule.
	wantFields(t, me.expect(http.StatusBadRequest, "PATCH", "/api/profile", map[string]any{"display_name": "Ada\u200b"}), "display_name")
	wantFields(t, anon.expect(http.StatusBadRequest, "POST", "/api/auth/signup", map[string]any{
		"email": "eve@example.com", "password": "quiet lantern harbor", "display_name": "Eve\u202egpj.exe"}), "display_name")
	// A password is the person's own: any character goes.
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup", map[string]any{
		"email": "tab@example.com", "password": "quiet\tlantern harbor", "display_name": "Tab"})

	// Staff texts: terms, editions, positions, questions, broadcasts.
	wantFields(t, super.expect(http.StatusBadRequest, "POST", "/api/admin/terms", map[string]any{
		"name": "Fall\u0007", "starts_on": "2027-09-01", "ends_on": "2028-08-31"}), "name")
	wantFields(t, super.expect(http.StatusBadRequest, "POST", "/api/admin/hackathons", map[string]any{
		"name": "Hack\u202e2027", "applications_open_at": "2030-01-01T00:00:00Z"}), "name")
	wantFields(t, pres.expect(http.StatusBadRequest, "POST", "/api/positions", map[string]any{
		"term_id": term, "title": "VP\u2028Design", "subteam": "Design\u200b", "grants": "vp"}), "title", "subteam")
	pres.expect(http.StatusCreated, "POST", "/api/positions", map[string]any{
		"term_id": term, "title": "Designer", "subteam": "Design", "grants": "exec", "description": "Draws.\n\nAnd draws."})
	wantFields(t, pres.expect(http.StatusBadRequest, "POST", "/api/applications/review/questions", map[string]any{
		"prompt": "Why\u200b?", "type": "text"}), "prompt")
	wantFields(t, super.expect(http.StatusBadRequest, "POST", "/api/admin/broadcasts", map[string]any{
		"subject": "News\u202e", "body": "Hello\u202eworld", "audience": map[string]any{"kind": "members"}}), "subject", "body")
}
