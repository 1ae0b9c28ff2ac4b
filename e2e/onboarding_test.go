package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/workflowservice/v1"

	"hackdesk/app"
	"hackdesk/testenv"
)

// jpegFile is the start of a JPEG image.
func jpegFile() []byte {
	return append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'}, bytes.Repeat([]byte{7}, 200)...)
}

// uploadHeadshot posts data as the "file" part (and consent when set) of a
// headshot upload.
func (c *client) uploadHeadshot(path string, data []byte, consent string) response {
	c.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if consent != "" {
		if err := mw.WriteField("consent", consent); err != nil {
			c.t.Fatal(err)
		}
	}
	if data != nil {
		pw, err := mw.CreateFormFile("file", "me.img")
		if err != nil {
			c.t.Fatal(err)
		}
		if _, err := pw.Write(data); err != nil {
			c.t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		c.t.Fatal(err)
	}
	return c.do(http.MethodPost, path, body.Bytes(), "Content-Type", mw.FormDataContentType())
}

// termWithWindows creates a term through the API with both windows.
func termWithWindows(t *testing.T, c *client, name, starts, ends string, onb, ret [2]time.Time) uuid.UUID {
	t.Helper()
	var out struct {
		Term struct {
			ID uuid.UUID `json:"id"`
		} `json:"term"`
	}
	c.expect(201, "POST", "/api/admin/terms", map[string]any{"name": name, "starts_on": starts, "ends_on": ends,
		"onboarding_opens_at": onb[0].Format(time.RFC3339), "onboarding_closes_at": onb[1].Format(time.RFC3339),
		"returning_opens_at": ret[0].Format(time.RFC3339), "returning_closes_at": ret[1].Format(time.RFC3339)}).JSON(t, &out)
	return out.Term.ID
}

func setWindow(t *testing.T, c *client, term uuid.UUID, kind string, opens, closes time.Time) {
	t.Helper()
	c.expect(200, "PATCH", "/api/admin/terms/"+term.String(), map[string]any{
		kind + "_opens_at": opens.Format(time.RFC3339), kind + "_closes_at": closes.Format(time.RFC3339)})
}

func formSubmission(name, role string) map[string]any {
	return map[string]any{"display_name": name, "email": "x@example.com", "role": role, "term_type": "full_year",
		"chat_handle": "chat", "photo_handle": "@photo", "ds_competency": "beginner"}
}

func wantClosed(t *testing.T, r response, prefix string) {
	t.Helper()
	if r.Status != 403 {
		t.Fatalf("status %d, want 403: %s", r.Status, r.Body)
	}
	title, msg := errorOf(t, r)
	if title != "Form closed" || !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, "UTC") {
		t.Fatalf("got %q %q, want Form closed %q...", title, msg, prefix)
	}
}

