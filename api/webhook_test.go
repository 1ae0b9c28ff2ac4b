package api

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/config"
)

// A post that finds every place of the webhook's gate taken is answered
// 503 with Retry-After once it gives up waiting, before it touches the
// database (this server has none: a post let through would fail with 500).
// A forged post is refused before the gate.
func TestWebhookGate(t *testing.T) {
	t.Parallel()
	cfg := config.Defaults()
	cfg.WebhookSigningKey = "webhook-key"
	cfg.WebhookConcurrency = 1
	s := New(Deps{Config: cfg, DKIMLookup: func(string) ([]string, error) { return nil, nil }})
	release, err := s.webhooks.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	post := func(form string) *httptest.ResponseRecorder {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		r := httptest.NewRequest("POST", "/api/webhooks/membership", strings.NewReader(form)).WithContext(ctx)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	signed := receipttest.WebhookForm([]byte(cfg.WebhookSigningKey), []byte("From: a@b.test\r\n\r\nhi\r\n"), time.Now())
	w := post(signed.Encode())
	var body errorBody
	_ = json.Unmarshal(w.Body.Bytes(), &body)
	if w.Code != 503 || body.Error != "Service unavailable" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("signed post with the gate full = %d %s (Retry-After %q), want 503", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	signed.Set("signature", strings.Repeat("0", 64))
	if w := post(signed.Encode()); w.Code != 401 {
		t.Fatalf("forged post with the gate full = %d %s, want 401", w.Code, w.Body)
	}
}
