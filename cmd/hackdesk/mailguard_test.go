package main

import (
	"strings"
	"testing"
)

// `serve` and `worker` refuse the log mail driver (which prints every
// email, one-time links included) unless PUBLIC_URL is loopback: the error
// names both variables and nothing is started.
func TestServeRefusesLogMailDriverInProduction(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://u:p@127.0.0.1:1/none")
	t.Setenv("S3_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("S3_ACCESS_KEY_ID", "access")
	t.Setenv("S3_SECRET_ACCESS_KEY", "secret")
	t.Setenv("PUBLIC_URL", "https://hackdesk.example.org")
	t.Setenv("MAIL_DRIVER", "log")
	t.Setenv("SIGNING_KEY", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	t.Setenv("TEMPORAL_PAYLOAD_KEYS", "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	for _, cmd := range []string{"serve", "worker"} {
		t.Run(cmd, func(t *testing.T) {
			out, err := runCmd(t, "", cmd)
			if err == nil || !strings.Contains(err.Error(), "MAIL_DRIVER") || !strings.Contains(err.Error(), "PUBLIC_URL") {
				t.Fatalf("%s with the log driver and a public URL: %v\n%s", cmd, err, out)
			}
		})
	}
}
