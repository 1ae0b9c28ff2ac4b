package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// adminCalls is how many times each admin table request is timed, one at
// a time (the table is a staff page: a handful of people, not a crowd).
const adminCalls = 12

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
	return p50s, nil
}