// TestOnboardingForms covers both forms: eligibility, the windows against
// the database clock, create vs update, validation and headshot uploads.
func TestOnboardingForms(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	now := time.Now().UTC().Truncate(time.Second)
	prev := termWithWindows(t, super, "2025-2026", "2025-09-01", "2026-08-31",
		[2]time.Time{now.Add(-400 * 24 * time.Hour), now.Add(-390 * 24 * time.Hour)},
		[2]time.Time{now.Add(-400 * 24 * time.Hour), now.Add(-390 * 24 * time.Hour)})
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31",
		[2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)},
		[2]time.Time{now.Add(2 * time.Hour), now.Add(48 * time.Hour)})
	hiringPosition(t, super, term, "VP Design", "design", "vp")
	hiringPosition(t, super, term, "Designer", "design", "exec")

	vp := as(t, a, anon, execAccount(t, a, "vp@example.com", "admin", "VP", "design", &term))
	old := as(t, a, anon, execAccount(t, a, "old@example.com", "admin", "Exec", "web", &prev))
	member := as(t, a, anon, account(t, a, "m@example.com", "M", "member"))

	// Eligibility comes before the window.
	member.expect(403, "GET", "/api/onboarding", nil)
	old.expect(403, "GET", "/api/onboarding", nil)
	vp.expect(403, "GET", "/api/onboarding/returning", nil)
	if title, _ := errorOf(t, member.expect(403, "GET", "/api/onboarding/returning", nil)); title != "Forbidden" {
		t.Errorf("ineligible returning: %s", title)
	}
	member.expect(403, "PUT", "/api/onboarding", formSubmission("M", "Designer"))
	member.uploadHeadshot("/api/onboarding/headshot", pngFile(), "true")

	// The open form.
	var form struct {
		Term struct {
			ID uuid.UUID `json:"id"`
		} `json:"term"`
		Window struct {
			Open bool `json:"open"`
		} `json:"window"`
		RoleOptions []string        `json:"role_options"`
		Submission  *map[string]any `json:"submission"`
	}
	vp.expect(200, "GET", "/api/onboarding", nil).JSON(t, &form)
	if form.Term.ID != term || !form.Window.Open || strings.Join(form.RoleOptions, ",") != "Designer,VP Design" || form.Submission != nil {
		t.Fatalf("form %+v", form)
	}
	vp.expect(200, "GET", "/api/onboarding?term_id="+term.String(), nil)
	vp.expect(400, "GET", "/api/onboarding?term_id=nope", nil)
	vp.expect(404, "GET", "/api/onboarding?term_id="+uuid.NewString(), nil)

	// Validation: every field's reason.
	r := vp.expect(400, "PUT", "/api/onboarding", map[string]any{"display_name": "", "email": "nope", "role": "King",
		"term_type": "spring", "ds_competency": "guru", "chat_handle": strings.Repeat("c", 101)})
	details, _ := r.Map(t)["details"].(map[string]any)
	for _, f := range []string{"display_name", "email", "role", "term_type", "ds_competency", "chat_handle"} {
		if details[f] == nil {
			t.Errorf("no detail for %s: %v", f, details)
		}
	}
	r = vp.expect(400, "PUT", "/api/onboarding", map[string]any{"display_name": "V"})
	if d := r.Map(t)["details"].(map[string]any); d["email"] == nil || d["role"] == nil {
		t.Errorf("missing fields: %v", d)
	}
	vp.expect(400, "PUT", "/api/onboarding", map[string]any{"display_name": "V", "unknown": 1})
	body := formSubmission("Vee", "VP Design")
	body["headshot_key"] = "headshots/" + term.String() + "/onboarding/" + uuid.NewString() + ".png"
	body["headshot_consent"] = true
	if d := vp.expect(400, "PUT", "/api/onboarding", body).Map(t)["details"].(map[string]any); d["headshot_key"] == nil {
		t.Errorf("someone else's key: %v", d)
	}
	if n := countRows(t, a, `SELECT count(*) FROM exec_form_submissions`); n != 0 {
		t.Fatalf("%d rows after refusals", n)
	}

	// Create, then update: one row.
	vp.expect(201, "PUT", "/api/onboarding", formSubmission("Vee", "VP Design"))
	var saved struct {
		Submission map[string]any `json:"submission"`
	}
	vp.expect(200, "PUT", "/api/onboarding", formSubmission("Vee Two", "Designer")).JSON(t, &saved)
	if saved.Submission["display_name"] != "Vee Two" || saved.Submission["role"] != "Designer" || saved.Submission["headshot_key"] != nil {
		t.Errorf("updated %v", saved.Submission)
	}
	if n := countRows(t, a, `SELECT count(*) FROM exec_form_submissions WHERE profile_id = (SELECT id FROM profiles WHERE email = 'vp@example.com')`); n != 1 {
		t.Errorf("%d rows, want 1", n)
	}

	// Headshots.
	vp.expect(415, "POST", "/api/onboarding/headshot", "x", "Content-Type", "text/plain") // not multipart
	if r := vp.uploadHeadshot("/api/onboarding/headshot", pngFile(), ""); r.Status != 400 {
		t.Errorf("no consent: %d %s", r.Status, r.Body)
	}
	if r := vp.uploadHeadshot("/api/onboarding/headshot", pngFile(), "false"); r.Status != 400 {
		t.Errorf("consent false: %d %s", r.Status, r.Body)
	}
	if r := vp.uploadHeadshot("/api/onboarding/headshot", nil, "true"); r.Status != 400 {
		t.Errorf("no file: %d %s", r.Status, r.Body)
	}
	if r := vp.uploadHeadshot("/api/onboarding/headshot", []byte("GIF89a........"), "true"); r.Status != 415 {
		t.Errorf("gif: %d %s", r.Status, r.Body)
	}
	if r := vp.uploadHeadshot("/api/onboarding/headshot", pdfFile("x"), "true"); r.Status != 415 {
		t.Errorf("pdf: %d %s", r.Status, r.Body)
	}
	big := append(jpegFile(), make([]byte, 5<<20)...)
	if r := vp.uploadHeadshot("/api/onboarding/headshot", big, "true"); r.Status != 413 {
		t.Errorf("6 MB: %d %s", r.Status, r.Body)
	}
	exact := append(pngFile(), make([]byte, 5<<20-len(pngFile()))...)
	var up struct {
		Key string `json:"key"`
	}
	vp.uploadHeadshot("/api/onboarding/headshot", exact, "true").JSON(t, &up)
	vpID := principalID(t, a, "vp@example.com")
	pngKey := "headshots/" + term.String() + "/onboarding/" + vpID.String() + ".png"
	if up.Key != pngKey {
		t.Fatalf("key %q, want %q", up.Key, pngKey)
	}
	if got := objectBytes(t, a, pngKey); !bytes.Equal(got, exact) {
		t.Errorf("stored %d bytes, uploaded %d", len(got), len(exact))
	}
	vp.expect(200, "GET", "/api/onboarding", nil).JSON(t, &form)
	if form.Submission == nil || (*form.Submission)["headshot_key"] != pngKey || (*form.Submission)["headshot_consent"] != true {
		t.Errorf("submission after upload: %v", form.Submission)
	}
	// A JPEG replaces it; the PNG object goes (the HeadshotCleanup workflow,
	// queued with the change).
	vp.uploadHeadshot("/api/onboarding/headshot", jpegFile(), "true").JSON(t, &up)
	if !strings.HasSuffix(up.Key, vpID.String()+".jpg") {
		t.Errorf("jpeg key %s", up.Key)
	}
	stored := func(key string) bool {
		ok, err := a.Blob.Exists(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) { return !stored(pngKey), "the replaced PNG headshot deleted" })
	// Left out, the headshot stays; null removes it from the submission,
	// and its object goes too.
	vp.expect(200, "PUT", "/api/onboarding", formSubmission("Vee", "VP Design")).JSON(t, &saved)
	if saved.Submission["headshot_key"] != up.Key {
		t.Errorf("headshot dropped: %v", saved.Submission)
	}
	removal := formSubmission("Vee", "VP Design")
	removal["headshot_key"] = nil
	vp.expect(200, "PUT", "/api/onboarding", removal).JSON(t, &saved)
	if saved.Submission["headshot_key"] != nil {
		t.Errorf("headshot kept after null: %v", saved.Submission)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) { return !stored(up.Key), "the removed JPEG headshot deleted" })
	recordHeadshotCleanup(t, a)

	// Not yet open, closed: 403 with the dates, nothing stored.
	before := countRows(t, a, `SELECT count(*) FROM exec_form_submissions WHERE display_name = 'Vee'`)
	setWindow(t, super, term, "onboarding", now.Add(time.Hour), now.Add(2*time.Hour))
	wantClosed(t, vp.do("GET", "/api/onboarding", nil), "Onboarding for 2026-2027 opens ")
	wantClosed(t, vp.do("PUT", "/api/onboarding", formSubmission("Changed", "VP Design")), "Onboarding for 2026-2027 opens ")
	wantClosed(t, vp.uploadHeadshot("/api/onboarding/headshot", pngFile(), "true"), "Onboarding for 2026-2027 opens ")
	setWindow(t, super, term, "onboarding", now.Add(-2*time.Hour), now.Add(-time.Hour))
	wantClosed(t, vp.do("GET", "/api/onboarding", nil), "Onboarding for 2026-2027 closed on ")
	wantClosed(t, vp.do("PUT", "/api/onboarding", formSubmission("Changed", "VP Design")), "Onboarding for 2026-2027 closed on ")
	if after := countRows(t, a, `SELECT count(*) FROM exec_form_submissions WHERE display_name = 'Vee'`); after != before || before != 1 {
		t.Errorf("closed form changed rows: %d -> %d", before, after)
	}
	// Still ineligible first.
	if title, _ := errorOf(t, member.expect(403, "GET", "/api/onboarding", nil)); title != "Forbidden" {
		t.Errorf("ineligible on a closed form: %s", title)
	}

	// The returning form: execs of the term before.
	wantClosed(t, old.do("GET", "/api/onboarding/returning", nil), "The returning-exec form for 2026-2027 opens ")
	setWindow(t, super, term, "returning", now.Add(-time.Hour), now.Add(time.Hour))
	old.expect(200, "GET", "/api/onboarding/returning", nil).JSON(t, &form)
	if !form.Window.Open || form.Submission != nil {
		t.Errorf("returning form %+v", form)
	}
	old.expect(201, "PUT", "/api/onboarding/returning", formSubmission("Olde", "Designer"))
	old.expect(200, "PUT", "/api/onboarding/returning", formSubmission("Olde", "VP Design"))
	old.uploadHeadshot("/api/onboarding/returning/headshot", pngFile(), "true").JSON(t, &up)
	if up.Key != "headshots/"+term.String()+"/returning/"+principalID(t, a, "old@example.com").String()+".png" {
		t.Errorf("returning key %s", up.Key)
	}
	vp.expect(403, "PUT", "/api/onboarding/returning", formSubmission("Vee", "VP Design"))
	if n := countRows(t, a, `SELECT count(*) FROM exec_form_submissions WHERE kind = 'returning'`); n != 1 {
		t.Errorf("%d returning rows", n)
	}
}

