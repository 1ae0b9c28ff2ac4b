package main

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"

	"hackdesk/app"
	"hackdesk/dev/receipttest"
)

// Load phase sizes (issue 17): reviewers and webhook posters together.
const (
	loadFor      = 60 * time.Second
	loadWebhooks = 200
)

// processState is what the load phase compares before and after: the
// process's live heap after a GC, its goroutines, and among them those
// serving an HTTP connection (the API's). The API shares the process with
// the worker, the outbox dispatcher and the load generator.
type processState struct {
	heapMiB    float64
	goroutines int
	serving    int
}

func (b *bench) processState() processState {
	b.http.CloseIdleConnections()
	var s processState
	for range 20 { // the server notices closed connections within moments
		time.Sleep(250 * time.Millisecond)
		if s.serving = servingGoroutines(); s.serving == 0 {
			break
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.heapMiB, s.goroutines = float64(m.HeapInuse)/(1<<20), runtime.NumGoroutine()
	return s
}

// servingGoroutines counts the goroutines serving an HTTP connection.
func servingGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "net/http.(*conn).serve(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// settle brings the database to rest before the load phase: VACUUM
// (ANALYZE) of every table, then a CHECKPOINT. The phases before it bulk-load
// hundreds of thousands of rows (the leaderboard's reviews); without this,
// autovacuum and the checkpoint those writes set off (spread over minutes)
// run during the load phase and measure the seeding instead of the service.
// pgbench is run the same way (its VACUUM before each run).
func (b *bench) settle(ctx context.Context) error {
	start := time.Now()
	if _, err := b.a.Store.Pool().Exec(ctx, "VACUUM (ANALYZE)"); err != nil {
		return fmt.Errorf("settle: vacuum: %w", err)
	}
	admin, err := pgx.Connect(ctx, b.pgAdminURL)
	if err != nil {
		return fmt.Errorf("settle: %w", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("settle: checkpoint: %w", err)
	}
	say("settled the database (VACUUM (ANALYZE), CHECKPOINT) in %s", time.Since(start).Round(100*time.Millisecond))
	return nil
}

// load is 32 reviewers looping random → submit and 200 clients posting
// signed shop receipts to the membership webhook as the inbound-email
// provider would, all for 60 s together. Each post is a new receipt (its
// own transaction, token and customer), so each is stored, DKIM-verified,
// parsed and queued for processing; the dispatcher (started by the hiring
// phase) and the worker run the ReceiptProcessing workflows meanwhile. A
// bounded API answers every call, and comes back to the heap and
// goroutines it had before.
func (b *bench) load(ctx context.Context) (reviewP99, webhookP99 float64, err error) {
	tokens := make([]string, clients)
	for i := range tokens {
		if tokens[i], err = b.session(ctx, b.reviewers[3*clients+i]); err != nil {
			return 0, 0, err
		}
	}
	shop, err := benchShop(b.outDir)
	if err != nil {
		return 0, 0, err
	}
	bodies, err := signLoadReceipts(shop)
	if err != nil {
		return 0, 0, err
	}
	var posted atomic.Int64
	before := b.processState()
	say("load: %d reviewers and %d webhook posters for %s...", clients, loadWebhooks, loadFor)

	var (
		wg                      sync.WaitGroup
		reviewLat, webhookLat   []time.Duration
		reviewErrs, webhookErrs int64
		reviewTook, webhookTook time.Duration
		webhookClient           = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * loadWebhooks, DisableCompression: true}, Timeout: 60 * time.Second}
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		reviewLat, reviewErrs, reviewTook = loop(ctx, clients, loadFor, func(ctx context.Context, w int) error {
			return b.reviewOnce(ctx, tokens[w])
		})
	}()
	go func() {
		defer wg.Done()
		webhookLat, webhookErrs, webhookTook = loop(ctx, loadWebhooks, loadFor, func(ctx context.Context, w int) error {
			i := posted.Add(1) - 1
			if i >= int64(len(bodies)) {
				return fmt.Errorf("more than the %d receipts signed for the phase were posted", len(bodies))
			}
			form := receipttest.WebhookForm([]byte(shop.WebhookKey), bodies[i], time.Now())
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.a.URL()+"/api/webhooks/membership", strings.NewReader(form.Encode()))
			if err != nil {
				return err
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := webhookClient.Do(req)
			if err != nil {
				return err
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("webhook: %d", resp.StatusCode)
			}
			return nil
		})
	}()
	wg.Wait()
	end := time.Now()
	webhookClient.CloseIdleConnections()
	var stored, queued int64
	if err := b.a.Store.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM receipts),
		(SELECT count(*) FROM workflow_starts WHERE started_at IS NULL)`).Scan(&stored, &queued); err != nil {
		return 0, 0, err
	}
	after := b.processState()
	// The backlog 30 s after the end: the dispatcher's start rate with the
	// posts gone (the workflows started meanwhile still run).
	select {
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	case <-time.After(time.Until(end.Add(30 * time.Second))):
	}
	var queued30 int64
	if err := b.a.Store.Pool().QueryRow(ctx, `SELECT count(*) FROM workflow_starts WHERE started_at IS NULL`).Scan(&queued30); err != nil {
		return 0, 0, err
	}
	b.queuedAtEnd, b.queuedAfter30s = queued, queued30

	reviewP99, webhookP99 = ms(percentile(reviewLat, 0.99)), ms(percentile(webhookLat, 0.99))
	b.add("load, 32 reviewers (random → submit) with 200 webhook posters, 60 s: reviews/s", fmt.Sprintf("%.0f", float64(len(reviewLat))/reviewTook.Seconds()))
	b.add("load: review cycle p50 / p99, errors", fmt.Sprintf("%.1f ms / %.1f ms, %d", ms(percentile(reviewLat, 0.5)), reviewP99, reviewErrs))
	b.add("load: webhook posts/s (each a new signed receipt); receipts stored; workflow starts still queued after", fmt.Sprintf("%.0f; %d; %d", float64(len(webhookLat))/webhookTook.Seconds(), stored, queued))
	b.add("load: workflow starts still queued at the end / 30 s after it", fmt.Sprintf("%d / %d", queued, queued30))
	b.add("load: webhook p50 / p99, errors", fmt.Sprintf("%.1f ms / %.1f ms, %d", ms(percentile(webhookLat, 0.5)), webhookP99, webhookErrs))
	b.add("load: heap in use before / after (MiB, after GC)", fmt.Sprintf("%.1f / %.1f", before.heapMiB, after.heapMiB))
	b.add("load: goroutines before / after (of which serving HTTP connections)", fmt.Sprintf("%d (%d) / %d (%d)", before.goroutines, before.serving, after.goroutines, after.serving))
	if after.serving > before.serving {
		return reviewP99, webhookP99, fmt.Errorf("after the load %d goroutines still serve HTTP connections (%d before)", after.serving, before.serving)
	}
	return reviewP99, webhookP99, nil
}

// loadReceipts is how many receipts the load phase has signed for it: more
// than its posters can send in loadFor (about 100 a second is its goal).
const loadReceipts = 24000

// signLoadReceipts signs the load phase's receipts, each a new customer and
// transaction, before the phase starts: signing is the shop's work, and
// on two cores it would compete with the API it is measuring.
func signLoadReceipts(shop app.DevShop) ([][]byte, error) {
	bodies := make([][]byte, loadReceipts)
	var next atomic.Int64
	var g errgroup.Group
	for range runtime.GOMAXPROCS(0) {
		g.Go(func() error {
			for i := next.Add(1) - 1; i < loadReceipts; i = next.Add(1) - 1 {
				raw, err := shop.Key.Sign(receipttest.Sample{Email: fmt.Sprintf("load-%s@seed.hackdesk.test", uuid.NewString()[:8])}.Build())
				if err != nil {
					return err
				}
				bodies[i] = raw
			}
			return nil
		})
	}
	return bodies, g.Wait()
}

// reviewOnce is one reviewer's cycle: the next application, then a review
// of it.
func (b *bench) reviewOnce(ctx context.Context, token string) error {
	var next struct {
		Application struct {
			ID uuid.UUID `json:"id"`
		} `json:"application"`
	}
	status, err := b.get(ctx, token, "/api/applications/random", &next)
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("random: %d %v", status, err)
	}
	status, err = b.do(ctx, http.MethodPost, token, "/api/review/submit", map[string]any{
		"application_id": next.Application.ID, "resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2,
	}, nil)
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("submit: %d %v", status, err)
	}
	return nil
}
