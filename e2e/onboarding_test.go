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
	"hackdesk/dev/testenv"
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
