package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/config"
)

// runReceipts is `hackdesk receipts sample`: a campus-shop receipt signed
// with the dev shop's DKIM key (kept under .data by `hackdesk dev`), printed,
// and with --post sent to the local API as the inbound-email provider
// would, so a newcomer can watch a payment arrive in the Temporal UI.
func runReceipts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "sample" {
		return usageError{}
	}
	fs := flag.NewFlagSet("receipts sample", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "the customer email on the receipt (required)")
	amount := fs.String("amount", "20.00", "the total paid, in dollars")
	term := fs.String("term", "", "the term named on the membership item (default: the active term)")
	tx := fs.String("tx", "", "the transaction id (default: a random one)")
	post := fs.Bool("post", false, "sign the webhook form and post it to the local API")
	apiURL := fs.String("url", "", "the API to post to (default: http://HTTP_ADDR)")
	dataDir := fs.String("data", envOr("HACKDESK_DATA_DIR", ".data"), "the dev stack's data directory (holds the shop key)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{}
	}
	if *email == "" {
		return errors.New("receipts sample: --email is required")
	}
	cents, err := dollarsToCents(*amount)
	if err != nil {
		return fmt.Errorf("receipts sample: --amount: %w", err)
	}
	if *term == "" {
		if *term, err = activeTermName(ctx); err != nil {
			return fmt.Errorf("receipts sample: %w (or pass --term)", err)
		}
	}
	shop, err := app.LoadDevShop(*dataDir)
	if err != nil {
		return err
	}
	raw, err := shop.Key.Sign(receipttest.Sample{Email: *email, AmountCents: cents, TermName: *term, TransactionID: *tx}.Build())
	if err != nil {
		return err
	}
	if !*post {
		_, err := stdout.Write(raw)
		return err
	}
	if *apiURL == "" {
		*apiURL = "http://" + config.FromEnv().HTTPAddr
	}
	form := receipttest.WebhookForm([]byte(shop.WebhookKey), raw, time.Now())
	req, err := http.NewRequestWithContext(ctx, "POST", strings.TrimRight(*apiURL, "/")+"/api/webhooks/membership", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("receipts sample: post: %w (is `make run` up?)", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	fmt.Fprintf(stdout, "posted a receipt for %s (%s, %s): %s %s\n", *email, *term, *amount, resp.Status, strings.TrimSpace(string(body)))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("receipts sample: the webhook answered %s", resp.Status)
	}
	fmt.Fprintln(stdout, "follow it in the Temporal UI: HackdeskKind = \"receipt\"")
	return nil
}

// activeTermName reads the active term of the shell database.
func activeTermName(ctx context.Context) (string, error) {
	store, err := openShellStore(ctx)
	if err != nil {
		return "", err
	}
	defer store.Close()
	t, err := store.TermActive(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return "", errors.New("no active term")
	}
	return t.Name, err
}

// dollarsToCents reads "20", "20.5" or "20.00".
func dollarsToCents(s string) (int64, error) {
	whole, frac, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(s), "$"), ".")
	if whole == "" || len(frac) > 2 {
		return 0, fmt.Errorf("%q is not an amount like 20.00", s)
	}
	var c int64
	for _, r := range whole + (frac + "00")[:2] {
		if r < '0' || r > '9' || c > 1e12 {
			return 0, fmt.Errorf("%q is not an amount like 20.00", s)
		}
		c = c*10 + int64(r-'0')
	}
	return c, nil
}
