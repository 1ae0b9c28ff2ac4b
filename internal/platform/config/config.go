// Package config reads hackdesk's settings from the environment into one
// Config value. A missing required setting is reported by name.
package config

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"hackdesk/internal/platform/payloadcodec"
	"hackdesk/internal/platform/signing"
	"hackdesk/internal/platform/version"
)

// Config is every setting the binary reads. Zero values mean "not set".
type Config struct {
	DatabaseURL       string
	TemporalAddress   string
	TemporalNamespace string
	TaskQueue         string
	// BuildID is the binary's build id (version.BuildID), under which its
	// workers register as a version of the Worker Deployment named after
	// TaskQueue. Not read from the environment: it is what the binary is.
	// Tests set their own.
	BuildID string
	// TLS to Temporal (a cluster behind TLS, Temporal Cloud): a client
	// certificate and key (mTLS), or an API key; either turns TLS on.
	TemporalTLSCert string
	TemporalTLSKey  string
	TemporalAPIKey  string
	HTTPAddr        string
	PublicURL       string

	S3Endpoint  string
	S3Region    string
	S3Bucket    string
	S3AccessKey string
	S3SecretKey string

	MailDriver string
	MailFrom   string
	SMTPURL    string
	SESRegion  string

	// SigningKey is SIGNING_KEY as given (base64 of 32+ random bytes); the
	// keys of signed links (membership QR, unsubscribe) are derived from
	// it (package signing). Use SigningKeyBytes.
	SigningKey string

	// TemporalPayloadKeys is TEMPORAL_PAYLOAD_KEYS, "id:base64key,...":
	// every Temporal payload is encrypted with the first key and decrypted
	// with whichever key its metadata names (package payloadcodec).
	TemporalPayloadKeys string

	// WebhookSigningKey is the inbound-email provider's key: posts to the
	// membership webhook are signed with it. Empty: the webhook answers 503.
	WebhookSigningKey string
	// ReceiptSenderDomains are the shops whose DKIM-signed receipts the
	// webhook accepts.
	ReceiptSenderDomains []string
	// DKIMTXTFile, when set, is read for DKIM keys instead of DNS (dev and
	// tests): one record a line, the DNS name, whitespace, the TXT value.
	DKIMTXTFile string
	// MembershipDuesCents is one term's dues.
	MembershipDuesCents int64

	// WebhookConcurrency is how many membership webhook posts are handled
	// at once by one API process; the rest wait their turn (up to 5 s,
	// then 503, which the provider retries).
	WebhookConcurrency int

	// BroadcastRate is the most broadcast emails sent per second, enforced
	// by the Temporal server on the broadcast task queue.
	BroadcastRate float64

	// TemporalUIURL is the base of the Temporal Web UI's address (no
	// trailing slash); pages link workflow runs there (RunURL). Empty: no
	// links. `hackdesk dev` sets its own UI's address.
	TemporalUIURL string
	// OTLPEndpoint is OTEL_EXPORTER_OTLP_ENDPOINT: where traces go over
	// OTLP/HTTP (package tracing). Empty: no tracing at all.
	OTLPEndpoint string
	// ChatInviteURL is the club chat's invite link, sent to new execs in
	// their welcome email; empty leaves it out.
	ChatInviteURL string
	// ShopURL is the campus shop's membership page, which /events offers
	// as a way to pay dues; empty: no shop line.
	ShopURL string
	// CodeOfConductURL is the code of conduct the application's League
	// Requirements step links (MLH's by default).
	CodeOfConductURL string

	// The code host for Foundry. Without GitHubToken there is none: the
	// Foundry routes answer 503 (hackdesk dev starts a stand-in instead).
	GitHubToken  string
	GitHubOrg    string
	GitHubAPIURL string // REST API root; empty means api.github.com
	// FoundrySetupWorkflow is the file name of the setup Actions workflow
	// every template carries.
	FoundrySetupWorkflow string
	// FoundryPollInterval is how often a launch reads its setup run.
	// Tests shorten it.
	FoundryPollInterval time.Duration

	LogFormat string // json (the default) or text (hackdesk dev's default)

	// TrustedProxies lists the reverse proxies (comma-separated CIDRs or
	// bare addresses) whose X-Forwarded-For the API believes. Empty: none,
	// and the peer address is the client's.
	TrustedProxies string

	// WebDir, when set, is a directory holding a build of the web front
	// end (web/dist) that pages and assets are read from on every request,
	// instead of the build embedded in the binary: the front end's dev loop
	// (vite build --watch, then reload). Empty: the embedded build.
	WebDir string

	// ResumeCleanupGrace is how long an old resume is kept after it is
	// replaced, so links already handed out keep working. Tests shorten it.
	ResumeCleanupGrace time.Duration

	// ErasureGrace is ERASURE_GRACE: how long an account asked to be
	// deleted stays locked, and can be kept, before its erasure begins
	// (default a week; tests shorten it).
	ErasureGrace time.Duration
	// ErasureSettle is how long an erasure waits before its last step, so
	// that a request that read the person's address before the erasure
	// began has ended (its email is then purged by the last step). Not
	// read from the environment; tests shorten it.
	ErasureSettle time.Duration
	// RetentionDays is RETENTION_DAYS: how long an edition's applications
	// are kept after it ends (or closes), and onboarding submissions after
	// their term ends, before the hackdesk-retention schedule purges them.
	RetentionDays int

	// ReadTimeout bounds reading a request (headers at most 10 s of it,
	// then the body), and UploadTimeout reading an upload's body (a resume
	// or a headshot) from when its handler starts. A slower client is cut
	// off: 408 while its body was being read. Zero means the default (30 s
	// and 2 minutes); tests shorten them.
	ReadTimeout   time.Duration
	UploadTimeout time.Duration

	// MetricsAddr is where GET /metrics (Prometheus) is served, on a
	// listener of its own; empty: no metrics are kept. `hackdesk dev`
	// defaults it to 127.0.0.1:9090.
	MetricsAddr string
}

