package config

import (
	"strings"
	"testing"
)

func TestMetricsAddr(t *testing.T) {
	for addr, ok := range map[string]bool{
		"":                      true, // off
		"127.0.0.1:9090":        true,
		":9090":                 true,
		"127.0.0.1:0":           true,
		"[::1]:9090":            true,
		"9090":                  false,
		"localhost":             false,
		"127.0.0.1:http":        false,
		"127.0.0.1:70000":       false,
		"http://127.0.0.1:9090": false,
	} {
		for _, role := range []Role{RoleServe, RoleWorker} {
			c := complete()
			c.MetricsAddr = addr
			err := c.Validate(role)
			if ok && err != nil {
				t.Errorf("METRICS_ADDR=%q: %v, want accepted", addr, err)
			}
			if !ok && (err == nil || !strings.Contains(err.Error(), "METRICS_ADDR")) {
				t.Errorf("METRICS_ADDR=%q: %v, want an error naming METRICS_ADDR", addr, err)
			}
		}
	}
	t.Setenv("METRICS_ADDR", "127.0.0.1:9191")
	if got := FromEnv().MetricsAddr; got != "127.0.0.1:9191" {
		t.Errorf("FromEnv: MetricsAddr %q", got)
	}
}
