package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/resume"
)

// member creates a confirmed account and returns a signed-in client and
// the account's id.
func member(t *testing.T, a *app.App, base *client, email, name string) (*client, uuid.UUID) {
	t.Helper()
	id := account(t, a, email, name, "member")
	return login(t, base, email, "password-"+email), id
}

// appJSON is the subset of an application the tests read.
type appJSON struct {
	ID           uuid.UUID `json:"id"`
	ProfileID    uuid.UUID `json:"profile_id"`
	Status       string    `json:"status"`
	Email        *string   `json:"email"`
	Gender       *string   `json:"gender"`
	GithubURL    *string   `json:"github_url"`
	TeamMembers  string    `json:"team_members"`
	ResumeKey    *string   `json:"resume_key"`
	SubmittedAt  *string   `json:"submitted_at"`
	HackathonsAt *int      `json:"hackathons_attended"`
}

func createApplication(t *testing.T, c *client, profile uuid.UUID) appJSON {
	t.Helper()
	var got appJSON
	c.expect(http.StatusCreated, "POST", "/api/applications", map[string]string{"profile_id": profile.String()}).JSON(t, &got)
	return got
}

// completeSteps fills every required field of steps 1, 2, 3 and 5.
var completeSteps = []map[string]any{
	{"phone": "+1 (613) 555-0100", "discord": "ada_l", "tshirt_size": "M", "age": 21, "country": "Canada",
		"dietary_restrictions": []string{"vegetarian", "no nuts"}, "gender": "woman"},
	{"university": "University of Ottawa", "program": "Computer Science", "year_of_study": "3",
		"experience_level": "beginner", "hackathons_attended": 2, "github_url": "https://github.com/ada"},
	{"q1_answer": "I built a differential analyzer and learned about numerical stability.",
		"q2_answer": "Silent engine hums / cards punched with patient fingers / numbers learn to dance"},
	{"coc_agreed": true, "info_share_authorized": true, "marketing_opt_in": false},
}

