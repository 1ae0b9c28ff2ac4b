package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"

	"hackdesk/dev/receipttest"
	"hackdesk/internal/feature/membership"
)

// scenarioWebhookStorm: members' shop receipts are posted to the
// membership webhook from 12 clients at once, each receipt several times
// (fresh tokens and replays, as the inbound-email provider retries),
// while the API's and the worker's PostgreSQL connections are reset or
// cut in turns. Every answer must be 200, 406 or 5xx; once the provider's
// retries have gone through, each transaction is paid once and confirmed
// by one email.
func scenarioWebhookStorm(ctx context.Context, s *Suite, r *Result) error {
	se, err := s.newStaffedEnv(ctx, "webhook")
	if err != nil {
		return err
	}
	defer se.Close()
	e, api, st := se.Env, se.api, se.staff
	const termName = "2026-2027"
	if _, err := st.super.Expect(ctx, http.StatusCreated, http.MethodPost, "/api/admin/terms",
		map[string]any{"name": termName, "starts_on": "2026-09-01", "ends_on": "2027-04-30", "active": true}); err != nil {
		return err
	}
	const members = 24
	raws := make([][]byte, members)
	for i := range raws {
		email := fmt.Sprintf("member-%d-%s@example.com", i, randomHex(2))
		id, err := e.Account(ctx, email, "member")
		if err != nil {
			return err
		}
		tok, err := e.Session(ctx, id)
		if err != nil {
			return err
		}
		if _, err := (Client{Base: api.URL, Token: tok}).Expect(ctx, http.StatusCreated, http.MethodPost, "/api/membership", nil); err != nil {
			return err
		}
		raws[i], err = s.shop.Key.Sign(receipttest.Sample{Email: email, TermName: termName,
			TransactionID: fmt.Sprintf("TX-REL-%02d-%s", i, randomHex(3))}.Build())
		if err != nil {
			return err
		}
	}
	post := func(form url.Values) (Resp, error) {
		return Client{Base: api.URL}.Do(ctx, http.MethodPost, "/api/webhooks/membership", []byte(form.Encode()),
			"Content-Type", "application/x-www-form-urlencoded")
	}
	allowed := func(s int) bool { return s == http.StatusOK || s == http.StatusNotAcceptable || s >= 500 }

	e.Step("storm with resets")
	const stormFor = 8 * time.Second
	faults := make(chan int, 1)
	go func() { faults <- resetsInTurns(s, stormFor, pgAPI, pgWorker) }()
	var wg sync.WaitGroup
	stop := time.Now().Add(stormFor)
	for w := 0; w < 12; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last url.Values
			for time.Now().Before(stop) && ctx.Err() == nil {
				form := last
				if form == nil || rand.IntN(3) > 0 {
					form = receipttest.WebhookForm([]byte(s.shop.WebhookKey), raws[rand.IntN(members)], time.Now())
				}
				resp, err := post(form)
				r.Answers.Add(resp.Status, err)
				last = form
			}
		}()
	}
	wg.Wait()
	n := <-faults
	r.Injected = fmt.Sprintf("12 clients posting signed receipts of %d members for 8 s (fresh tokens and replays) while %d faults "+
		"hit the API's and the worker's PostgreSQL connections in turns (toxiproxy `reset_peer`, proxies disabled)", members, n)
	r.Check(r.Answers.Others(allowed) == 0, "every answer 200, 406 or 5xx", "%d of %d otherwise", r.Answers.Others(allowed), r.Answers.Total())
	r.Check(r.Answers.Count(func(s int) bool { return s >= 500 }) > 0, "the faults reached the webhook", "%d answers 5xx",
		r.Answers.Count(func(s int) bool { return s >= 500 }))

	// The provider retries what was not answered 200, with a new token;
	// here every receipt is posted once more until it is.
	e.Step("provider retries")
	retried := 0
	for _, raw := range raws {
		for try := 0; try < 5; try++ {
			resp, err := post(receipttest.WebhookForm([]byte(s.shop.WebhookKey), raw, time.Now()))
			if !allowed(resp.Status) {
				r.Answers.Add(resp.Status, err)
			}
			if err == nil && resp.Status == http.StatusOK {
				break
			}
			retried++
			time.Sleep(200 * time.Millisecond)
		}
	}
	e.Step("waiting for the receipts' workflows and emails")
	if err := e.WaitStarted(ctx, time.Minute); err != nil {
		return err
	}
	if err := checkAllCompleted(ctx, s, e, r, 90*time.Second); err != nil {
		return err
	}
	var paid, paidRight, processed, txs, stuck int
	if err := e.Store.Pool().QueryRow(ctx, `
		SELECT (SELECT count(*) FROM memberships WHERE status = 'paid'),
		       (SELECT count(*) FROM memberships WHERE status = 'paid' AND method = 'shop' AND amount_cents = 2000),
		       (SELECT count(*) FROM receipts WHERE status = 'processed'),
		       (SELECT count(DISTINCT transaction_id) FROM receipts WHERE status = 'processed'),
		       (SELECT count(*) FROM receipts WHERE status IN ('received', 'processing'))`).Scan(
		&paid, &paidRight, &processed, &txs, &stuck); err != nil {
		return err
	}
	r.Check(paid == members && paidRight == members, "each member paid once", "%d of %d memberships paid (%d by shop for 2000)", paid, members, paidRight)
	r.Check(processed == members && txs == members && stuck == 0, "each transaction processed once",
		"%d receipts processed for %d transactions, %d left unprocessed (%d retries needed)", processed, txs, stuck, retried)
	mails, err := e.Emails(ctx, membership.ConfirmationKind)
	if err != nil {
		return err
	}
	r.Check(mails.Rows == members && mails.OK(), "one confirmation email each", "%s", mails)
	return nil
}

// resetsInTurns injects a fault on the proxies every 0.7 s for about d:
// connections reset 5 ms into any data (toxiproxy `reset_peer`) for 0.3 s,
// or the proxies disabled for 0.3 s, in turns. It returns how many.
func resetsInTurns(s *Suite, d time.Duration, proxies ...string) int {
	n := 0
	for end := time.Now().Add(d - 500*time.Millisecond); time.Now().Before(end); n++ {
		time.Sleep(400 * time.Millisecond)
		if n%2 == 0 {
			for _, p := range proxies {
				if s.Toxic(p, "reset", "reset_peer", toxiproxy.Attributes{"timeout": 5}) != nil {
					return n
				}
			}
			time.Sleep(300 * time.Millisecond)
			for _, p := range proxies {
				_ = s.Untoxic(p, "reset")
			}
		} else {
			_ = s.SetEnabled(false, proxies...)
			time.Sleep(300 * time.Millisecond)
			_ = s.SetEnabled(true, proxies...)
		}
	}
	return n
}
