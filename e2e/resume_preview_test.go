package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/db"
)

// profileOptIn reads marketing_opt_in from a profile answer.
func profileOptIn(t *testing.T, r response) bool {
	t.Helper()
	v, ok := r.Map(t)["marketing_opt_in"].(bool)
	if !ok {
		t.Fatalf("profile without marketing_opt_in: %s", r.Body)
	}
	return v
}

// The profile page turns marketing email off and on; the one-click
// unsubscribe's clearing shows there.
func TestProfileMarketingOptIn(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "mary@example.com", "Mary Somerville")
	if profileOptIn(t, me.expect(http.StatusOK, "GET", "/api/profile", nil)) {
		t.Fatal("a new account is opted in")
	}
	if !profileOptIn(t, me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{"marketing_opt_in": true})) {
		t.Fatal("PATCH true answers opted out")
	}
	r := me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{"display_name": "Mary F. Somerville"})
	if !profileOptIn(t, r) || r.Map(t)["display_name"] != "Mary F. Somerville" {
		t.Fatalf("a name change touched the opt-in: %s", r.Body)
	}
	if _, err := a.Store.ProfileUnsubscribe(context.Background(), myID); err != nil {
		t.Fatal(err)
	}
	if profileOptIn(t, me.expect(http.StatusOK, "GET", "/api/profile", nil)) {
		t.Fatal("the profile is opted in after an unsubscribe")
	}
	r = me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{"marketing_opt_in": true, "display_name": "Mary"})
	if !profileOptIn(t, r) || r.Map(t)["display_name"] != "Mary" {
		t.Fatalf("both fields: %s", r.Body)
	}
	if profileOptIn(t, me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{"marketing_opt_in": false})) {
		t.Fatal("PATCH false answers opted in")
	}
	me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{})
	for name, body := range map[string]string{
		"ErrNullOptIn":  `{"marketing_opt_in":null}`,
		"ErrTextOptIn":  `{"marketing_opt_in":"yes"}`,
		"ErrNullName":   `{"display_name":null}`,
		"ErrBlankName":  `{"display_name":"  "}`,
		"ErrOtherField": `{"role":"admin"}`,
	} {
		t.Run(name, func(t *testing.T) {
			me.expect(http.StatusBadRequest, "PATCH", "/api/profile", body)
		})
	}
	if profileOptIn(t, me.expect(http.StatusOK, "GET", "/api/profile", nil)) {
		t.Fatal("a refused PATCH changed the opt-in")
	}
}

// resumeLinks are the links GET /api/applications/resumes answers.
type resumeLinks struct {
	URL        *string `json:"url"`
	PreviewURL *string `json:"preview_url"`
}

func resumeLinksOf(t *testing.T, c *client) resumeLinks {
	t.Helper()
	var l resumeLinks
	c.expect(http.StatusOK, "GET", "/api/applications/resumes", nil).JSON(t, &l)
	return l
}

// fetchPreview fetches a preview link and checks that the store serves the
// file to be shown in place, as a PDF.
func fetchPreview(t *testing.T, link string, want []byte) {
	t.Helper()
	if !strings.Contains(link, "X-Amz-Expires=3600") {
		t.Fatalf("preview link %s is not valid for 3600 s", link)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, want) {
		t.Fatalf("GET preview = %d, %d bytes", resp.StatusCode, len(body))
	}
	if d := resp.Header.Get("Content-Disposition"); d != "inline" {
		t.Fatalf("preview Content-Disposition = %q, want inline", d)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("preview Content-Type = %q, want application/pdf", ct)
	}
}

// submitted makes an account whose submitted application carries the
// resume, and returns the application's id.
func submitted(t *testing.T, a *app.App, anon *client, email, filename string, file []byte) uuid.UUID {
	t.Helper()
	c, id := member(t, a, anon, email, "Applicant "+email)
	created := createApplication(t, c, id)
	for _, step := range completeSteps {
		c.expect(http.StatusOK, "PATCH", "/api/applications", step)
	}
	if r := c.upload(filename, file); r.Status != http.StatusOK {
		t.Fatalf("upload %s = %d %s", filename, r.Status, r.Body)
	}
	c.expect(http.StatusOK, "POST", "/api/applications/submit", nil)
	return created.ID
}

// reviewPreview reads resume_url and resume_preview_url of a reviewer view.
func reviewPreview(t *testing.T, r response) (download, preview *string) {
	t.Helper()
	var body struct {
		Application struct {
			ResumeURL        *string `json:"resume_url"`
			ResumePreviewURL *string `json:"resume_preview_url"`
		} `json:"application"`
	}
	r.JSON(t, &body)
	return body.Application.ResumeURL, body.Application.ResumePreviewURL
}

