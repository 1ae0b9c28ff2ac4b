package receipttest

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strconv"
	"time"

	"hackdesk/internal/platform/receipts"
)

// WebhookForm builds the form fields of a post as the provider sends it:
// timestamp, token (50 random hex characters), signature and body-mime.
func WebhookForm(key []byte, mime []byte, now time.Time) url.Values {
	b := make([]byte, 25)
	rand.Read(b) // never returns an error
	token := hex.EncodeToString(b)
	ts := strconv.FormatInt(now.Unix(), 10)
	return url.Values{
		"timestamp": {ts},
		"token":     {token},
		"signature": {receipts.WebhookSignature(key, ts, token)},
		"body-mime": {string(mime)},
	}
}
