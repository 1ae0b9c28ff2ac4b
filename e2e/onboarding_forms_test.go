package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// TestOnboardingForms covers both forms, one step after another on the
// same data: eligibility, the windows against the database clock, create
// vs update, validation and headshot uploads.
func TestOnboardingForms(t *testing.T) {
	t.Parallel()
	o := newOnboardingRound(t)
	o.eligibilityFirst()
	o.openForm()
	o.validation()
	o.createThenUpdate()
	o.headshotUploads()
	o.headshotReplacedAndRemoved()
	o.windowClosed()
	o.returningForm()
}

// onboardingRound is the data of TestOnboardingForms: the previous term
// (its windows long past) and the new one (onboarding open, returning
// not yet), a VP of the new term, an exec of the previous one and a member.
type onboardingRound struct {
	t               *testing.T
	a               *app.App
	super           *client
	vp, old, member *client
	now             time.Time
	prev, term      uuid.UUID
	form            onboardingForm
	pngKey          string
}

// onboardingForm is GET /api/onboarding's answer.
type onboardingForm struct {
	Term struct {
		ID uuid.UUID `json:"id"`
	} `json:"term"`
	Window struct {
		Open bool `json:"open"`
	} `json:"window"`
	RoleOptions []string        `json:"role_options"`
	Submission  *map[string]any `json:"submission"`
}

// onboardingSaved is PUT /api/onboarding's answer.
type onboardingSaved struct {
	Submission map[string]any `json:"submission"`
}

func newOnboardingRound(t *testing.T) *onboardingRound {
	a, anon := newApp(t)
	o := &onboardingRound{t: t, a: a, now: time.Now().UTC().Truncate(time.Second)}
	o.super = as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	now := o.now
	o.prev = termWithWindows(t, o.super, "2025-2026", "2025-09-01", "2026-08-31",
		[2]time.Time{now.Add(-400 * 24 * time.Hour), now.Add(-390 * 24 * time.Hour)},
		[2]time.Time{now.Add(-400 * 24 * time.Hour), now.Add(-390 * 24 * time.Hour)})
	o.term = termWithWindows(t, o.super, "2026-2027", "2026-09-01", "2027-08-31",
		[2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)},
		[2]time.Time{now.Add(2 * time.Hour), now.Add(48 * time.Hour)})
	hiringPosition(t, o.super, o.term, "VP Design", "design", "vp")
	hiringPosition(t, o.super, o.term, "Designer", "design", "exec")

	o.vp = as(t, a, anon, execAccount(t, a, "vp@example.com", "admin", "VP", "design", &o.term))
	o.old = as(t, a, anon, execAccount(t, a, "old@example.com", "admin", "Exec", "web", &o.prev))
	o.member = as(t, a, anon, account(t, a, "m@example.com", "M", "member"))
	return o
}

// eligibilityFirst: eligibility comes before the window.
func (o *onboardingRound) eligibilityFirst() {
	t := o.t
	o.member.expect(403, "GET", "/api/onboarding", nil)
	o.old.expect(403, "GET", "/api/onboarding", nil)
	o.vp.expect(403, "GET", "/api/onboarding/returning", nil)
	if title, _ := errorOf(t, o.member.expect(403, "GET", "/api/onboarding/returning", nil)); title != "Forbidden" {
		t.Errorf("ineligible returning: %s", title)
	}
	o.member.expect(403, "PUT", "/api/onboarding", formSubmission("M", "Designer"))
	o.member.uploadHeadshot("/api/onboarding/headshot", pngFile(), "true")
}

// openForm: the open form of the term, by default the hiring term.
func (o *onboardingRound) openForm() {
	t := o.t
	o.vp.expect(200, "GET", "/api/onboarding", nil).JSON(t, &o.form)
	if o.form.Term.ID != o.term || !o.form.Window.Open || strings.Join(o.form.RoleOptions, ",") != "Designer,VP Design" || o.form.Submission != nil {
		t.Fatalf("form %+v", o.form)
	}
	o.vp.expect(200, "GET", "/api/onboarding?term_id="+o.term.String(), nil)
	o.vp.expect(400, "GET", "/api/onboarding?term_id=nope", nil)
	o.vp.expect(404, "GET", "/api/onboarding?term_id="+uuid.NewString(), nil)
}

