package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// envNames are every variable FromEnv reads.
var envNames = []string{
	"DATABASE_URL", "TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_TASK_QUEUE",
	"HTTP_ADDR", "PUBLIC_URL", "S3_ENDPOINT", "S3_REGION", "S3_BUCKET",
	"S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "MAIL_DRIVER", "MAIL_FROM",
	"SMTP_URL", "SES_REGION", "LOG_FORMAT", "RECEIPT_SENDER_DOMAINS", "RESUME_CLEANUP_GRACE",
	"TRUSTED_PROXIES", "WEBHOOK_CONCURRENCY", "WEB_DIR", "ERASURE_GRACE", "RETENTION_DAYS",
	"TRUSTED_PROXIES", "WEBHOOK_CONCURRENCY", "WEB_DIR", "SHOP_URL", "CODE_OF_CONDUCT_URL",
}

// clearEnv unsets every variable FromEnv reads for the rest of the test.
func clearEnv(t *testing.T) {
	t.Helper()
	for _, name := range envNames {
		t.Setenv(name, "") // registers the restore of the original value
		if err := os.Unsetenv(name); err != nil {
			t.Fatalf("unset %s: %v", name, err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	t.Run("OKDefaults", func(t *testing.T) {
		clearEnv(t)
		got := FromEnv()
		want := Defaults()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
		if got.ResumeCleanupGrace != time.Hour {
			t.Errorf("ResumeCleanupGrace: got %v, want %v", got.ResumeCleanupGrace, time.Hour)
		}
		if got.MailDriver != "log" || got.LogFormat != "json" || got.HTTPAddr != "127.0.0.1:8080" {
			t.Errorf("defaults: got MailDriver=%q LogFormat=%q HTTPAddr=%q", got.MailDriver, got.LogFormat, got.HTTPAddr)
		}
		if got.DatabaseURL != "" || got.ReceiptSenderDomains != nil || got.ShopURL != "" {
			t.Errorf("unset values: got DatabaseURL=%q ReceiptSenderDomains=%q ShopURL=%q, want empty", got.DatabaseURL, got.ReceiptSenderDomains, got.ShopURL)
		}
		if got.CodeOfConductURL != "https://static.mlh.io/docs/mlh-code-of-conduct.pdf" {
			t.Errorf("CodeOfConductURL: got %q, want MLH's", got.CodeOfConductURL)
		}
	})

	t.Run("OKEmptyKeepsDefault", func(t *testing.T) {
		clearEnv(t)
		t.Setenv("MAIL_DRIVER", "")
		t.Setenv("RESUME_CLEANUP_GRACE", "")
		got := FromEnv()
		if got.MailDriver != "log" || got.ResumeCleanupGrace != time.Hour {
			t.Errorf("got MailDriver=%q ResumeCleanupGrace=%v, want %q and %v", got.MailDriver, got.ResumeCleanupGrace, "log", time.Hour)
		}
	})

	t.Run("OKOverrides", func(t *testing.T) {
		clearEnv(t)
		t.Setenv("DATABASE_URL", "postgres://u:p@db:5432/hackdesk")
		t.Setenv("RECEIPT_SENDER_DOMAINS", " Example.ORG ,, mail.Example.com,  ,LOWER.net ")
		t.Setenv("RESUME_CLEANUP_GRACE", "90s")
		t.Setenv("MAIL_DRIVER", "smtp")
		t.Setenv("SMTP_URL", "smtp://mail:25")
		t.Setenv("TRUSTED_PROXIES", "10.0.0.0/8,192.168.1.7")
		t.Setenv("WEBHOOK_CONCURRENCY", "7")
		t.Setenv("WEB_DIR", "web/dist")
		t.Setenv("SHOP_URL", "https://shop.example.edu/membership")
		t.Setenv("CODE_OF_CONDUCT_URL", "https://club.example.edu/conduct")
		got := FromEnv()
		if got.ShopURL != "https://shop.example.edu/membership" || got.CodeOfConductURL != "https://club.example.edu/conduct" {
			t.Errorf("links: got ShopURL=%q CodeOfConductURL=%q", got.ShopURL, got.CodeOfConductURL)
		}
		if got.WebDir != "web/dist" {
			t.Errorf("WebDir: got %q, want web/dist", got.WebDir)
		}
		if got.WebhookConcurrency != 7 {
			t.Errorf("WebhookConcurrency: got %d, want 7", got.WebhookConcurrency)
		}
		if want := "10.0.0.0/8,192.168.1.7"; got.TrustedProxies != want {
			t.Errorf("TrustedProxies: got %q, want %q", got.TrustedProxies, want)
		}
		if want := "postgres://u:p@db:5432/hackdesk"; got.DatabaseURL != want {
			t.Errorf("DatabaseURL: got %q, want %q", got.DatabaseURL, want)
		}
		if want := []string{"example.org", "mail.example.com", "lower.net"}; !reflect.DeepEqual(got.ReceiptSenderDomains, want) {
			t.Errorf("ReceiptSenderDomains: got %q, want %q", got.ReceiptSenderDomains, want)
		}
		if want := 90 * time.Second; got.ResumeCleanupGrace != want {
			t.Errorf("ResumeCleanupGrace: got %v, want %v", got.ResumeCleanupGrace, want)
		}
		if got.MailDriver != "smtp" || got.SMTPURL != "smtp://mail:25" {
			t.Errorf("mail: got MailDriver=%q SMTPURL=%q", got.MailDriver, got.SMTPURL)
		}
		// Settings not in the environment keep their defaults.
		if want := Defaults().TemporalAddress; got.TemporalAddress != want {
			t.Errorf("TemporalAddress: got %q, want default %q", got.TemporalAddress, want)
		}
	})

	t.Run("OKPersonalData", func(t *testing.T) {
		clearEnv(t)
		if got := FromEnv(); got.ErasureGrace != 168*time.Hour || got.RetentionDays != 365 {
			t.Errorf("defaults: ErasureGrace %v RetentionDays %d, want 168h and 365", got.ErasureGrace, got.RetentionDays)
		}
		t.Setenv("ERASURE_GRACE", "90s")
		t.Setenv("RETENTION_DAYS", "30")
		if got := FromEnv(); got.ErasureGrace != 90*time.Second || got.RetentionDays != 30 {
			t.Errorf("got ErasureGrace %v RetentionDays %d, want 90s and 30", got.ErasureGrace, got.RetentionDays)
		}
		t.Setenv("ERASURE_GRACE", "a week")
		t.Setenv("RETENTION_DAYS", "a year")
		c := complete()
		got := FromEnv()
		c.ErasureGrace, c.RetentionDays = got.ErasureGrace, got.RetentionDays
		if err := c.Validate(RoleServe); err == nil || !strings.Contains(err.Error(), "ERASURE_GRACE") {
			t.Errorf("a malformed ERASURE_GRACE: Validate = %v", err)
		}
	})

	t.Run("OKBadGraceKeepsDefault", func(t *testing.T) {
		clearEnv(t)
		t.Setenv("RESUME_CLEANUP_GRACE", "soon")
		if got := FromEnv().ResumeCleanupGrace; got != time.Hour {
			t.Errorf("ResumeCleanupGrace: got %v, want default %v", got, time.Hour)
		}
	})

	t.Run("OKOnlySeparators", func(t *testing.T) {
		clearEnv(t)
		t.Setenv("RECEIPT_SENDER_DOMAINS", " , ,")
		if got := FromEnv().ReceiptSenderDomains; len(got) != 0 {
			t.Errorf("ReceiptSenderDomains: got %q, want none", got)
		}
	})
}

// complete returns a Config that every role accepts.
func complete() Config {
	c := Defaults()
	c.DatabaseURL = "postgres://u:p@127.0.0.1:5432/hackdesk"
	c.S3Endpoint = "http://127.0.0.1:7070"
	c.S3AccessKey = "access"
	c.S3SecretKey = "secret"
	c.SigningKey = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes
	c.TemporalPayloadKeys = "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	return c
}

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		role    Role
		edit    func(*Config)
		wantErr string // empty: must pass
	}{
		{"OK", RoleServe, func(*Config) {}, ""},
		{"OKWorker", RoleWorker, func(*Config) {}, ""},
		{"OKSMTP", RoleServe, func(c *Config) { c.MailDriver = "smtp"; c.SMTPURL = "smtp://u:p@mail:587" }, ""},
		{"OKSES", RoleServe, func(c *Config) { c.MailDriver = "ses" }, ""},
		{"OKWorkerIgnoresPublicURL", RoleWorker, func(c *Config) { c.MailDriver = "ses"; c.PublicURL = "/relative" }, ""},
		{"OKLogDriverLoopbackIPv6", RoleServe, func(c *Config) { c.PublicURL = "http://[::1]:8080" }, ""},
		{"OKLogDriverLocalhost", RoleWorker, func(c *Config) { c.PublicURL = "http://localhost:8080" }, ""},
		{"OKLogDriverLoopbackRange", RoleServe, func(c *Config) { c.PublicURL = "http://127.0.0.2" }, ""},
		{"ErrLogDriverPublicHost", RoleServe, func(c *Config) { c.PublicURL = "https://hackdesk.example.org" }, "MAIL_DRIVER"},
		{"ErrLogDriverPublicHostNamesURL", RoleWorker, func(c *Config) { c.PublicURL = "https://hackdesk.example.org" }, "PUBLIC_URL"},
		{"ErrLogDriverPrivateAddress", RoleWorker, func(c *Config) { c.PublicURL = "http://10.0.0.5:8080" }, "MAIL_DRIVER"},
		{"ErrLogDriverLoopbackLookalike", RoleServe, func(c *Config) { c.PublicURL = "http://127.0.0.1.example.org" }, "MAIL_DRIVER"},
		{"OKMigrateNeedsOnlyDatabase", RoleMigrate, func(c *Config) { *c = Config{DatabaseURL: "postgres://db/x"} }, ""},
		{"ErrMigrateNoDatabaseURL", RoleMigrate, func(c *Config) { *c = Config{} }, "DATABASE_URL"},
		{"ErrNoDatabaseURL", RoleServe, func(c *Config) { c.DatabaseURL = "" }, "DATABASE_URL"},
		{"ErrNoS3Endpoint", RoleServe, func(c *Config) { c.S3Endpoint = "" }, "S3_ENDPOINT"},
		{"ErrNoS3SecretKey", RoleWorker, func(c *Config) { c.S3SecretKey = "" }, "S3_SECRET_ACCESS_KEY"},
		{"ErrRelativePublicURL", RoleServe, func(c *Config) { c.PublicURL = "/hackdesk" }, "PUBLIC_URL"},
		{"ErrPublicURLNoHost", RoleServe, func(c *Config) { c.PublicURL = "https://" }, "PUBLIC_URL"},
		{"ErrPublicURLScheme", RoleServe, func(c *Config) { c.PublicURL = "ftp://example.org" }, "PUBLIC_URL"},
		{"ErrSMTPWithoutURL", RoleServe, func(c *Config) { c.MailDriver = "smtp" }, "SMTP_URL"},
		{"ErrUnknownMailDriver", RoleServe, func(c *Config) { c.MailDriver = "carrier-pigeon" }, "MAIL_DRIVER"},
		{"ErrLogFormat", RoleWorker, func(c *Config) { c.LogFormat = "xml" }, "LOG_FORMAT"},
		{"OKTrustedProxies", RoleServe, func(c *Config) { c.TrustedProxies = "10.0.0.0/8, 192.168.1.7,2001:db8::/32" }, ""},
		{"ErrTrustedProxiesHostname", RoleServe, func(c *Config) { c.TrustedProxies = "10.0.0.0/8,proxy.internal" }, "TRUSTED_PROXIES"},
		{"ErrTrustedProxiesBadCIDR", RoleServe, func(c *Config) { c.TrustedProxies = "10.0.0.0/33" }, "TRUSTED_PROXIES"},
		{"ErrNoSigningKey", RoleWorker, func(c *Config) { c.SigningKey = "" }, "SIGNING_KEY"},
		{"ErrShortSigningKey", RoleServe, func(c *Config) { c.SigningKey = "c2hvcnQ=" }, "SIGNING_KEY"},
		{"ErrSigningKeyNotBase64", RoleServe, func(c *Config) { c.SigningKey = "not base64!" }, "SIGNING_KEY"},
		{"ErrNoPayloadKeys", RoleServe, func(c *Config) { c.TemporalPayloadKeys = "" }, "TEMPORAL_PAYLOAD_KEYS"},
		{"ErrWorkerNoPayloadKeys", RoleWorker, func(c *Config) { c.TemporalPayloadKeys = "" }, "TEMPORAL_PAYLOAD_KEYS"},
		{"ErrMalformedPayloadKeys", RoleWorker, func(c *Config) { c.TemporalPayloadKeys = "k1=abc" }, "TEMPORAL_PAYLOAD_KEYS"},
		{"ErrShortPayloadKey", RoleServe, func(c *Config) { c.TemporalPayloadKeys = "k1:c2hvcnQ=" }, "TEMPORAL_PAYLOAD_KEYS"},
		{"OKPayloadKeyRotation", RoleWorker, func(c *Config) {
			c.TemporalPayloadKeys = "k2:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=,k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
		}, ""},
		{"ErrDues", RoleServe, func(c *Config) { c.MembershipDuesCents = -1 }, "MEMBERSHIP_DUES_CENTS"},
		{"ErrBroadcastRate", RoleWorker, func(c *Config) { c.BroadcastRate = 0 }, "BROADCAST_RATE"},
		{"ErrErasureGrace", RoleServe, func(c *Config) { c.ErasureGrace = -1 }, "ERASURE_GRACE"},
		{"ErrRetentionDays", RoleWorker, func(c *Config) { c.RetentionDays = 0 }, "RETENTION_DAYS"},
		{"ErrWebhookConcurrency", RoleServe, func(c *Config) { c.WebhookConcurrency = 0 }, "WEBHOOK_CONCURRENCY"},
		{"OKShopURL", RoleServe, func(c *Config) { c.ShopURL = "https://shop.example.edu/club-membership" }, ""},
		{"ErrShopURLRelative", RoleServe, func(c *Config) { c.ShopURL = "shop.example.edu" }, "SHOP_URL"},
		{"ErrCodeOfConductURLScheme", RoleServe, func(c *Config) { c.CodeOfConductURL = "javascript:alert(1)" }, "CODE_OF_CONDUCT_URL"},
		{"ErrWebhookConcurrencyHigh", RoleServe, func(c *Config) { c.WebhookConcurrency = 1001 }, "WEBHOOK_CONCURRENCY"},
		{"OKWebDir", RoleServe, func(c *Config) { c.WebDir = "." }, ""},
		{"ErrWebDirMissing", RoleServe, func(c *Config) { c.WebDir = "no/such/dir" }, "WEB_DIR"},
		{"ErrWebDirFile", RoleServe, func(c *Config) { c.WebDir = "config.go" }, "WEB_DIR"},
		{"OKWorkerIgnoresWebDir", RoleWorker, func(c *Config) { c.WebDir = "no/such/dir" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := complete()
			tc.edit(&c)
			err := c.Validate(tc.role)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate: got %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: got nil, want an error naming %s", tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Validate: error %q does not name %s", err, tc.wantErr)
			}
		})
	}
}

