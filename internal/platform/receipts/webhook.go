package receipts

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// The inbound-email provider signs each post Mailgun-style: the form
// carries a timestamp (Unix seconds), a random token and the hex
// HMAC-SHA256 of timestamp+token under the shared key.

// ErrWebhookSignature is a post whose signature does not match.
var ErrWebhookSignature = errors.New("webhook: bad signature")

// ErrWebhookStale is a correctly signed post whose timestamp is not Unix
// seconds within the window of now (an old post replayed, or a bad clock).
var ErrWebhookStale = errors.New("webhook: timestamp outside the window")

// WebhookSignature is hex HMAC-SHA256(key, timestamp + token).
func WebhookSignature(key []byte, timestamp, token string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(timestamp))
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyWebhook checks signature against key in constant time
// (ErrWebhookSignature, also for an empty key), then that timestamp is
// Unix seconds with |now - timestamp| <= window (ErrWebhookStale).
// Replays within the window are the caller's to refuse (by token, or by
// what the post carries).
func VerifyWebhook(key []byte, timestamp, token, signature string, now time.Time, window time.Duration) error {
	if len(key) == 0 {
		// With an empty key anyone can sign.
		return fmt.Errorf("%w: no key", ErrWebhookSignature)
	}
	got, err := hex.DecodeString(signature)
	want, _ := hex.DecodeString(WebhookSignature(key, timestamp, token))
	if err != nil || !hmac.Equal(got, want) {
		return ErrWebhookSignature
	}
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q is not Unix seconds", ErrWebhookStale, clip(timestamp))
	}
	// In whole seconds, as the timestamp is; bounds rather than a
	// difference, so a huge timestamp cannot overflow into the window.
	w := int64(window / time.Second)
	if n := now.Unix(); sec < n-w || sec > n+w {
		return ErrWebhookStale
	}
	return nil
}
