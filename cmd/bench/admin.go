package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
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
	whole, err := b.adminExport(ctx, token, "", seedApplications, 0)
	if err != nil {
		return nil, err
	}
	p50s["export"] = whole.ms
	// What the export holds, at two sizes: with the collector at its
	// default the peak is mostly garbage awaiting the next collection (its
	// target is twice the live heap), so these runs collect at 10 % growth
	// and the peak is close to what is live. The applicants whose address
	// starts applicant1 are about a ninth of the edition. The export
	// streams, so the two peaks should match.
	small, err := b.adminExport(ctx, token, exportSmallQuery, seedApplications/10, exportGCPercent)
	if err != nil {
		return nil, err
	}
	held, err := b.adminExport(ctx, token, "", seedApplications, exportGCPercent)
	if err != nil {
		return nil, err
	}
	p50s["export_heap"], p50s["export_small_heap"] = held.heapMiB, small.heapMiB
	return p50s, nil
}

// exportGCPercent is the collector's target growth (GOGC) while the
// export's memory is measured.
const exportGCPercent = 10

// exportSmallQuery is the search of the smaller export: the seeded
// applicants numbered 1, 10-19, 100-199 and so on.
const exportSmallQuery = ".applicant1"

// exported is what one export measured.
type exported struct {
	ms, heapMiB float64
}

// adminExport downloads the table as CSV (GET
// /api/admin/applications/export.csv, sorted by normalized score, searched
// by q when q is set) once, reading it as it arrives, and records its
// time, its rows and the process's peak Go heap over the heap before it
// (sampled every 10 ms): the export streams, so the peak should not grow
// with the number of rows. Fewer than atLeast rows is an error. With a
// gcPercent above 0 (the collector's GOGC for the export's duration) it
// also records the peak live heap, as each collection marks it, and
// answers that growth; otherwise the peak heap's.
func (b *bench) adminExport(ctx context.Context, token, q string, atLeast int64, gcPercent int) (exported, error) {
	what := "every application"
	if q != "" {
		what = fmt.Sprintf("the applications matching %q", q)
	}
	say("admin table: CSV export of %s...", what)
	if gcPercent > 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	// The live heap as the last collection marked it: what is held, not
	// garbage awaiting collection.
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	baseLive := live[0].Value.Uint64()
	var peak, peakLive atomic.Uint64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peakLive.Load() {
					peakLive.Store(v)
				}
			}
		}
	}()
	t0 := time.Now()
	u := b.a.URL() + "/api/admin/applications/export.csv?sort=normalized_score"
	if q != "" {
		u += "&q=" + url.QueryEscape(q)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		close(done)
		return exported{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 5 * time.Minute}).Do(req)
	if err != nil {
		close(done)
		return exported{}, err
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
	if resp.StatusCode != http.StatusOK || lines-1 < atLeast {
		return exported{}, fmt.Errorf("admin export %q: %d, %d lines, want at least %d rows", q, resp.StatusCode, lines, atLeast)
	}
	growth := float64(peak.Load()-min(peak.Load(), base.HeapAlloc)) / (1 << 20)
	liveGrowth := float64(peakLive.Load()-min(peakLive.Load(), baseLive)) / (1 << 20)
	how := "sorted by normalized score"
	if q != "" {
		how = fmt.Sprintf("searched %q, ", q) + how
	}
	if gcPercent == 0 {
		label := fmt.Sprintf("admin table: CSV export of %d applications (%s): time, size, peak Go heap growth", lines-1, how)
		b.add(label, fmt.Sprintf("%s, %.1f MiB, %.1f MiB (heap %.1f MiB before)", dur(took), float64(size)/(1<<20), growth, float64(base.HeapAlloc)/(1<<20)))
		return exported{ms: ms(took), heapMiB: growth}, nil
	}
	label := fmt.Sprintf("admin table: CSV export of %d applications (%s, GOGC=%d): time, size, peak Go heap growth, peak live heap growth", lines-1, how, gcPercent)
	b.add(label, fmt.Sprintf("%s, %.1f MiB, %.1f MiB, %.1f MiB (live heap %.1f MiB before)", dur(took), float64(size)/(1<<20), growth, liveGrowth, float64(baseLive)/(1<<20)))
	return exported{ms: ms(took), heapMiB: liveGrowth}, nil
}