// validation: every field's reason, and nothing stored.
func (o *onboardingRound) validation() {
	t := o.t
	r := o.vp.expect(400, "PUT", "/api/onboarding", map[string]any{"display_name": "", "email": "nope", "role": "King",
		"term_type": "spring", "ds_competency": "guru", "chat_handle": strings.Repeat("c", 101)})
	details, _ := r.Map(t)["details"].(map[string]any)
	for _, f := range []string{"display_name", "email", "role", "term_type", "ds_competency", "chat_handle"} {
		if details[f] == nil {
			t.Errorf("no detail for %s: %v", f, details)
		}
	}
	r = o.vp.expect(400, "PUT", "/api/onboarding", map[string]any{"display_name": "V"})
	if d := r.Map(t)["details"].(map[string]any); d["email"] == nil || d["role"] == nil {
		t.Errorf("missing fields: %v", d)
	}
	o.vp.expect(400, "PUT", "/api/onboarding", map[string]any{"display_name": "V", "unknown": 1})
	// Control and format characters: a reversed file name, a bell, a
	// line break in a one-line field.
	spoof := formSubmission("Eve\u202egpj.exe", "VP Design")
	spoof["chat_handle"], spoof["photo_handle"] = "eve\u0007", "@eve\nadmin"
	wantFields(t, o.vp.expect(400, "PUT", "/api/onboarding", spoof), "display_name", "chat_handle", "photo_handle")
	body := formSubmission("Vee", "VP Design")
	body["headshot_key"] = "headshots/" + o.term.String() + "/onboarding/" + uuid.NewString() + ".png"
	body["headshot_consent"] = true
	if d := o.vp.expect(400, "PUT", "/api/onboarding", body).Map(t)["details"].(map[string]any); d["headshot_key"] == nil {
		t.Errorf("someone else's key: %v", d)
	}
	if n := countRows(t, o.a, `SELECT count(*) FROM exec_form_submissions`); n != 0 {
		t.Fatalf("%d rows after refusals", n)
	}
}

// createThenUpdate: one row.
func (o *onboardingRound) createThenUpdate() {
	t := o.t
	o.vp.expect(201, "PUT", "/api/onboarding", formSubmission("Vee", "VP Design"))
	var saved onboardingSaved
	o.vp.expect(200, "PUT", "/api/onboarding", formSubmission("Vee Two", "Designer")).JSON(t, &saved)
	if saved.Submission["display_name"] != "Vee Two" || saved.Submission["role"] != "Designer" || saved.Submission["headshot_key"] != nil {
		t.Errorf("updated %v", saved.Submission)
	}
	if n := countRows(t, o.a, `SELECT count(*) FROM exec_form_submissions WHERE profile_id = (SELECT id FROM profiles WHERE email = 'vp@example.com')`); n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
}

// headshotUploads: consent, type and size are checked; a PNG of exactly
// the limit is stored under the VP's key and set on the submission.
func (o *onboardingRound) headshotUploads() {
	t, vp := o.t, o.vp
	vp.expect(415, "POST", "/api/onboarding/headshot", "x", "Content-Type", "text/plain") // not multipart
	for _, c := range []struct {
		name    string
		data    []byte
		consent string
		want    int
	}{
		{"no consent", pngFile(), "", 400},
		{"consent false", pngFile(), "false", 400},
		{"no file", nil, "true", 400},
		{"gif", []byte("GIF89a........"), "true", 415},
		{"pdf", pdfFile("x"), "true", 415},
		{"6 MB", append(jpegFile(), make([]byte, 5<<20)...), "true", 413},
	} {
		if r := vp.uploadHeadshot("/api/onboarding/headshot", c.data, c.consent); r.Status != c.want {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
		}
	}
	exact := append(pngFile(), make([]byte, 5<<20-len(pngFile()))...)
	var up struct {
		Key string `json:"key"`
	}
	vp.uploadHeadshot("/api/onboarding/headshot", exact, "true").JSON(t, &up)
	o.pngKey = "headshots/" + o.term.String() + "/onboarding/" + principalID(t, o.a, "vp@example.com").String() + ".png"
	if up.Key != o.pngKey {
		t.Fatalf("key %q, want %q", up.Key, o.pngKey)
	}
	if got := objectBytes(t, o.a, o.pngKey); !bytes.Equal(got, exact) {
		t.Errorf("stored %d bytes, uploaded %d", len(got), len(exact))
	}
	vp.expect(200, "GET", "/api/onboarding", nil).JSON(t, &o.form)
	if o.form.Submission == nil || (*o.form.Submission)["headshot_key"] != o.pngKey || (*o.form.Submission)["headshot_consent"] != true {
		t.Errorf("submission after upload: %v", o.form.Submission)
	}
}

