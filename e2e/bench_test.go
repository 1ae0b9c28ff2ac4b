package e2e

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/seed"
	"hackdesk/dev/testenv"
)

// benchApp is a running App over 5,000 seeded submitted applications, 50
// admin reviewers and 10,000 reviews.
func benchApp(b *testing.B) (*app.App, []uuid.UUID) {
	b.Helper()
	a := testenv.App(b, testenv.Config(b))
	return a, benchSeed(b, a)
}

// benchSeed seeds a's database as benchApp does and returns the admin
// reviewers' ids.
func benchSeed(b *testing.B, a *app.App) []uuid.UUID {
	b.Helper()
	ctx := context.Background()
	if _, err := seed.Run(ctx, a.Store.Pool(), seed.Options{Applications: 5000, Reviewers: 50, Reviews: 10000, Seed: 1, Prefix: "gobench"}, io.Discard); err != nil {
		b.Fatal(err)
	}
	rows, err := a.Store.Pool().Query(ctx, `SELECT id FROM profiles WHERE role = 'admin' ORDER BY email`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// benchEmails are the reviewers' emails, which the queue and the review
// insert compare with each application's team.
func benchEmails(b *testing.B, a *app.App, ids []uuid.UUID) []string {
	b.Helper()
	emails := make([]string, len(ids))
	for i, id := range ids {
		if err := a.Store.Pool().QueryRow(context.Background(), `SELECT email FROM profiles WHERE id = $1`, id).Scan(&emails[i]); err != nil {
			b.Fatal(err)
		}
	}
	return emails
}

// BenchmarkQueueQuery is the review queue's one statement, straight to the
// store.
func BenchmarkQueueQuery(b *testing.B) {
	a, reviewers := benchApp(b)
	ctx := context.Background()
	emails := benchEmails(b, a, reviewers)
	params := make([]db.ApplicationNextForReviewerViewParams, len(reviewers))
	for i, r := range reviewers {
		params[i] = db.ApplicationNextForReviewerViewParams{ReviewerID: r, ReviewerEmail: emails[i]}
	}
	var i atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p := params[int(i.Add(1))%len(params)]
			if _, err := a.Store.ApplicationNextForReviewerView(ctx, p); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkNextApplicationHTTP is GET /api/applications/random through the
// whole HTTP stack (session look-up, policy, query, presign, JSON).
func BenchmarkNextApplicationHTTP(b *testing.B) {
	a, reviewers := benchApp(b)
	tokens := make([]string, len(reviewers))
	for i, r := range reviewers {
		tokens[i] = newSession(b, a.Store, r)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var i atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, a.URL()+"/api/applications/random", nil)
			req.Header.Set("Authorization", "Bearer "+tokens[int(i.Add(1))%len(tokens)])
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}

// BenchmarkReviewInsert is the review write (insert + counter trigger) on
// distinct (application, reviewer) pairs.
func BenchmarkReviewInsert(b *testing.B) {
	a, reviewers := benchApp(b)
	ctx := context.Background()
	emails := benchEmails(b, a, reviewers)
	rows, err := a.Store.Pool().Query(ctx, `SELECT id FROM applications WHERE status = 'submitted' ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	var apps []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		_ = rows.Scan(&id)
		apps = append(apps, id)
	}
	rows.Close()
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			k := int(n.Add(1))
			j := (k / len(apps)) % len(reviewers)
			_, err := a.Store.ReviewInsertChecked(ctx, db.ReviewInsertCheckedParams{
				ApplicationID: apps[k%len(apps)], ReviewerID: reviewers[j], ReviewerEmail: emails[j],
				ResumeScore: 1, LinksScore: 1, Q1Score: 1, Q2Score: 1,
			})
			// A pair the seed already reviewed answers no row; that is fine.
			if err != nil && !errors.Is(db.MapError(err), db.ErrNotFound) {
				b.Error(err)
				return
			}
		}
	})
}
