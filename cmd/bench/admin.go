package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"
)

// adminCalls is how many times each admin table request is timed, one at
// a time (the table is a staff page: a handful of people, not a crowd).
const adminCalls = 8

// adminTable times the admin applications table (GET
// /api/admin/applications, one page of 25 with its total) over the seeded
// edition of seedApplications applications: its default sort, a sort by a
// column, a sort by normalized score, and a search by part of an email,
// p50 / p99 of adminCalls calls each, with a signed-in admin.
func (b *bench) adminTable(ctx context.Context) (p50s map[string]float64, err error) {
	token, err := b.session(ctx, b.reviewers[0])
	if err != nil {
		return nil, err
	}
	say("admin table: %d calls each of 4 requests...", adminCalls)
	cases := []struct{ key, what, path string }{
		{"default", "default sort (newest first), page 40", "/api/admin/applications?page=40"},
		{"name", "sort by name", "/api/admin/applications?sort=name&order=asc&page=40"},
		{"score", "sort by normalized score", "/api/admin/applications?sort=normalized_score&order=desc"},
		{"search", "search by part of an email", "/api/admin/applications?q=applicant4321"},
	}
	p50s = map[string]float64{}
	for _, c := range cases {
		var lat []time.Duration
		for range adminCalls {
			var page struct {
				Total int64 `json:"total"`
			}
			t0 := time.Now()
			status, err := b.get(ctx, token, c.path, &page) // read to the end
			if err != nil || status != http.StatusOK || page.Total == 0 {
				return nil, fmt.Errorf("admin table %s: %d %v (%d rows)", c.key, status, err, page.Total)
			}
			lat = append(lat, time.Since(t0))
		}
		p50 := ms(percentile(lat, 0.5))
		p50s[c.key] = p50
		b.add(fmt.Sprintf("admin table at %d applications, %s: p50 / p99 of %d calls", seedApplications, c.what, adminCalls),
			fmt.Sprintf("%.1f ms / %.1f ms", p50, ms(percentile(lat, 0.99))))
	}
	exportMs, err := b.adminExport(ctx, token)
	if err != nil {
		return nil, err
	}
	p50s["export"] = exportMs
	return p50s, nil
}

// adminExport downloads the whole table as CSV (GET
// /api/admin/applications/export.csv, sorted by normalized score) once,
// reading it as it arrives, and records its time, its rows and the
// process's peak Go heap over the heap before it (sampled every 10 ms):
// the export streams, so the peak should not grow with the edition.
func (b *bench) adminExport(ctx context.Context, token string) (float64, error) {
	say("admin table: CSV export of every application...")
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	t0 := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.a.URL()+"/api/admin/applications/export.csv?sort=normalized_score", nil)
	if err != nil {
		close(done)
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 5 * time.Minute}).Do(req)
	if err != nil {
		close(done)
		return 0, err
	}
	var lines, size int64
	buf := make([]byte, 64<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		size += int64(n)
		lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		if rerr != nil {
			break
		}
	}
	resp.Body.Close()
	took := time.Since(t0)
	close(done)
	if resp.StatusCode != http.StatusOK || lines < seedApplications {
		return 0, fmt.Errorf("admin export: %d, %d lines", resp.StatusCode, lines)
	}
	growth := float64(peak.Load()-min(peak.Load(), base.HeapAlloc)) / (1 << 20)
	b.add(fmt.Sprintf("admin table: CSV export of %d applications (sorted by normalized score): time, size, peak Go heap growth", lines-1),
		fmt.Sprintf("%s, %.1f MiB, %.1f MiB (heap %.1f MiB before)", dur(took), float64(size)/(1<<20), growth, float64(base.HeapAlloc)/(1<<20)))
	return ms(took), nil
}