// A PDF gets a preview link that the browser shows in place, a DOCX or a
// DOC none; the download link stays an attachment. The reviewer's queue
// and the admin details carry the same preview.
func TestResumePreview(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "ada@example.com", "Ada Lovelace")
	if l := resumeLinksOf(t, me); l.PreviewURL != nil || l.URL != nil {
		t.Fatalf("no application: %+v", l)
	}
	createApplication(t, me, myID)
	if l := resumeLinksOf(t, me); l.PreviewURL != nil || l.URL != nil {
		t.Fatalf("no resume: %+v", l)
	}

	pdf := pdfFile("ada")
	me.upload("cv.pdf", pdf)
	l := resumeLinksOf(t, me)
	if l.PreviewURL == nil || l.URL == nil {
		t.Fatalf("PDF: %+v", l)
	}
	fetchPreview(t, *l.PreviewURL, pdf)
	if _, d := download(t, *l.URL); !strings.HasPrefix(d, "attachment") {
		t.Fatalf("download Content-Disposition = %q, want attachment", d)
	}
	for name, file := range map[string][]byte{"cv.docx": docxFile(t), "cv.doc": docFile()} {
		me.upload(name, file)
		if l := resumeLinksOf(t, me); l.PreviewURL != nil || l.URL == nil {
			t.Fatalf("%s: %+v", name, l)
		}
	}

	reviewer := as(t, a, anon, account(t, a, "rev@example.com", "Rev", "admin"))
	pdfApp := submitted(t, a, anon, "pdf@example.com", "resume.pdf", pdf)
	download, preview := reviewPreview(t, reviewer.expect(http.StatusOK, "GET", "/api/applications/random", nil))
	if download == nil || preview == nil {
		t.Fatalf("reviewer view of a PDF: resume_url %v, resume_preview_url %v", download, preview)
	}
	fetchPreview(t, *preview, pdf)
	download, preview = reviewPreview(t, reviewer.expect(http.StatusOK, "GET", "/api/admin/applications/"+pdfApp.String(), nil))
	if download == nil || preview == nil {
		t.Fatal("admin view of a PDF has no preview")
	}
	fetchPreview(t, *preview, pdf)
	docxApp := submitted(t, a, anon, "docx@example.com", "resume.docx", docxFile(t))
	download, preview = reviewPreview(t, reviewer.expect(http.StatusOK, "GET", "/api/admin/applications/"+docxApp.String(), nil))
	if download == nil || preview != nil {
		t.Fatalf("admin view of a DOCX: resume_url %v, resume_preview_url %v", download, preview)
	}
}

// A resume uploaded before types were stored gets its type from the
// object's first bytes the first time its links are made, once; the row's
// updated_at stays. A resume whose object cannot be read gets no preview,
// and the answer is still 200.
func TestResumeTypeBackfill(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "grace@example.com", "Grace Hopper")
	createApplication(t, me, myID)
	pdf := pdfFile("grace")
	me.upload("cv.pdf", pdf)
	ctx := context.Background()
	stored := func(t *testing.T) db.Application {
		t.Helper()
		row, err := a.Store.ApplicationGetByProfile(ctx, myID)
		if err != nil {
			t.Fatal(err)
		}
		return row
	}
	// setResume stores a resume without its type, as before types were.
	setResume := func(t *testing.T, key, name *string) {
		t.Helper()
		if err := a.Store.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{ID: stored(t).ID, ResumeKey: key, ResumeName: name}); err != nil {
			t.Fatal(err)
		}
	}
	uploaded := stored(t)
	if uploaded.ResumeType == nil || *uploaded.ResumeType != "pdf" {
		t.Fatalf("the upload stored type %v, want pdf", uploaded.ResumeType)
	}

	setResume(t, uploaded.ResumeKey, uploaded.ResumeName)
	before := stored(t).UpdatedAt
	l := resumeLinksOf(t, me)
	if l.PreviewURL == nil {
		t.Fatal("no preview for a PDF stored without its type")
	}
	fetchPreview(t, *l.PreviewURL, pdf)
	if after := stored(t); after.ResumeType == nil || *after.ResumeType != "pdf" || !after.UpdatedAt.Equal(before) {
		t.Fatalf("after the backfill: type %v, updated_at %s (was %s)", after.ResumeType, after.UpdatedAt, before)
	}

	t.Run("MissingObject", func(t *testing.T) {
		gone := myID.String() + "/gone.pdf"
		setResume(t, &gone, uploaded.ResumeName)
		if l := resumeLinksOf(t, me); l.URL == nil || l.PreviewURL != nil {
			t.Fatalf("missing object: %+v", l)
		}
		if kind := stored(t).ResumeType; kind != nil {
			t.Fatalf("a type (%s) was stored for an object that cannot be read", *kind)
		}
	})
}

// The owner's view carries the team's display names in listed order, as
// the reviewer view does; an account without a name shows null.
func TestOwnerViewTeamNames(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "ada@example.com", "Ada Lovelace")
	member(t, a, anon, "alan@example.com", "Alan Turing")
	account(t, a, "nameless@example.com", "", "member")
	createApplication(t, me, myID)
	type owner struct {
		Team []struct {
			Email       string  `json:"email"`
			DisplayName *string `json:"display_name"`
		} `json:"team_members_with_names"`
	}
	var got owner
	r := me.expect(http.StatusOK, "GET", "/api/applications", nil)
	r.JSON(t, &got)
	if got.Team == nil || len(got.Team) != 0 {
		t.Fatalf("no team: want team_members_with_names: [] in %s", r.Body)
	}
	me.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"team_members": "NAMELESS@example.com, alan@example.com"})
	me.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &got)
	if len(got.Team) != 2 || got.Team[0].Email != "nameless@example.com" || got.Team[0].DisplayName != nil ||
		got.Team[1].Email != "alan@example.com" || got.Team[1].DisplayName == nil || *got.Team[1].DisplayName != "Alan Turing" {
		t.Fatalf("team_members_with_names %+v", got.Team)
	}
}
