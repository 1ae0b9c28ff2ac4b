package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestOnboardingHeadshotKeys: PUT accepts a headshot_key only when an
// object was uploaded under it, so nobody can point their form at a
// headshot that does not exist and break the term's ZIP.
func TestOnboardingHeadshotKeys(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	now := time.Now().UTC().Truncate(time.Second)
	open := [2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31", open, open)
	pres := as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "", &term))
	exec := as(t, a, anon, execAccount(t, a, "exec@example.com", "admin", "Exec", "web", &term))
	me := principalID(t, a, "exec@example.com")
	jpgKey := "headshots/" + term.String() + "/onboarding/" + me.String() + ".jpg"
	withKey := func(key string) map[string]any {
		b := formSubmission("Exec", "Exec")
		b["headshot_key"], b["headshot_consent"] = key, true
		return b
	}

	// A key of the caller's own shape that nothing was uploaded under.
	r := exec.expect(http.StatusBadRequest, "PUT", "/api/onboarding", withKey(jpgKey))
	if d, _ := r.Map(t)["details"].(map[string]any); d["headshot_key"] == nil {
		t.Fatalf("never uploaded: %s", r.Body)
	}
	if n := countRows(t, a, `SELECT count(*) FROM exec_form_submissions`); n != 0 {
		t.Fatalf("%d submissions stored", n)
	}
	// An upload (before the form exists) makes its key acceptable.
	var up struct {
		Key string `json:"key"`
	}
	exec.uploadHeadshot("/api/onboarding/headshot", pngFile(), "true").JSON(t, &up)
	exec.expect(http.StatusCreated, "PUT", "/api/onboarding", withKey(up.Key))
	exec.expect(http.StatusOK, "PUT", "/api/onboarding", withKey(up.Key))
	// The other type's key is still refused, and the stored key stays.
	exec.expect(http.StatusBadRequest, "PUT", "/api/onboarding", withKey(jpgKey))
	var form struct {
		Submission map[string]any `json:"submission"`
	}
	exec.expect(http.StatusOK, "GET", "/api/onboarding", nil).JSON(t, &form)
	if form.Submission["headshot_key"] != up.Key {
		t.Fatalf("stored key %v, want %s", form.Submission["headshot_key"], up.Key)
	}
	pres.expect(http.StatusOK, "GET", "/api/onboarding/headshots.zip", nil)
}

// zipEntries reads an archive's entries by name.
func zipEntries(t *testing.T, body []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a whole archive: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = data
	}
	return out
}

// TestOnboardingZipSkipsMissing: a headshot missing from the object store
// is left out of the ZIP and listed in its missing.txt; the others are
// still exported.
func TestOnboardingZipSkipsMissing(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	now := time.Now().UTC().Truncate(time.Second)
	open := [2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31", open, open)
	pres := as(t, a, anon, execAccount(t, a, "pres@example.com", "admin", "President", "", &term))
	ann := as(t, a, anon, execAccount(t, a, "ann@example.com", "admin", "Exec", "web", &term))
	bob := as(t, a, anon, execAccount(t, a, "bob@example.com", "admin", "Exec", "web", &term))
	annID, bobID := principalID(t, a, "ann@example.com"), principalID(t, a, "bob@example.com")
	ann.expect(http.StatusCreated, "PUT", "/api/onboarding", formSubmission("Ann", "Exec"))
	bob.expect(http.StatusCreated, "PUT", "/api/onboarding", formSubmission("Bob", "Exec"))
	annShot, bobShot := pngFile(), jpegFile()
	ann.uploadHeadshot("/api/onboarding/headshot", annShot, "true")
	bob.uploadHeadshot("/api/onboarding/headshot", bobShot, "true")
	bobKey := "headshots/" + term.String() + "/onboarding/" + bobID.String() + ".jpg"
	if err := a.Blob.Delete(context.Background(), bobKey); err != nil {
		t.Fatal(err)
	}

	got := zipEntries(t, pres.expect(http.StatusOK, "GET", "/api/onboarding/headshots.zip", nil).Body)
	if len(got) != 2 || !bytes.Equal(got["Ann-"+annID.String()+".png"], annShot) {
		t.Fatalf("entries %v", keys(got))
	}
	missing := string(got["missing.txt"])
	if !strings.Contains(missing, "Bob") || !strings.Contains(missing, bobID.String()) || !strings.Contains(missing, bobKey) ||
		strings.Contains(missing, annID.String()) {
		t.Fatalf("missing.txt:\n%s", missing)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