func TestApplicantPath(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "ada@example.com", "Ada Lovelace")
	member(t, a, anon, "alan@example.com", "Alan Turing")
	member(t, a, anon, "alonzo@example.com", "Alonzo Church")
	// An unconfirmed account never appears in the search.
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": "alice@example.com", "password": "quiet lantern harbor", "display_name": "Alice Unconfirmed"})

	if r := me.expect(http.StatusOK, "GET", "/api/applications", nil); string(bytes.TrimSpace(r.Body)) != "null" {
		t.Fatalf("GET before creating = %s, want null", r.Body)
	}
	me.expect(http.StatusForbidden, "POST", "/api/applications", map[string]string{"profile_id": uuid.NewString()})
	created := createApplication(t, me, myID)
	if created.Status != "draft" || created.ProfileID != myID || created.Email == nil || *created.Email != "ada@example.com" {
		t.Fatalf("created %+v", created)
	}
	me.expect(http.StatusConflict, "POST", "/api/applications", map[string]string{"profile_id": myID.String()})

	for i, step := range completeSteps {
		r := me.expect(http.StatusOK, "PATCH", "/api/applications", step)
		if r.Map(t)["success"] != true {
			t.Fatalf("step %d: %s", i+1, r.Body)
		}
	}

	// Team search: by name or email, confirmed only, never the caller.
	var found struct {
		Emails []struct {
			ID          uuid.UUID `json:"id"`
			Email       string    `json:"email"`
			DisplayName *string   `json:"display_name"`
		} `json:"emails"`
	}
	for q, want := range map[string]string{
		"ALAN@example.com": "alan@example.com",
		"alo":              "alonzo@example.com",
		"ali":              "", // the unconfirmed Alice
		"ada":              "", // never Ada herself
		"example":          "", // the domain is never searched (see user_search_test.go)
	} {
		me.expect(http.StatusOK, "GET", "/api/users/emails?q="+url.QueryEscape(q), nil).JSON(t, &found)
		var emails []string
		for _, e := range found.Emails {
			emails = append(emails, e.Email)
		}
		if strings.Join(emails, ",") != want {
			t.Fatalf("search %s = %v, want %q", q, emails, want)
		}
	}
	// Fewer than 3 characters is refused (see accounts_hardening_test.go).
	me.expect(http.StatusBadRequest, "GET", "/api/users/emails?q=AL", nil)
	me.expect(http.StatusOK, "GET", "/api/users/emails?q=turing", nil).JSON(t, &found)
	if len(found.Emails) != 1 || *found.Emails[0].DisplayName != "Alan Turing" {
		t.Fatalf("search by surname = %+v", found.Emails)
	}
	me.expect(http.StatusOK, "GET", "/api/users/emails?q=%25%25%25", nil).JSON(t, &found)
	if len(found.Emails) != 0 {
		t.Fatalf("a LIKE wildcard matched %d accounts", len(found.Emails))
	}
	me.expect(http.StatusBadRequest, "GET", "/api/users/emails?q=alan&limit=500", nil)

	me.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"team_members": []string{"ALAN@example.com", "alonzo@example.com"}})

	// Resume: upload, fetch the signed link and download through it.
	doc := pdfFile("ada")
	var up struct {
		Message string `json:"message"`
		Key     string `json:"key"`
	}
	me.upload("My CV (final).pdf", doc).JSON(t, &up)
	if up.Key != myID.String()+"/My_CV_final_.pdf" || up.Message == "" {
		t.Fatalf("upload answer %+v", up)
	}
	link := resumeLink(t, me)
	if link.Resume == nil || link.Resume.Name != "My_CV_final_.pdf" || link.Key == nil || *link.Key != up.Key {
		t.Fatalf("resume status %+v", link)
	}
	got, disposition := download(t, *link.URL)
	if !bytes.Equal(got, doc) {
		t.Fatal("the signed link does not serve the uploaded bytes")
	}
	if !strings.HasPrefix(disposition, "attachment") {
		t.Fatalf("Content-Disposition = %q, want attachment", disposition)
	}
	if !strings.Contains(*link.URL, "X-Amz-Expires=3600") {
		t.Fatalf("link %s is not valid for 3600 s", *link.URL)
	}

	// Submit, then everything is locked.
	var submitted struct {
		Success     bool    `json:"success"`
		Application appJSON `json:"application"`
	}
	me.expect(http.StatusOK, "POST", "/api/applications/submit", nil).JSON(t, &submitted)
	if !submitted.Success || submitted.Application.Status != "submitted" || submitted.Application.SubmittedAt == nil {
		t.Fatalf("submit answer %+v", submitted)
	}
	if submitted.Application.TeamMembers != "alan@example.com,alonzo@example.com" {
		t.Fatalf("team stored as %q", submitted.Application.TeamMembers)
	}
	if g := submitted.Application.Gender; g == nil || *g != "woman" {
		t.Fatalf("gender %v", g)
	}
	r := me.expect(http.StatusConflict, "PATCH", "/api/applications", map[string]any{"country": "France"})
	if r.Map(t)["error"] != "Application already submitted" {
		t.Fatalf("PATCH after submit %s", r.Body)
	}
	me.expect(http.StatusConflict, "POST", "/api/applications/submit", nil)
	if r := me.upload("other.pdf", pdfFile("other")); r.Status != http.StatusConflict {
		t.Fatalf("upload after submit = %d, want 409", r.Status)
	}
	var after appJSON
	me.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &after)
	if after.Status != "submitted" || *after.ResumeKey != up.Key {
		t.Fatalf("application changed after submission: %+v", after)
	}

	// The reviewer view carries the resume link and the team's names.
	view, err := review.LoadView(context.Background(), a.Store.Queries, a.Blob, a.Log, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if view.ResumeURL == nil || len(view.TeamMembersWithNames) != 2 ||
		view.TeamMembersWithNames[0].Email != "alan@example.com" || *view.TeamMembersWithNames[0].DisplayName != "Alan Turing" ||
		*view.TeamMembersWithNames[1].DisplayName != "Alonzo Church" {
		t.Fatalf("review view %+v", view)
	}
	if got, _ := download(t, *view.ResumeURL); !bytes.Equal(got, doc) {
		t.Fatal("the reviewer's link does not serve the resume")
	}
}

type resumeStatus struct {
	Resume *struct {
		Name string `json:"name"`
	} `json:"resume"`
	URL *string `json:"url"`
	Key *string `json:"key"`
}

func resumeLink(t *testing.T, c *client) resumeStatus {
	t.Helper()
	var s resumeStatus
	c.expect(http.StatusOK, "GET", "/api/applications/resumes", nil).JSON(t, &s)
	return s
}

// download fetches a signed link and returns the body and its
// Content-Disposition.
func download(t *testing.T, link string) ([]byte, string) {
	t.Helper()
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET signed link = %d: %s", resp.StatusCode, body)
	}
	return body, resp.Header.Get("Content-Disposition")
}

