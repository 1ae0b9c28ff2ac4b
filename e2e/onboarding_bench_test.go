package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/onboarding"
)

// BenchmarkOnboardingExports exports 2,000 submissions as CSV and 300
// headshots of 200 KB as a ZIP over HTTP from the in-process server, and
// reports each export's wall time and the process's peak heap growth while
// it ran (the ZIP must stay under 32 MiB: it streams from S3).
//
//	go test ./e2e/ -run '^$' -bench BenchmarkOnboardingExports -benchtime 1x
func BenchmarkOnboardingExports(b *testing.B) {
	a := testenv.App(b, testenv.Config(b))
	ctx := context.Background()
	pool := a.Store.Pool()
	term := testenv.Term(b, a.Store, testenv.TermOpts{Name: "bench"}).ID
	// 2,000 rows: set-based SQL, not 4,000 fixture calls.
	if _, err := pool.Exec(ctx, `
		WITH p AS (
			INSERT INTO profiles (email, display_name, password_hash)
			SELECT 'bench' || i || '@example.com', 'Bench ' || i, '$argon2id$x' FROM generate_series(1, 2000) i
			RETURNING id, display_name)
		INSERT INTO exec_form_submissions (term_id, profile_id, kind, display_name, email, role, term_type, ds_competency, chat_handle)
		SELECT $1, id, 'onboarding', display_name, 'x@example.com', 'Exec', 'fall', 'none', '=HYPERLINK("x")' FROM p`, term); err != nil {
		b.Fatal(err)
	}
	rows, err := pool.Query(ctx, `SELECT profile_id FROM exec_form_submissions WHERE term_id = $1 ORDER BY display_name LIMIT 300`, term)
	if err != nil {
		b.Fatal(err)
	}
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	shot := append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{0x5A}, 200<<10-4)...)
	for _, id := range ids {
		key := onboarding.HeadshotKey(term, onboarding.Onboarding, id, "jpg")
		if err := a.Blob.Put(ctx, key, "image/jpeg", bytes.NewReader(shot), int64(len(shot))); err != nil {
			b.Fatal(err)
		}
		if _, err := a.Store.ExecFormSubmissionSetHeadshot(ctx, db.ExecFormSubmissionSetHeadshotParams{
			HeadshotKey: &key, TermID: term, ProfileID: id, Kind: string(onboarding.Onboarding)}); err != nil {
			b.Fatal(err)
		}
	}
	pres := testenv.Account(b, a.Store, testenv.AccountOpts{Email: "root@example.com", Role: "superadmin", NoPassword: true}).ID
	token := newSession(b, a.Store, pres)

	export := func(path string) (time.Duration, int64, float64) {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		var peak atomic.Uint64
		done := make(chan struct{})
		go func() {
			var m runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(2 * time.Millisecond):
				}
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}()
		start := time.Now()
		req, _ := http.NewRequest("GET", a.URL()+path+"?term_id="+term.String(), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		elapsed := time.Since(start)
		close(done)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("%s: %d %v", path, resp.StatusCode, err)
		}
		growth := float64(0)
		if p := peak.Load(); p > base.HeapAlloc {
			growth = float64(p-base.HeapAlloc) / (1 << 20)
		}
		return elapsed, n, growth
	}
	b.ResetTimer()
	for range b.N {
		csvTime, csvBytes, csvHeap := export("/api/onboarding/export.csv")
		zipTime, zipBytes, zipHeap := export("/api/onboarding/headshots.zip")
		b.ReportMetric(csvTime.Seconds(), "csv_s")
		b.ReportMetric(csvHeap, "csv_peak_heap_MiB")
		b.ReportMetric(zipTime.Seconds(), "zip_s")
		b.ReportMetric(zipHeap, "zip_peak_heap_MiB")
		if b.N == 1 {
			fmt.Printf("csv: %d bytes in %v, peak heap +%.1f MiB; zip: %d bytes in %v, peak heap +%.1f MiB\n",
				csvBytes, csvTime, csvHeap, zipBytes, zipTime, zipHeap)
		}
		if zipHeap >= 32 {
			b.Fatalf("zip export grew the heap by %.1f MiB (limit 32)", zipHeap)
		}
	}
}
