package receipts

import (
	"encoding/hex"
	"errors"
	"strconv"
	"testing"
	"time"
)

func TestWebhookSignature(t *testing.T) {
	// Computed independently (Python's hmac module).
	const want = "b63c0701c4f4b614f272106a1b367c5c3369bcdca664ae73ebd52787e45eef07"
	got := WebhookSignature([]byte("key-3ax6xnjp29jd6fds4gc373sgvjxteol0"), "1529006854", "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0")
	if got != want {
		t.Errorf("WebhookSignature = %s, want %s", got, want)
	}
}

func TestVerifyWebhook(t *testing.T) {
	key := []byte("webhook-key")
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef01"
	now := time.Unix(1_800_000_000, 900_000_000) // sub-second, to check whole-second bounds
	const window = 300 * time.Second
	at := func(offset int64) string { return strconv.FormatInt(now.Unix()+offset, 10) }
	sign := func(ts string) string { return WebhookSignature(key, ts, token) }
	good := sign(at(0))
	flipped := []byte(good)
	if flipped[10] == '0' {
		flipped[10] = '1'
	} else {
		flipped[10] = '0'
	}

	cases := []struct {
		name      string
		key       []byte
		timestamp string
		token     string
		signature string
		want      error
	}{
		{"OK", key, at(0), token, good, nil},
		{"OKWindowPast", key, at(-300), token, sign(at(-300)), nil},
		{"OKWindowFuture", key, at(300), token, sign(at(300)), nil},
		{"ErrFlippedHexChar", key, at(0), token, string(flipped), ErrWebhookSignature},
		{"ErrTruncated", key, at(0), token, good[:62], ErrWebhookSignature},
		{"ErrNotHex", key, at(0), token, "zz" + good[2:], ErrWebhookSignature},
		{"ErrEmptySignature", key, at(0), token, "", ErrWebhookSignature},
		{"ErrOtherToken", key, at(0), token + "x", good, ErrWebhookSignature},
		{"ErrOtherTimestamp", key, at(1), token, good, ErrWebhookSignature},
		{"ErrOtherKey", []byte("other-key"), at(0), token, good, ErrWebhookSignature},
		{"ErrEmptyKey", nil, at(0), token, WebhookSignature(nil, at(0), token), ErrWebhookSignature},
		{"ErrStalePast", key, at(-301), token, sign(at(-301)), ErrWebhookStale},
		{"ErrStaleFuture", key, at(301), token, sign(at(301)), ErrWebhookStale},
		{"ErrNonNumeric", key, "1.8e9", token, sign("1.8e9"), ErrWebhookStale},
		{"ErrEmptyTimestamp", key, "", token, sign(""), ErrWebhookStale},
		{"ErrMilliseconds", key, strconv.FormatInt(now.UnixMilli(), 10), token, sign(strconv.FormatInt(now.UnixMilli(), 10)), ErrWebhookStale},
		{"ErrHuge", key, "9223372036854775807", token, sign("9223372036854775807"), ErrWebhookStale},
		{"ErrHugeNegative", key, "-9223372036854775808", token, sign("-9223372036854775808"), ErrWebhookStale},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := VerifyWebhook(c.key, c.timestamp, c.token, c.signature, now, window)
			if c.want == nil {
				if err != nil {
					t.Fatalf("VerifyWebhook: %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("VerifyWebhook: %v, want %v", err, c.want)
			}
		})
	}
}

func TestWebhookForm(t *testing.T) {
	key := []byte("webhook-key")
	now := time.Unix(1_800_000_000, 0)
	mime := Sample{Email: "jane@example.com"}.Build()
	f := WebhookForm(key, mime, now)
	if got := f.Get("timestamp"); got != "1800000000" {
		t.Errorf("timestamp %q", got)
	}
	token := f.Get("token")
	if _, err := hex.DecodeString(token); err != nil || len(token) != 50 {
		t.Errorf("token %q, want 50 hex characters", token)
	}
	if got := f.Get("body-mime"); got != string(mime) {
		t.Errorf("body-mime differs from the message")
	}
	if err := VerifyWebhook(key, f.Get("timestamp"), token, f.Get("signature"), now.Add(time.Minute), 5*time.Minute); err != nil {
		t.Errorf("VerifyWebhook of the form: %v", err)
	}
	if other := WebhookForm(key, mime, now); other.Get("token") == token {
		t.Error("two forms share a token")
	}
	if len(f) != 4 {
		t.Errorf("fields %v, want timestamp, token, signature, body-mime", f)
	}
}