// headshotReplacedAndRemoved: a JPEG replaces the PNG, whose object goes
// (the HeadshotCleanup workflow, queued with the change); left out, the
// headshot stays; null removes it from the submission, and its object goes
// too.
func (o *onboardingRound) headshotReplacedAndRemoved() {
	t, vp := o.t, o.vp
	var up struct {
		Key string `json:"key"`
	}
	vp.uploadHeadshot("/api/onboarding/headshot", jpegFile(), "true").JSON(t, &up)
	if !strings.HasSuffix(up.Key, principalID(t, o.a, "vp@example.com").String()+".jpg") {
		t.Errorf("jpeg key %s", up.Key)
	}
	stored := func(key string) bool {
		ok, err := o.a.Blob.Exists(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) { return !stored(o.pngKey), "the replaced PNG headshot deleted" })
	var saved onboardingSaved
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
	recordHeadshotCleanup(t, o.a)
}

// windowClosed: not yet open, closed: 403 with the dates, nothing stored;
// eligibility is still checked first.
func (o *onboardingRound) windowClosed() {
	t, vp, now := o.t, o.vp, o.now
	before := countRows(t, o.a, `SELECT count(*) FROM exec_form_submissions WHERE display_name = 'Vee'`)
	setWindow(t, o.super, o.term, "onboarding", now.Add(time.Hour), now.Add(2*time.Hour))
	wantClosed(t, vp.do("GET", "/api/onboarding", nil), "Onboarding for 2026-2027 opens ")
	wantClosed(t, vp.do("PUT", "/api/onboarding", formSubmission("Changed", "VP Design")), "Onboarding for 2026-2027 opens ")
	wantClosed(t, vp.uploadHeadshot("/api/onboarding/headshot", pngFile(), "true"), "Onboarding for 2026-2027 opens ")
	setWindow(t, o.super, o.term, "onboarding", now.Add(-2*time.Hour), now.Add(-time.Hour))
	wantClosed(t, vp.do("GET", "/api/onboarding", nil), "Onboarding for 2026-2027 closed on ")
	wantClosed(t, vp.do("PUT", "/api/onboarding", formSubmission("Changed", "VP Design")), "Onboarding for 2026-2027 closed on ")
	if after := countRows(t, o.a, `SELECT count(*) FROM exec_form_submissions WHERE display_name = 'Vee'`); after != before || before != 1 {
		t.Errorf("closed form changed rows: %d -> %d", before, after)
	}
	if title, _ := errorOf(t, o.member.expect(403, "GET", "/api/onboarding", nil)); title != "Forbidden" {
		t.Errorf("ineligible on a closed form: %s", title)
	}
}

// returningForm: the returning form is for the execs of the term before.
func (o *onboardingRound) returningForm() {
	t := o.t
	wantClosed(t, o.old.do("GET", "/api/onboarding/returning", nil), "The returning-exec form for 2026-2027 opens ")
	setWindow(t, o.super, o.term, "returning", o.now.Add(-time.Hour), o.now.Add(time.Hour))
	o.old.expect(200, "GET", "/api/onboarding/returning", nil).JSON(t, &o.form)
	if !o.form.Window.Open || o.form.Submission != nil {
		t.Errorf("returning form %+v", o.form)
	}
	o.old.expect(201, "PUT", "/api/onboarding/returning", formSubmission("Olde", "Designer"))
	o.old.expect(200, "PUT", "/api/onboarding/returning", formSubmission("Olde", "VP Design"))
	var up struct {
		Key string `json:"key"`
	}
	o.old.uploadHeadshot("/api/onboarding/returning/headshot", pngFile(), "true").JSON(t, &up)
	if up.Key != "headshots/"+o.term.String()+"/returning/"+principalID(t, o.a, "old@example.com").String()+".png" {
		t.Errorf("returning key %s", up.Key)
	}
	o.vp.expect(403, "PUT", "/api/onboarding/returning", formSubmission("Vee", "VP Design"))
	if n := countRows(t, o.a, `SELECT count(*) FROM exec_form_submissions WHERE kind = 'returning'`); n != 1 {
		t.Errorf("%d returning rows", n)
	}
}
