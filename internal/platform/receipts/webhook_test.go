package receipts_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"hackdesk/internal/platform/receipts"
)

func TestWebhookSignature(t *testing.T) {
	t.Parallel()
	// Computed independently (Python's hmac module).
	const want = "b63c0701c4f4b614f272106a1b367c5c3369bcdca664ae73ebd52787e45eef07"
	got := receipts.WebhookSignature([]byte("key-3ax6xnjp29jd6fds4gc373sgvjxteol0"), "1529006854", "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0")
	if got != want {
		t.Errorf("WebhookSignature = %s, want %s", got, want)
	}
}

func TestVerifyWebhook(t *testing.T) {
	t.Parallel()
	key := []byte("webhook-key")
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef01"
	now := time.Unix(1_800_000_000, 900_000_000) // sub-second, to check whole-second bounds
	const window = 300 * time.Second
	at := func(offset int64) string { return strconv.FormatInt(now.Unix()+offset, 10) }
	sign := func(ts string) string { return receipts.WebhookSignature(key, ts, token) }
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
		{"ErrFlippedHexChar", key, at(0), token, string(flipped), receipts.ErrWebhookSignature},
		{"ErrTruncated", key, at(0), token, good[:62], receipts.ErrWebhookSignature},
		{"ErrNotHex", key, at(0), token, "zz" + good[2:], receipts.ErrWebhookSignature},
		{"ErrEmptySignature", key, at(0), token, "", receipts.ErrWebhookSignature},
		{"ErrOtherToken", key, at(0), token + "x", good, receipts.ErrWebhookSignature},
		{"ErrOtherTimestamp", key, at(1), token, good, receipts.ErrWebhookSignature},
		{"ErrOtherKey", []byte("other-key"), at(0), token, good, receipts.ErrWebhookSignature},
		{"ErrEmptyKey", nil, at(0), token, receipts.WebhookSignature(nil, at(0), token), receipts.ErrWebhookSignature},
		{"ErrStalePast", key, at(-301), token, sign(at(-301)), receipts.ErrWebhookStale},
		{"ErrStaleFuture", key, at(301), token, sign(at(301)), receipts.ErrWebhookStale},
		{"ErrNonNumeric", key, "1.8e9", token, sign("1.8e9"), receipts.ErrWebhookStale},
		{"ErrEmptyTimestamp", key, "", token, sign(""), receipts.ErrWebhookStale},
		{"ErrMilliseconds", key, strconv.FormatInt(now.UnixMilli(), 10), token, sign(strconv.FormatInt(now.UnixMilli(), 10)), receipts.ErrWebhookStale},
		{"ErrHuge", key, "9223372036854775807", token, sign("9223372036854775807"), receipts.ErrWebhookStale},
		{"ErrHugeNegative", key, "-9223372036854775808", token, sign("-9223372036854775808"), receipts.ErrWebhookStale},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := receipts.VerifyWebhook(c.key, c.timestamp, c.token, c.signature, now, window)
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
