package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"hackdesk/dev/testenv"
)

// BenchmarkExport is the export of an applicant with three editions'
// applications (a 300 KB résumé each, answers, reviews, a decision), a
// membership and an onboarding submission with its headshot, over HTTP
// on the dev stack: GET /api/me/export read to its end.
//
//	go test -run '^$' -bench BenchmarkExport -benchtime 20x ./e2e/
func BenchmarkExport(b *testing.B) {
	a := testenv.App(b, testenv.Config(b))
	ctx := context.Background()
	s := a.Store
	me := testenv.Account(b, s, testenv.AccountOpts{Name: "Export Bench"})
	reviewer := testenv.Account(b, s, testenv.AccountOpts{Role: "admin"})
	resume := append(pdfFile("bench"), bytes.Repeat([]byte{' '}, 300<<10)...)
	for i := range 3 {
		h := testenv.Hackathon(b, s, testenv.HackathonOpts{Current: i == 2})
		ap := testenv.Application(b, s, me.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: h.ID,
			ResumeName: fmt.Sprintf("cv-%d.pdf", i)})
		testenv.Review(b, s, ap.ID, reviewer.ID, 2, 1, 5, 2)
		testenv.Decide(b, s, ap.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
		if err := a.Blob.Put(ctx, *ap.ResumeKey, "application/pdf", bytes.NewReader(resume), int64(len(resume))); err != nil {
			b.Fatal(err)
		}
	}
	term := testenv.Term(b, s, testenv.TermOpts{Active: true})
	testenv.Membership(b, s, me.ID, term.ID, testenv.MembershipOpts{Paid: true})
	headshot := "headshots/" + term.ID.String() + "/onboarding/" + me.ID.String() + ".png"
	photo := append(pngFile(), bytes.Repeat([]byte{0}, 200<<10)...)
	if err := a.Blob.Put(ctx, headshot, "image/png", bytes.NewReader(photo), int64(len(photo))); err != nil {
		b.Fatal(err)
	}
	testenv.ExecForm(b, s, term.ID, me.ID, testenv.ExecFormOpts{DisplayName: "Export Bench", HeadshotKey: headshot})
	token := newSession(b, s, me.ID)
	get := func() int64 {
		// The export is limited to 5 an hour; the counters are reset
		// between calls, off the clock.
		b.StopTimer()
		if _, err := s.Pool().Exec(ctx, `DELETE FROM rate_limit_hits`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		req, _ := http.NewRequest("GET", a.URL()+"/api/me/export", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("export: %d %v", resp.StatusCode, err)
		}
		zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil || len(zr.File) != 5 { // data.json, three résumés, the headshot
			b.Fatalf("export: %v, %d entries", err, len(zr.File))
		}
		return int64(len(body))
	}
	b.SetBytes(get())
	b.ResetTimer()
	for b.Loop() {
		get()
	}
}
