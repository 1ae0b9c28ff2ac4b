package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hackdesk/app"
	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/config"
)

// benchReceipts is how many distinct signed receipts the webhook phase
// posts, benchReceiptClients at a time.
const (
	benchReceipts       = 2000
	benchReceiptClients = 32
)

// benchShop is the stand-in shop of the bench stack; run points the
// configuration at it before the app starts.
func benchShop(outDir string) (app.DevShop, error) {
	return app.LoadDevShop(filepath.Join(outDir, "shop"))
}

// withShop makes cfg accept the bench shop's receipts.
func withShop(cfg config.Config, shop app.DevShop) config.Config {
	cfg.WebhookSigningKey = shop.WebhookKey
	cfg.DKIMTXTFile = shop.TXTFile
	cfg.ReceiptSenderDomains = []string{receipttest.DevShopDomain}
	return cfg
}

// receiptWebhooks posts benchReceipts distinct DKIM-signed receipts of
// seeded members to the membership webhook, benchReceiptClients at once,
// and measures accepted posts per second, the p95 accept latency, and
// receipts processed per second end to end (post to membership paid),
// then checks that every receipt paid exactly one membership and sent one
// confirmation. The outbox dispatcher must be running.
func (b *bench) receiptWebhooks(ctx context.Context) (acceptedPerS, p95ms, processedPerS float64, err error) {
	say("membership webhook: %d signed receipts, %d concurrent...", benchReceipts, benchReceiptClients)
	shop, err := benchShop(b.outDir)
	if err != nil {
		return 0, 0, 0, err
	}
	const term = "bench-dues-2026"
	if _, err := b.a.Store.Pool().Exec(ctx, `
		UPDATE terms SET active = false WHERE active;
		INSERT INTO terms (name, starts_on, ends_on, active) VALUES ('`+term+`', '2026-09-01', '2027-04-30', true)`); err != nil {
		return 0, 0, 0, err
	}
	rows, err := b.a.Store.Pool().Query(ctx, `SELECT email FROM profiles WHERE role = 'member' ORDER BY email LIMIT $1`, benchReceipts)
	if err != nil {
		return 0, 0, 0, err
	}
	var emails []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			rows.Close()
			return 0, 0, 0, err
		}
		emails = append(emails, e)
	}
	rows.Close()
	if len(emails) < benchReceipts {
		return 0, 0, 0, fmt.Errorf("only %d members to pay for", len(emails))
	}
	// Signed before the clock starts: the shop's work, not ours.
	bodies := make([]string, benchReceipts)
	for i, e := range emails {
		raw, err := shop.Key.Sign(receipttest.Sample{Email: e, TermName: term, TransactionID: fmt.Sprintf("TX-BENCH%06d", i)}.Build())
		if err != nil {
			return 0, 0, 0, err
		}
		bodies[i] = string(raw)
	}

	lat := make([]time.Duration, benchReceipts)
	var next, failed atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < benchReceiptClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= benchReceipts {
					return
				}
				form := receipttest.WebhookForm([]byte(shop.WebhookKey), []byte(bodies[i]), time.Now())
				t := time.Now()
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.a.URL()+"/api/webhooks/membership", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				resp, err := b.http.Do(req)
				lat[i] = time.Since(t)
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("webhook answered %d", resp.StatusCode)
					}
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
			}
		}()
	}
	wg.Wait()
	postWall := time.Since(start)
	if n := failed.Load(); n > 0 {
		return 0, 0, 0, fmt.Errorf("%d of %d posts failed, first: %v", n, benchReceipts, firstErr.Load())
	}

	// Every receipt paid, then every confirmation sent; progress every 10 s.
	var processedAt time.Time
	deadline := time.Now().Add(15 * time.Minute)
	lastSay := time.Now()
	for {
		var processed, sent, queued int
		if err := b.a.Store.Pool().QueryRow(ctx, `SELECT
			(SELECT count(*) FROM receipts WHERE status = 'processed' AND transaction_id LIKE 'TX-BENCH%'),
			(SELECT count(*) FROM emails WHERE kind = 'membership_paid' AND status = 'sent'),
			(SELECT count(*) FROM workflow_starts WHERE started_at IS NULL)`).Scan(&processed, &sent, &queued); err != nil {
			return 0, 0, 0, err
		}
		if processed == benchReceipts && processedAt.IsZero() {
			processedAt = time.Now()
		}
		if processed == benchReceipts && sent == benchReceipts {
			break
		}
		if time.Now().After(deadline) {
			return 0, 0, 0, fmt.Errorf("after 15 minutes %d of %d receipts processed, %d confirmations sent", processed, benchReceipts, sent)
		}
		if time.Since(lastSay) > 10*time.Second {
			say("  %d receipts processed, %d confirmations sent, %d workflow starts queued after %s", processed, sent, queued, dur(time.Since(start)))
			lastSay = time.Now()
		}
		time.Sleep(100 * time.Millisecond)
	}
	confirmedAt := time.Now()
	var memberships, perMemberMax, emailsRecorded int
	if err := b.a.Store.Pool().QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memberships m JOIN terms t ON t.id = m.term_id WHERE t.name = $1 AND m.status = 'paid' AND m.method = 'shop'),
		(SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM emails WHERE kind = 'membership_paid' GROUP BY to_address) x),
		(SELECT count(*) FROM emails WHERE kind = 'membership_paid')`, term).Scan(&memberships, &perMemberMax, &emailsRecorded); err != nil {
		return 0, 0, 0, err
	}
	if memberships != benchReceipts || perMemberMax != 1 || emailsRecorded != benchReceipts {
		return 0, 0, 0, fmt.Errorf("duplicates: %d paid memberships, %d emails (at most %d to one member), want %d each and 1",
			memberships, emailsRecorded, perMemberMax, benchReceipts)
	}
	acceptedPerS = float64(benchReceipts) / postWall.Seconds()
	p95ms = float64(percentile(lat, 0.95).Microseconds()) / 1000
	processedPerS = float64(benchReceipts) / processedAt.Sub(start).Seconds()
	b.add(fmt.Sprintf("membership webhook: accepted posts/s (%d signed receipts, %d concurrent)", benchReceipts, benchReceiptClients), fmt.Sprintf("%.0f", acceptedPerS))
	b.add("membership webhook: accept p50 / p95", fmt.Sprintf("%.1f ms / %.1f ms", float64(percentile(lat, 0.5).Microseconds())/1000, p95ms))
	b.add("membership webhook: receipts processed/s end to end (post → membership paid)", fmt.Sprintf("%.0f", processedPerS))
	b.add("membership webhook: confirmations sent/s end to end (post → email sent)", fmt.Sprintf("%.0f", float64(benchReceipts)/confirmedAt.Sub(start).Seconds()))
	b.add("membership webhook: duplicate payments / duplicate emails", "0 / 0")
	return acceptedPerS, p95ms, processedPerS, nil
}
