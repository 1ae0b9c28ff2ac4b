package app

import (
	"testing"

	"hackdesk/internal/platform/config"
)

func TestTemporalTLS(t *testing.T) {
	t.Parallel()
	conn, creds, err := temporalTLS(config.Config{})
	if err != nil || conn.TLS != nil || creds != nil {
		t.Fatalf("no settings: TLS %v, credentials %v, %v; want plaintext", conn.TLS, creds, err)
	}
	conn, creds, err = temporalTLS(config.Config{TemporalAPIKey: "key"})
	if err != nil || conn.TLS == nil || creds == nil {
		t.Fatalf("API key: TLS %v, credentials %v, %v; want TLS with credentials", conn.TLS, creds, err)
	}
	if _, _, err := temporalTLS(config.Config{TemporalTLSCert: "/nonexistent.pem", TemporalTLSKey: "/nonexistent.key"}); err == nil {
		t.Fatal("a missing certificate file was accepted")
	}
}