func TestApplicationValidation(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "grace@example.com", "Grace Hopper")
	member(t, a, anon, "t1@example.com", "T One")
	member(t, a, anon, "t2@example.com", "T Two")
	member(t, a, anon, "t3@example.com", "T Three")
	member(t, a, anon, "t4@example.com", "T Four")
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": "pending@example.com", "password": "quiet lantern harbor", "display_name": "Pending"})

	me.expect(http.StatusNotFound, "PATCH", "/api/applications", map[string]any{"country": "Canada"})
	me.expect(http.StatusNotFound, "POST", "/api/applications/submit", nil)
	createApplication(t, me, myID)

	t.Run("ErrSubmitIncomplete", func(t *testing.T) {
		var body errorJSON
		me.expect(http.StatusBadRequest, "POST", "/api/applications/submit", nil).JSON(t, &body)
		var got []string
		for f := range body.Details {
			got = append(got, f)
		}
		sort.Strings(got)
		want := "age,coc_agreed,country,discord,experience_level,hackathons_attended,info_share_authorized,phone,program,q1_answer,q2_answer,resume,tshirt_size,university,year_of_study"
		if body.Error != "Validation failed" || strings.Join(got, ",") != want {
			t.Fatalf("missing fields = %v (%s), want %s", got, body.Error, want)
		}
	})

	cases := []struct {
		name  string
		patch map[string]any
		field string
	}{
		{"ErrFourTeamMembers", map[string]any{"team_members": "t1@example.com,t2@example.com,t3@example.com,t4@example.com"}, "team_members"},
		{"ErrUnconfirmedTeammate", map[string]any{"team_members": []string{"t1@example.com", "pending@example.com"}}, "team_members"},
		{"ErrUnknownTeammate", map[string]any{"team_members": "nobody@example.com"}, "team_members"},
		{"ErrSelfAsTeammate", map[string]any{"team_members": "grace@example.com"}, "team_members"},
		{"ErrDuplicateTeammate", map[string]any{"team_members": "t1@example.com,T1@example.com"}, "team_members"},
		{"ErrInvalidURL", map[string]any{"github_url": "javascript:alert(1)"}, "github_url"},
		{"ErrRelativeURL", map[string]any{"website_url": "/home"}, "website_url"},
		{"ErrAge", map[string]any{"age": 7}, "age"},
		{"ErrAgeType", map[string]any{"age": "twenty"}, "age"},
		{"ErrTshirt", map[string]any{"tshirt_size": "XXXXL"}, "tshirt_size"},
		{"ErrEmail", map[string]any{"email": "not-an-email"}, "email"},
		{"ErrPhone", map[string]any{"phone": "call me"}, "phone"},
		{"ErrQ2TooLong", map[string]any{"q2_answer": strings.Repeat("x", 1001)}, "q2_answer"},
		{"ErrUnknownField", map[string]any{"status": "submitted"}, "status"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body errorJSON
			me.expect(http.StatusBadRequest, "PATCH", "/api/applications", c.patch).JSON(t, &body)
			if body.Error != "Validation failed" || body.Details[c.field] == "" {
				t.Fatalf("body %+v, want a reason for %s", body, c.field)
			}
		})
	}
	var cur appJSON
	me.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &cur)
	if cur.TeamMembers != "" || cur.GithubURL != nil {
		t.Fatalf("a rejected PATCH changed the application: %+v", cur)
	}

	t.Run("NullClears", func(t *testing.T) {
		me.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"github_url": "https://github.com/grace", "gender": []string{"woman", " non-binary "}})
		var got appJSON
		me.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &got)
		if got.GithubURL == nil || got.Gender == nil || *got.Gender != "woman,non-binary" {
			t.Fatalf("after PATCH %+v", got)
		}
		me.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"github_url": nil})
		me.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &got)
		if got.GithubURL != nil || got.Gender == nil {
			t.Fatalf("null did not clear only github_url: %+v", got)
		}
	})
}