func TestMailCatcher(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, driver, url string
		want              bool
	}{
		{"OKLogLoopback", "log", "http://127.0.0.1:8080", true},
		{"OKLogLocalhost", "log", "http://LOCALHOST:8080", true},
		{"OKLogIPv6Loopback", "log", "http://[::1]:8080", true},
		{"NotLogPublicHost", "log", "http://hackdesk.test", false},
		{"NotSMTPLoopback", "smtp", "http://127.0.0.1:8080", false},
		{"NotLogRelative", "log", "/127.0.0.1", false},
		{"NotLogUserinfoTrick", "log", "http://127.0.0.1@evil.example", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Config{MailDriver: tc.driver, PublicURL: tc.url}).MailCatcher(); got != tc.want {
				t.Errorf("MailCatcher(%s, %s) = %v, want %v", tc.driver, tc.url, got, tc.want)
			}
		})
	}
}

func TestSecureCookies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, url string
		want      bool
	}{
		{"OKHTTPS", "https://hackdesk.example", true},
		{"OKHTTP", "http://127.0.0.1:8080", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Config{PublicURL: tc.url}).SecureCookies(); got != tc.want {
				t.Errorf("SecureCookies(%q): got %v, want %v", tc.url, got, tc.want)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []string // the prefixes, or nil for an error
	}{
		{"OKEmpty", "", []string{}},
		{"OKBlankItems", " , ,", []string{}},
		{"OKCIDRsAndAddresses", " 10.0.0.0/8 ,192.168.1.7, 2001:db8::/32,::1", []string{"10.0.0.0/8", "192.168.1.7/32", "2001:db8::/32", "::1/128"}},
		{"OKMaskedCIDR", "10.1.2.3/8", []string{"10.0.0.0/8"}},
		{"OKMappedAddress", "::ffff:10.1.2.3,::ffff:10.0.0.0/104", []string{"10.1.2.3/32", "10.0.0.0/8"}},
		{"ErrHostname", "proxy.internal", nil},
		{"ErrPrefixTooLong", "10.0.0.0/33", nil},
		{"ErrPort", "10.0.0.1:80", nil},
		{"ErrZone", "fe80::1%eth0", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTrustedProxies(tc.in)
			if tc.want == nil {
				if err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXIES") {
					t.Fatalf("ParseTrustedProxies(%q) = %v, %v; want an error naming TRUSTED_PROXIES", tc.in, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTrustedProxies(%q): %v", tc.in, err)
			}
			strs := []string{}
			for _, p := range got {
				strs = append(strs, p.String())
			}
			if !reflect.DeepEqual(strs, tc.want) {
				t.Errorf("ParseTrustedProxies(%q) = %v, want %v", tc.in, strs, tc.want)
			}
		})
	}
}

func TestRunURL(t *testing.T) {
	c := Defaults()
	if got := c.RunURL("hiring-finalization:t1", "r1"); got != "" {
		t.Fatalf("without TEMPORAL_UI_URL: %q, want no link", got)
	}
	c.TemporalUIURL = "http://127.0.0.1:8233/"
	if got, want := c.RunURL("hiring-finalization:t1", "r1"), "http://127.0.0.1:8233/namespaces/default/workflows/hiring-finalization:t1/r1/history"; got != want {
		t.Fatalf("run link %q, want %q", got, want)
	}
	if got, want := c.RunURL("receipt:TX 1", ""), `http://127.0.0.1:8233/namespaces/default/workflows?query=WorkflowId%3D%22receipt%3ATX+1%22`; got != want {
		t.Fatalf("list link %q, want %q", got, want)
	}
}
