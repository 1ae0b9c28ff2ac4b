// Package config reads hackdesk's settings from the environment into one
// Config value. A missing required setting is reported by name.
package config

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Config is every setting the binary reads. Zero values mean "not set".
type Config struct {
	DatabaseURL       string
	TemporalAddress   string
	TemporalNamespace string
	TaskQueue         string
	HTTPAddr          string
	PublicURL         string

	S3Endpoint  string
	S3Region    string
	S3Bucket    string
	S3AccessKey string
	S3SecretKey string

	MailDriver string
	MailFrom   string
	SMTPURL    string
	SESRegion  string

	ReceiptSenderDomains []string

	LogFormat string // text or json

	// ResumeCleanupGrace is how long an old resume is kept after it is
	// replaced, so links already handed out keep working. Tests shorten it.
	ResumeCleanupGrace time.Duration
}

// Defaults returns a Config holding the default of every setting that has
// one; the others stay empty.
func Defaults() Config {
	return Config{
		TemporalAddress:    "127.0.0.1:7233",
		TemporalNamespace:  "default",
		TaskQueue:          "hackdesk",
		HTTPAddr:           "127.0.0.1:8080",
		PublicURL:          "http://127.0.0.1:8080",
		S3Region:           "us-east-1",
		S3Bucket:           "hackdesk",
		MailDriver:         "log",
		MailFrom:           "hackdesk <no-reply@hackdesk.local>",
		LogFormat:          "text",
		ResumeCleanupGrace: time.Hour,
	}
}

// FromEnv overlays the environment on the defaults.
func FromEnv() Config {
	c := Defaults()
	str := func(name string, dst *string) {
		if v, ok := os.LookupEnv(name); ok && v != "" {
			*dst = v
		}
	}
	str("DATABASE_URL", &c.DatabaseURL)
	str("TEMPORAL_ADDRESS", &c.TemporalAddress)
	str("TEMPORAL_NAMESPACE", &c.TemporalNamespace)
	str("TEMPORAL_TASK_QUEUE", &c.TaskQueue)
	str("HTTP_ADDR", &c.HTTPAddr)
	str("PUBLIC_URL", &c.PublicURL)
	str("S3_ENDPOINT", &c.S3Endpoint)
	str("S3_REGION", &c.S3Region)
	str("S3_BUCKET", &c.S3Bucket)
	str("S3_ACCESS_KEY_ID", &c.S3AccessKey)
	str("S3_SECRET_ACCESS_KEY", &c.S3SecretKey)
	str("MAIL_DRIVER", &c.MailDriver)
	str("MAIL_FROM", &c.MailFrom)
	str("SMTP_URL", &c.SMTPURL)
	str("SES_REGION", &c.SESRegion)
	str("LOG_FORMAT", &c.LogFormat)
	if v := os.Getenv("RECEIPT_SENDER_DOMAINS"); v != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				c.ReceiptSenderDomains = append(c.ReceiptSenderDomains, strings.ToLower(d))
			}
		}
	}
	if v := os.Getenv("RESUME_CLEANUP_GRACE"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			c.ResumeCleanupGrace = d
		}
	}
	return c
}

// Role names the process being started; each needs a different subset of
// settings.
type Role int

const (
	RoleServe Role = iota
	RoleWorker
	RoleMigrate
)

// Validate returns an error naming the first missing or malformed setting
// the given role needs.
func (c Config) Validate(role Role) error {
	need := func(name, v string) error {
		if v == "" {
			return fmt.Errorf("%s is not set", name)
		}
		return nil
	}
	if err := need("DATABASE_URL", c.DatabaseURL); err != nil {
		return err
	}
	if role == RoleMigrate {
		return nil
	}
	for _, s := range []struct{ name, v string }{
		{"TEMPORAL_ADDRESS", c.TemporalAddress},
		{"S3_ENDPOINT", c.S3Endpoint},
		{"S3_BUCKET", c.S3Bucket},
		{"S3_ACCESS_KEY_ID", c.S3AccessKey},
		{"S3_SECRET_ACCESS_KEY", c.S3SecretKey},
	} {
		if err := need(s.name, s.v); err != nil {
			return err
		}
	}
	if role == RoleServe {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("PUBLIC_URL must be an absolute http(s) URL")
		}
	}
	switch c.MailDriver {
	case "log":
	case "smtp":
		if err := need("SMTP_URL", c.SMTPURL); err != nil {
			return err
		}
	case "ses":
	default:
		return fmt.Errorf("MAIL_DRIVER must be log, smtp or ses (got %q)", c.MailDriver)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("LOG_FORMAT must be text or json")
	}
	return nil
}

// SecureCookies reports whether session cookies get the Secure attribute.
func (c Config) SecureCookies() bool { return strings.HasPrefix(c.PublicURL, "https://") }
