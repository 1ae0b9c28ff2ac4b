package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// pngImage is a small real PNG (the page previews it), different per seed.
func pngImage(t *testing.T, seed uint8) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for x := range 16 {
		for y := range 16 {
			img.Set(x, y, color.RGBA{R: seed, G: uint8(x * 16), B: uint8(y * 16), A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// execSubmission is a submission as GET /api/onboarding shows it.
type execSubmission struct {
	ProfileID       uuid.UUID `json:"profile_id"`
	DisplayName     string    `json:"display_name"`
	Email           string    `json:"email"`
	Role            string    `json:"role"`
	TermType        string    `json:"term_type"`
	HeadshotKey     *string   `json:"headshot_key"`
	HeadshotConsent bool      `json:"headshot_consent"`
	ChatHandle      string    `json:"chat_handle"`
	PhotoHandle     string    `json:"photo_handle"`
	DsCompetency    string    `json:"ds_competency"`
}

// downloaded waits for the file the page saves into dir and returns its
// bytes (a .crdownload is one still arriving).
func downloaded(t *testing.T, dir, name string) []byte {
	t.Helper()
	var data []byte
	testenv.Eventually(t, 10*time.Second, func() (bool, string) {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return false, "the download of " + name + " (the directory holds " + strings.Join(names, ", ") + ")"
		}
		data = b
		return true, ""
	})
	return data
}

// An exec of the term fills the onboarding form inside its window (the
// email starts as the profile's): a submit with answers missing lists
// them; the headshot waits for consent, then uploads (its preview
// shown); a reload brings every answer back; the
// submission lands in the API with its fields and the stored headshot is
// the file's bytes, and the saved progress is gone. With the window moved
// to tomorrow, opening /onboarding lands on / with the window's message; a
// member, whom the form is not for, is told why on the page. axe-core
// finds nothing on each state.
func TestWebOnboarding(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	now := time.Now().UTC().Truncate(time.Minute)
	open := [2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31", open, open)
	photo := pngImage(t, 200)
	photoFile := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(photoFile, photo, 0o600); err != nil {
		t.Fatal(err)
	}
	const consent = "I agree that the club may show this photo on its website and social media"

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "vp+" + vp.Name + "@x.test"
		id := execAccount(t, a, email, "admin", "VP", "design", &term)
		exec := as(t, a, anon, id)
		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")

		p.Visit("/onboarding")
		p.WaitFor("button", "Submit")
		if got := p.Heading(1); got != "Onboarding form" {
			t.Errorf("the h1 is %q", got)
		}
		if got := p.Value("Email"); got != email {
			t.Errorf("the email starts as %q, want the profile's %q", got, email)
		}
		if got := p.Value("Role"); got != "VP" {
			t.Errorf("the form's role starts as %q, not the exec's own position, VP", got)
		}
		p.Axe()
		webShot(p, "onboarding", "new", vp)

		// Missing answers are listed, each beside its field.
		p.Fill("Display name", "")
		p.Click("button", "Submit")
		p.WaitText("Enter your display name")
		p.WaitText("Choose your role")
		p.WaitText("Choose your term type")
		p.WaitText("Choose your data science competency")
		p.Axe()
		webShot(p, "onboarding", "missing", vp)

		name := "Zoë Ñandú " + vp.Name
		p.Fill("Display name", name)
		p.Select("Role", "VP")
		p.Check("Fall")
		p.SetFile("Headshot", photoFile)
		p.WaitFor("image", "Preview of the headshot you chose")
		p.WaitText("Tick the box below to agree, and the photo will be uploaded.")
		p.Check(consent)
		p.WaitText("Uploaded: me.png")
		p.Fill("Chat handle (optional)", "zoe#"+vp.Name)
		p.Fill("Photo-sharing handle (optional)", "@zoe."+vp.Name)
		p.Check("Intermediate")
		p.Axe()
		webShot(p, "onboarding", "filled", vp)
		if r := exec.expect(200, "GET", "/api/onboarding", nil); !strings.Contains(string(r.Body), `"submission":null`) {
			t.Fatalf("before submitting the API holds %s", r.Body)
		}

		// A reload before submitting brings every answer back.
		p.Reload()
		p.WaitFor("button", "Submit")
		p.WaitText("We restored the answers you had not submitted yet on this device.")
		for label, want := range map[string]string{"Display name": name, "Email": email, "Role": "VP",
			"Chat handle (optional)": "zoe#" + vp.Name, "Photo-sharing handle (optional)": "@zoe." + vp.Name} {
			if got := p.Value(label); got != want {
				t.Errorf("after a reload %s is %q, want %q", label, got, want)
			}
		}
		for _, label := range []string{"Fall", "Intermediate", consent} {
			if !p.Checked(label) {
				t.Errorf("after a reload %q is not checked", label)
			}
		}
		p.WaitText("Uploaded: me.png")
		p.Axe()

		p.Click("button", "Submit")
		p.WaitText("Your form is submitted. Thank you.")
		p.WaitFor("button", "Save changes")
		p.Axe()
		webShot(p, "onboarding", "submitted", vp)

		var form struct {
			Submission *execSubmission `json:"submission"`
		}
		exec.expect(200, "GET", "/api/onboarding", nil).JSON(t, &form)
		key := "headshots/" + term.String() + "/onboarding/" + id.String() + ".png"
		want := execSubmission{ProfileID: id, DisplayName: name, Email: email, Role: "VP", TermType: "fall",
			HeadshotKey: &key, HeadshotConsent: true, ChatHandle: "zoe#" + vp.Name, PhotoHandle: "@zoe." + vp.Name, DsCompetency: "intermediate"}
		if s := form.Submission; s == nil || s.HeadshotKey == nil || *s.HeadshotKey != key {
			t.Fatalf("the API holds %+v, want %+v", s, want)
		} else if got := *s; got.HeadshotKey != nil {
			got.HeadshotKey = &key
			if got != want {
				t.Errorf("the API holds %+v, want %+v", got, want)
			}
		}
		if got := objectBytes(t, a, key); !bytes.Equal(got, photo) {
			t.Errorf("the stored headshot is %d bytes, not the %d uploaded", len(got), len(photo))
		}
		for _, k := range p.LocalStorageKeys() {
			if strings.HasPrefix(k, "hackdesk.onboarding.") {
				t.Errorf("the progress %s stayed after submitting", k)
			}
		}
		// The stored submission fills the form on return.
		p.Reload()
		p.WaitFor("button", "Save changes")
		if got := p.Value("Display name"); got != name {
			t.Errorf("the stored submission shows the name %q", got)
		}

		// The window moved to tomorrow: the page sends the exec home with
		// the window's message.
		opens := now.Add(24 * time.Hour)
		setWindow(t, super, term, "onboarding", opens, opens.Add(time.Hour))
		// The home page reads the window's words from the form's 403.
		p.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/onboarding?term_id=" + term.String())
		p.Visit("/onboarding")
		p.WaitURL("/?form=onboarding&notice=form-closed&term=" + term.String())
		p.WaitText("Onboarding for 2026-2027 opens " + opens.Format("2 January 2006 15:04") + " UTC")
		p.Axe()
		webShot(p, "onboarding", "closed", vp)
		// The notice is a code: a link's own words show nothing.
		p.Visit("/?notice=" + url.QueryEscape("Your account is locked. Call +1 613 555 0100"))
		p.WaitFor("heading", "Your next step")
		if p.HasText("Please note") || p.HasText("Your account is locked") {
			t.Error("the home page printed a notice of the link's choosing")
		}
		setWindow(t, super, term, "onboarding", open[0], open[1])

		// A member, whom the form is not for, is told why.
		memberEmail := "member+" + vp.Name + "@x.test"
		decAccount(t, a, anon, memberEmail, "member")
		m := browser.Open(t, site, vp)
		m.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/onboarding")
		webSignIn(t, m, memberEmail, "password-"+memberEmail, "/")
		m.Visit("/onboarding")
		m.WaitText("This form is not for you")
		m.WaitText("The onboarding form is for execs of 2026-2027.")
		if m.Exists("button", "Submit") {
			t.Error("the member is shown the form")
		}
		m.Axe()
		webShot(m, "onboarding", "ineligible", vp)
	})
}

// The President lists every submission of the term, sorts them (the view
// kept in the URL across a reload), searches, and downloads the CSV and
// the headshot ZIP: the saved CSV holds the API's submissions, the ZIP the
// uploaded headshots byte for byte under their names. A VP sees only
// their subteam's. axe-core finds nothing on each state.
func TestWebOnboardingReview(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	now := time.Now().UTC().Truncate(time.Minute)
	open := [2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31", open, open)
	super.expect(200, "PATCH", "/api/admin/terms/"+term.String(), map[string]any{"active": true})
	presID := execAccount(t, a, "pres@x.test", "admin", "President", "", &term)
	vpID := execAccount(t, a, "vp@x.test", "admin", "VP", "design", &term)
	webID := execAccount(t, a, "web@x.test", "admin", "Exec", "web", &term)
	pres, vpc, web := as(t, a, anon, presID), as(t, a, anon, vpID), as(t, a, anon, webID)
	body := func(name, email, role string) map[string]any {
		return map[string]any{"display_name": name, "email": email, "role": role, "term_type": "full_year",
			"chat_handle": "chat-" + role, "photo_handle": "@" + role, "ds_competency": "beginner"}
	}
	vpc.expect(201, "PUT", "/api/onboarding", body("Zoë Ñandú", "zoe@x.test", "VP"))
	web.expect(201, "PUT", "/api/onboarding", body("Wes Web", "wes@x.test", "Exec"))
	pres.expect(201, "PUT", "/api/onboarding", body("Pat President", "pat@x.test", "President"))
	vpShot, webShotBytes := pngImage(t, 10), jpegFile()
	vpc.uploadHeadshot("/api/onboarding/headshot", vpShot, "true")
	web.uploadHeadshot("/api/onboarding/headshot", webShotBytes, "true")
	const caption = "Onboarding submissions for 2026-2027"
	// An exec who has not sent the form: listed under "Not sent yet".
	ninaID := account(t, a, "nina@x.test", "Nina Newcomer", "admin")
	testenv.ExecRole(t, a.Store, ninaID, testenv.ExecRoleOpts{Position: "Exec", Subteam: "web", Term: &term})

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		p := browser.Open(t, site, vp)
		webSignIn(t, p, "pres@x.test", "password-pres@x.test", "/")
		p.Visit("/onboarding/review")
		p.WaitFor("table", caption)
		if got := p.Heading(1); got != "Onboarding submissions" {
			t.Errorf("the h1 is %q", got)
		}
		p.WaitText("You see every subteam’s submissions.")
		p.WaitFor("heading", "Not sent yet")
		p.WaitText("Nina Newcomer")
		rows := p.Table(caption)
		if len(rows) != 4 || rows[1][0] != "Pat President" || rows[2][0] != "Wes Web" || rows[3][0] != "Zoë Ñandú" {
			t.Fatalf("the President's table shows %q", rows)
		}
		if rows[3][3] != "design" || rows[3][8] != "Yes" || rows[1][8] != "No" {
			t.Errorf("Zoë's row %q, Pat's %q", rows[3], rows[1])
		}
		p.Axe()
		webShot(p, "onboarding-review", "all", vp)

		// Sorted by name, newest order kept in the URL across a reload.
		p.Click("button", "Name")
		p.WaitURL("/onboarding/review?order=desc")
		p.Reload()
		p.WaitFor("table", caption)
		if rows := p.Table(caption); len(rows) != 4 || rows[1][0] != "Zoë Ñandú" {
			t.Errorf("sorted by name descending: %q", rows)
		}
		p.Fill("Search by name or email", "wes@")
		p.Click("button", "Show")
		p.WaitURL("/onboarding/review?q=wes%40&order=desc")
		p.WaitText("1 submission")
		if rows := p.Table(caption); len(rows) != 2 || rows[1][0] != "Wes Web" {
			t.Errorf("searched for wes@: %q", rows)
		}
		p.Fill("Search by name or email", "nobody")
		p.Click("button", "Show")
		p.WaitFor("heading", "No submissions match “nobody”")
		p.Axe()
		webShot(p, "onboarding-review", "nomatch", vp)
		p.Click("button", "Clear search")
		p.WaitFor("table", caption)

		// The downloads: the CSV, then the ZIP, as the API has them.
		dir := t.TempDir()
		p.DownloadTo(dir)
		p.Click("button", "Download CSV")
		p.WaitText("Saved 2026-2027-onboarding.csv")
		recs, err := csv.NewReader(bytes.NewReader(downloaded(t, dir, "2026-2027-onboarding.csv"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Submissions []execSubmission `json:"submissions"`
		}
		pres.expect(200, "GET", "/api/onboarding/submissions?term_id="+term.String(), nil).JSON(t, &list)
		var fromAPI, fromCSV []string
		for _, s := range list.Submissions {
			fromAPI = append(fromAPI, strings.Join([]string{s.ProfileID.String(), s.DisplayName, s.Email, s.Role}, "|"))
		}
		for _, rec := range recs[1:] {
			fromCSV = append(fromCSV, strings.Join(rec[:4], "|"))
		}
		sort.Strings(fromAPI)
		sort.Strings(fromCSV)
		if len(recs) == 0 || recs[0][0] != "profile_id" || len(fromAPI) != 3 || strings.Join(fromAPI, "\n") != strings.Join(fromCSV, "\n") {
			t.Errorf("the CSV holds\n%s\nthe API\n%s", strings.Join(fromCSV, "\n"), strings.Join(fromAPI, "\n"))
		}
		p.Axe()

		p.Click("button", "Download headshots (ZIP)")
		p.WaitText("Saved 2026-2027-onboarding.zip")
		data := downloaded(t, dir, "2026-2027-onboarding.zip")
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]byte{
			"Zoë Ñandú-" + vpID.String() + ".png": vpShot,
			"Wes Web-" + webID.String() + ".jpg":  webShotBytes,
		}
		if len(zr.File) != len(want) {
			t.Errorf("the ZIP holds %d entries, want %d", len(zr.File), len(want))
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(rc)
			rc.Close()
			if w, ok := want[f.Name]; !ok || !bytes.Equal(w, got) {
				t.Errorf("the ZIP's entry %q (%d bytes) is not an upload", f.Name, len(got))
			}
		}
		p.Axe()
		webShot(p, "onboarding-review", "downloaded", vp)

		// A VP sees their subteam's submissions only.
		v := browser.Open(t, site, vp)
		webSignIn(t, v, "vp@x.test", "password-vp@x.test", "/")
		v.Visit("/onboarding/review")
		v.WaitFor("table", caption)
		v.WaitText("You see the submissions of your subteam, design.")
		if rows := v.Table(caption); len(rows) != 2 || rows[1][0] != "Zoë Ñandú" {
			t.Errorf("the VP's table shows %q", rows)
		}
		v.Axe()
		webShot(v, "onboarding-review", "vp", vp)

		// A download the server refuses says so: the VP's role ends while
		// the page is open.
		pool := a.Store.Pool()
		if _, err := pool.Exec(context.Background(), `UPDATE exec_roles SET active = false WHERE profile_id = $1`, vpID); err != nil {
			t.Fatal(err)
		}
		sessionBound()
		v.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/onboarding/headshots.zip")
		v.Click("button", "Download headshots (ZIP)")
		v.WaitText("Could not download the headshots: your role no longer lets you see these submissions.")
		v.Axe()
		webShot(v, "onboarding-review", "failed", vp)
		if _, err := pool.Exec(context.Background(), `UPDATE exec_roles SET active = true WHERE profile_id = $1`, vpID); err != nil {
			t.Fatal(err)
		}
	})
}