func TestResumeUploads(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "edsger@example.com", "Edsger")
	if r := me.upload("cv.pdf", pdfFile("x")); r.Status != http.StatusNotFound {
		t.Fatalf("upload without an application = %d, want 404", r.Status)
	}
	createApplication(t, me, myID)

	t.Run("ErrTooLarge", func(t *testing.T) {
		big := append(pdfFile("big"), bytes.Repeat([]byte("x"), resume.MaxSize)...)[:resume.MaxSize+1]
		r := me.upload("big.pdf", big)
		if r.Status != http.StatusRequestEntityTooLarge || r.Map(t)["error"] != "File too large" || r.Map(t)["message"] == nil {
			t.Fatalf("10 MB + 1 byte = %d %s", r.Status, r.Body)
		}
	})
	t.Run("ExactlyMaxSize", func(t *testing.T) {
		full := append(pdfFile("full"), bytes.Repeat([]byte("x"), resume.MaxSize)...)[:resume.MaxSize]
		if r := me.upload("full.pdf", full); r.Status != http.StatusOK {
			t.Fatalf("exactly 10 MB = %d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrPNGNamedPDF", func(t *testing.T) {
		r := me.upload("photo.pdf", pngFile())
		if r.Status != http.StatusUnsupportedMediaType || r.Map(t)["error"] != "Unsupported file type" {
			t.Fatalf("PNG named .pdf = %d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrPDFNamedDOCX", func(t *testing.T) {
		if r := me.upload("cv.docx", pdfFile("x")); r.Status != http.StatusUnsupportedMediaType {
			t.Fatalf("PDF named .docx = %d", r.Status)
		}
	})
	t.Run("DOCX", func(t *testing.T) {
		if r := me.upload("cv.docx", docxFile(t)); r.Status != http.StatusOK {
			t.Fatalf("real DOCX = %d %s", r.Status, r.Body)
		}
	})
	t.Run("DOC", func(t *testing.T) {
		if r := me.upload("cv.doc", docFile()); r.Status != http.StatusOK {
			t.Fatalf("OLE2 .doc = %d %s", r.Status, r.Body)
		}
	})
	t.Run("UnsafeName", func(t *testing.T) {
		var up struct {
			Key string `json:"key"`
		}
		r := me.upload("../../etc/my resume.pdf", pdfFile("x"))
		r.JSON(t, &up)
		if up.Key != myID.String()+"/my_resume.pdf" {
			t.Fatalf("key %q, want %s/my_resume.pdf", up.Key, myID)
		}
	})
	t.Run("ErrNoFilePart", func(t *testing.T) {
		r := me.do("POST", "/api/applications/resumes", []byte("--b\r\n--b--\r\n"), "Content-Type", "multipart/form-data; boundary=b")
		if r.Status != http.StatusBadRequest {
			t.Fatalf("no file part = %d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrNotMultipart", func(t *testing.T) {
		if r := me.do("POST", "/api/applications/resumes", pdfFile("x"), "Content-Type", "application/pdf"); r.Status != http.StatusUnsupportedMediaType {
			t.Fatalf("raw body = %d", r.Status)
		}
	})
	t.Run("FailedUploadKeepsOldResume", func(t *testing.T) {
		before := resumeLink(t, me)
		me.upload("evil.docx", pngFile())
		after := resumeLink(t, me)
		if *before.Key != *after.Key {
			t.Fatalf("a rejected upload changed the resume from %s to %s", *before.Key, *after.Key)
		}
	})
}

// Nobody can get a link to someone else's resume: the endpoints take no
// parameter naming an owner, and the store refuses unsigned requests.
func TestResumeOwnership(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	owner, ownerID := member(t, a, anon, "owner@example.com", "Owner")
	other, otherID := member(t, a, anon, "other@example.com", "Other")
	createApplication(t, owner, ownerID)
	var up struct {
		Key string `json:"key"`
	}
	owner.upload("secret.pdf", pdfFile("secret")).JSON(t, &up)

	for _, q := range []string{"", "?key=" + up.Key, "?profile_id=" + ownerID.String(), "?user_id=" + ownerID.String(), "?id=" + ownerID.String()} {
		r := other.expect(http.StatusOK, "GET", "/api/applications/resumes"+q, nil)
		var s resumeStatus
		r.JSON(t, &s)
		if s.URL != nil || s.Key != nil || s.Resume != nil || bytes.Contains(r.Body, []byte(up.Key)) {
			t.Fatalf("GET resumes%s as another user = %s", q, r.Body)
		}
	}
	createApplication(t, other, otherID)
	if s := resumeLink(t, other); s.URL != nil {
		t.Fatalf("the other user's draft shows a resume: %+v", s)
	}
	anon.expect(http.StatusUnauthorized, "GET", "/api/applications/resumes", nil)
	// The bucket is private: the object itself is unreachable without a signature.
	resp, err := http.Get(a.Config.S3Endpoint + "/" + a.Config.S3Bucket + "/" + up.Key)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("unsigned GET of the object = %d, want 403", resp.StatusCode)
	}
}