// DefaultCodeOfConductURL is MLH's code of conduct, which the League
// Requirements step asks applicants to accept.
const DefaultCodeOfConductURL = "https://static.mlh.io/docs/mlh-code-of-conduct.pdf"

// Defaults returns a Config holding the default of every setting that has
// one; the others stay empty.
func Defaults() Config {
	return Config{
		TemporalAddress:    "127.0.0.1:7233",
		TemporalNamespace:  "default",
		TaskQueue:          "hackdesk",
		BuildID:            version.BuildID(),
		HTTPAddr:           "127.0.0.1:8080",
		PublicURL:          "http://127.0.0.1:8080",
		S3Region:           "us-east-1",
		S3Bucket:           "hackdesk",
		MailDriver:         "log",
		MailFrom:           "hackdesk <no-reply@hackdesk.local>",
		LogFormat:          "json",
		ResumeCleanupGrace: time.Hour,
		ErasureGrace:       7 * 24 * time.Hour,
		ErasureSettle:      2 * time.Minute,
		RetentionDays:      365,

		FoundrySetupWorkflow: "foundry-setup.yml",
		FoundryPollInterval:  5 * time.Second,

		MembershipDuesCents: 2000,
		CodeOfConductURL:    DefaultCodeOfConductURL,
		BroadcastRate:       10,
		WebhookConcurrency:  6,
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
	str("TEMPORAL_TLS_CERT", &c.TemporalTLSCert)
	str("TEMPORAL_TLS_KEY", &c.TemporalTLSKey)
	str("TEMPORAL_API_KEY", &c.TemporalAPIKey)
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
	str("TRUSTED_PROXIES", &c.TrustedProxies)
	str("WEB_DIR", &c.WebDir)
	str("GITHUB_TOKEN", &c.GitHubToken)
	str("GITHUB_ORG", &c.GitHubOrg)
	str("GITHUB_API_URL", &c.GitHubAPIURL)
	str("FOUNDRY_SETUP_WORKFLOW", &c.FoundrySetupWorkflow)
	str("CHAT_INVITE_URL", &c.ChatInviteURL)
	str("SHOP_URL", &c.ShopURL)
	str("CODE_OF_CONDUCT_URL", &c.CodeOfConductURL)
	str("TEMPORAL_UI_URL", &c.TemporalUIURL)
	str("OTEL_EXPORTER_OTLP_ENDPOINT", &c.OTLPEndpoint)
	str("SIGNING_KEY", &c.SigningKey)
	str("TEMPORAL_PAYLOAD_KEYS", &c.TemporalPayloadKeys)
	str("WEBHOOK_SIGNING_KEY", &c.WebhookSigningKey)
	str("DKIM_TXT_FILE", &c.DKIMTXTFile)
	str("METRICS_ADDR", &c.MetricsAddr)
	if v := os.Getenv("MEMBERSHIP_DUES_CENTS"); v != "" {
		c.MembershipDuesCents = -1 // reported by Validate
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			c.MembershipDuesCents = n
		}
	}
	if v := os.Getenv("WEBHOOK_CONCURRENCY"); v != "" {
		c.WebhookConcurrency = -1 // reported by Validate
		if n, err := strconv.Atoi(v); err == nil {
			c.WebhookConcurrency = n
		}
	}
	if v := os.Getenv("BROADCAST_RATE"); v != "" {
		c.BroadcastRate = -1 // reported by Validate
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			c.BroadcastRate = f
		}
	}
	if v := os.Getenv("RECEIPT_SENDER_DOMAINS"); v != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				c.ReceiptSenderDomains = append(c.ReceiptSenderDomains, strings.ToLower(d))
			}
		}
	}
	if v := os.Getenv("ERASURE_GRACE"); v != "" {
		c.ErasureGrace = -1 // reported by Validate
		if d, err := time.ParseDuration(v); err == nil {
			c.ErasureGrace = d
		}
	}
	if v := os.Getenv("RETENTION_DAYS"); v != "" {
		c.RetentionDays = -1 // reported by Validate
		if n, err := strconv.Atoi(v); err == nil {
			c.RetentionDays = n
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
	if _, err := c.SigningKeyBytes(); err != nil {
		return err
	}
	if _, err := payloadcodec.ParseKeys(c.TemporalPayloadKeys); err != nil {
		return err
	}
	if (c.TemporalTLSCert == "") != (c.TemporalTLSKey == "") {
		return fmt.Errorf("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together")
	}
	if c.MembershipDuesCents <= 0 || c.MembershipDuesCents > 100_000_00 {
		return fmt.Errorf("MEMBERSHIP_DUES_CENTS must be a whole number of cents between 1 and 10000000")
	}
	if c.WebhookConcurrency < 1 || c.WebhookConcurrency > 1000 {
		return fmt.Errorf("WEBHOOK_CONCURRENCY must be a whole number between 1 and 1000")
	}
	if c.ErasureGrace <= 0 {
		return fmt.Errorf("ERASURE_GRACE must be a positive duration (e.g. 168h)")
	}
	if c.RetentionDays < 1 || c.RetentionDays > 36500 {
		return fmt.Errorf("RETENTION_DAYS must be a whole number of days between 1 and 36500")
	}
	if !(c.BroadcastRate > 0 && c.BroadcastRate <= 10_000) {
		return fmt.Errorf("BROADCAST_RATE must be a number of emails per second above 0 and at most 10000")
	}
	if role == RoleServe {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("PUBLIC_URL must be an absolute http(s) URL")
		}
		if c.WebDir != "" {
			if st, err := os.Stat(c.WebDir); err != nil || !st.IsDir() {
				return fmt.Errorf("WEB_DIR must be a directory holding a build of the front end (got %q)", c.WebDir)
			}
		}
	}
	switch c.MailDriver {
	case "log":
		// The log driver prints every email, links with one-time tokens
		// included, and the worker then keeps those links readable in the
		// audit trail: only for a stack on this machine.
		if !LoopbackURL(c.PublicURL) {
			return fmt.Errorf("MAIL_DRIVER=log is for a local stack only: it needs a loopback PUBLIC_URL (127.0.0.1, ::1 or localhost; got %q); set MAIL_DRIVER to smtp or ses", c.PublicURL)
		}
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
	if _, err := ParseTrustedProxies(c.TrustedProxies); err != nil {
		return err
	}
	if err := CheckMetricsAddr(c.MetricsAddr); err != nil {
		return err
	}
	if c.GitHubToken != "" {
		if err := need("GITHUB_ORG", c.GitHubOrg); err != nil {
			return err
		}
	}
	for _, s := range []struct{ name, v string }{
		{"GITHUB_API_URL", c.GitHubAPIURL},
		{"SHOP_URL", c.ShopURL},
		{"CODE_OF_CONDUCT_URL", c.CodeOfConductURL},
	} {
		if s.v == "" {
			continue
		}
		if u, err := url.Parse(s.v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s must be an absolute http(s) URL", s.name)
		}
	}
	return nil
}

// SigningKeyBytes decodes SIGNING_KEY; an error names the variable.
func (c Config) SigningKeyBytes() ([]byte, error) {
	if c.SigningKey == "" {
		return nil, fmt.Errorf("SIGNING_KEY is not set (base64 of at least 32 random bytes, e.g. openssl rand -base64 32)")
	}
	b, err := signing.DecodeKey(c.SigningKey)
	if err != nil {
		return nil, fmt.Errorf("SIGNING_KEY is %v", err)
	}
	return b, nil
}

// CodeHostConfigured reports whether a code host is set (GITHUB_TOKEN).
func (c Config) CodeHostConfigured() bool { return c.GitHubToken != "" }

// SecureCookies reports whether session cookies get the Secure attribute.
func (c Config) SecureCookies() bool { return strings.HasPrefix(c.PublicURL, "https://") }

// MailCatcher reports whether this is the local stack, where the email
// audit trail doubles as the developer's mail catcher: the log mail driver
// and a loopback PUBLIC_URL. Only then are bodies that carry one-time links
// kept after sending and shown to superadmins.
func (c Config) MailCatcher() bool {
	return (c.MailDriver == "log" || c.MailDriver == "") && LoopbackURL(c.PublicURL)
}

// LoopbackURL reports whether rawURL is an absolute http(s) URL whose host
// is a loopback address (127.0.0.0/8, ::1) or localhost.
func LoopbackURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Zone() == "" && a.Unmap().IsLoopback()
}