func principalID(t *testing.T, a *app.App, email string) uuid.UUID {
	t.Helper()
	p, err := a.Store.ProfileGetByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func objectBytes(t *testing.T, a *app.App, key string) []byte {
	t.Helper()
	body, _, err := a.Blob.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	data, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestOnboardingExports covers the review list's scope, the CSV and the
// headshot ZIP.
func TestOnboardingExports(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	now := time.Now().UTC().Truncate(time.Second)
	open := [2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31", open, open)
	pres := as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "", &term))
	vp := as(t, a, anon, execAccount(t, a, "vp@example.com", "admin", "VP", "design", &term))
	web := as(t, a, anon, execAccount(t, a, "web@example.com", "admin", "Exec", "web", &term))
	member := as(t, a, anon, account(t, a, "m@example.com", "M", "member"))

	vp.expect(201, "PUT", "/api/onboarding", formSubmission("Zoë Ñandú", "VP"))
	web.expect(201, "PUT", "/api/onboarding", formSubmission("=cmd|' /C calc'!A0", "Exec"))
	pres.expect(201, "PUT", "/api/onboarding", formSubmission("Pres", "President"))
	vpShot := append(pngFile(), []byte("vp")...)
	webShot := jpegFile()
	vp.uploadHeadshot("/api/onboarding/headshot", vpShot, "true")
	web.uploadHeadshot("/api/onboarding/headshot", webShot, "true")
	vpID, webID := principalID(t, a, "vp@example.com"), principalID(t, a, "web@example.com")

	// The list: a VP their subteam, the President all; a member nothing.
	member.expect(403, "GET", "/api/onboarding/submissions", nil)
	member.expect(403, "GET", "/api/onboarding/export.csv", nil)
	member.expect(403, "GET", "/api/onboarding/headshots.zip", nil)
	web.expect(403, "GET", "/api/onboarding/submissions", nil) // Exec is not VP
	var list struct {
		Submissions []struct {
			ProfileID uuid.UUID `json:"profile_id"`
			Subteam   *string   `json:"subteam"`
		} `json:"submissions"`
		Total int `json:"total"`
	}
	vp.expect(200, "GET", "/api/onboarding/submissions", nil).JSON(t, &list)
	if list.Total != 1 || list.Submissions[0].ProfileID != vpID || *list.Submissions[0].Subteam != "design" {
		t.Errorf("VP list %+v", list)
	}
	pres.expect(200, "GET", "/api/onboarding/submissions?kind=onboarding&term_id="+term.String(), nil).JSON(t, &list)
	if list.Total != 3 {
		t.Errorf("President list %+v", list)
	}
	pres.expect(200, "GET", "/api/onboarding/submissions?page=2&page_size=10", nil).JSON(t, &list)
	if list.Total != 3 || len(list.Submissions) != 0 {
		t.Errorf("President's page 2 %+v", list)
	}
	pres.expect(400, "GET", "/api/onboarding/submissions?kind=other", nil)
	pres.expect(400, "GET", "/api/onboarding/submissions?page=0", nil)
	pres.expect(200, "GET", "/api/onboarding/submissions?kind=returning", nil).JSON(t, &list)
	if list.Total != 0 {
		t.Errorf("returning list %+v", list)
	}

	// The CSV.
	r := pres.expect(200, "GET", "/api/onboarding/export.csv", nil)
	if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
	recs, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[0][0] != "profile_id" || recs[0][1] != "display_name" {
		t.Fatalf("csv %q", recs)
	}
	names := map[string]bool{}
	for _, rec := range recs[1:] {
		names[rec[1]] = true
	}
	if !names["'=cmd|' /C calc'!A0"] || !names["Zoë Ñandú"] || !names["Pres"] {
		t.Errorf("names %v", names)
	}
	r = vp.expect(200, "GET", "/api/onboarding/export.csv", nil)
	if recs, _ := csv.NewReader(bytes.NewReader(r.Body)).ReadAll(); len(recs) != 2 || recs[1][1] != "Zoë Ñandú" {
		t.Errorf("VP csv %q", recs)
	}

	// The ZIP: stored entries equal to the uploads.
	r = pres.expect(200, "GET", "/api/onboarding/headshots.zip", nil)
	zr, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{
		"Zoë Ñandú-" + vpID.String() + ".png":         vpShot,
		"_cmd_ _C calc_A0-" + webID.String() + ".jpg": webShot,
	}
	if len(zr.File) != len(want) {
		t.Fatalf("%d entries, want %d", len(zr.File), len(want))
	}
	for _, f := range zr.File {
		if f.Method != zip.Store {
			t.Errorf("%s is not stored", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		if w, ok := want[f.Name]; !ok || !bytes.Equal(w, data) {
			t.Errorf("entry %q (%d bytes) unexpected", f.Name, len(data))
		}
	}
	r = vp.expect(200, "GET", "/api/onboarding/headshots.zip", nil)
	if zr, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body))); err != nil || len(zr.File) != 1 {
		t.Errorf("VP zip: %v", err)
	}

	// A missing object is skipped and listed (TestOnboardingZipSkipsMissing).
	if err := a.Blob.Delete(context.Background(), "headshots/"+term.String()+"/onboarding/"+webID.String()+".jpg"); err != nil {
		t.Fatal(err)
	}
	if got := zipEntries(t, pres.expect(200, "GET", "/api/onboarding/headshots.zip", nil).Body); len(got) != 2 || got["missing.txt"] == nil {
		t.Errorf("with a missing object: entries %v", keys(got))
	}
}

// recordHeadshotCleanup keeps the history of a finished HeadshotCleanup run
// of the test's task queue for the replay test (RECORD_HISTORIES=1).
func recordHeadshotCleanup(t *testing.T, a *app.App) {
	t.Helper()
	resp, err := a.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: "WorkflowType = 'HeadshotCleanup' AND TaskQueue = '" + a.Config.TaskQueue + "' AND ExecutionStatus = 'Completed'"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Executions) > 0 {
		testenv.RecordHistory(t, a.Temporal, resp.Executions[0].Execution.WorkflowId, "headshot_cleanup")
	}
}