// ParseTrustedProxies parses TRUSTED_PROXIES: comma-separated CIDRs
// ("10.0.0.0/8") or bare addresses ("10.1.2.3", one host). Blank items are
// skipped; an item that is neither is an error naming the variable.
func ParseTrustedProxies(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if strings.Contains(item, "/") {
			p, err := netip.ParsePrefix(item)
			if err != nil {
				return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not a CIDR or an IP address", item)
			}
			if p.Addr().Is4In6() && p.Bits() >= 96 {
				p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not a CIDR or an IP address", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// RunURL is the Temporal Web UI's page of a workflow run, or "" without
// TEMPORAL_UI_URL. Without a run id it is the UI's list of the runs under
// that workflow id.
func (c Config) RunURL(workflowID, runID string) string {
	if c.TemporalUIURL == "" || workflowID == "" {
		return ""
	}
	base := strings.TrimRight(c.TemporalUIURL, "/") + "/namespaces/" + url.PathEscape(c.TemporalNamespace) + "/workflows"
	if runID == "" {
		return base + "?query=" + url.QueryEscape("WorkflowId=\""+workflowID+"\"")
	}
	return base + "/" + url.PathEscape(workflowID) + "/" + url.PathEscape(runID) + "/history"
}

// CheckMetricsAddr refuses a METRICS_ADDR that is set but not host:port
// (":9090" and "127.0.0.1:0" are fine).
func CheckMetricsAddr(addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		var n int
		if n, err = strconv.Atoi(port); err == nil && (n < 0 || n > 65535) {
			err = fmt.Errorf("port out of range")
		}
	}
	if err != nil {
		return fmt.Errorf("METRICS_ADDR must be host:port, e.g. 127.0.0.1:9090 (got %q)", addr)
	}
	return nil
}
