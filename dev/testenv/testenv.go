// Package testenv is the test harness: one throw-away PostgreSQL cluster,
// Temporal dev server and versitygw per test binary, a freshly migrated
// database and a private task queue per test, and a running App on port 0.
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hackdesk/internal/platform/payloadcodec"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/devstack"
	"hackdesk/dev/fakegithub"
	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/config"
	"hackdesk/worker"
)

// TimeZone is the zone tests run in: an odd, non-UTC offset catches code
// that mixes local and UTC times.
const TimeZone = "America/St_Johns"

const templateDB = "hackdesk_template"

var (
	// PayloadKeys is the TEMPORAL_PAYLOAD_KEYS of every test's Config: a
	// fixed test key (32 zero bytes), the one the replay tests decode
	// recorded histories with, so a history recorded from a test run
	// (RECORD_HISTORIES=1) stays encrypted and replays.
	PayloadKeys = "test:" + base64.StdEncoding.EncodeToString(make([]byte, 32))
	// signingKey is the SIGNING_KEY of every test's Config.
	signingKey = base64.StdEncoding.EncodeToString([]byte(randomHex(16)))
	shared     *devstack.Stack
	adminURL   string
	// gitHub is the stand-in code host every test's Config points at.
	gitHub *fakegithub.Server
	shop   app.DevShop
)

// Shop is the stand-in campus shop every test's Config accepts receipts
// from: its DKIM key (domain receipttest.DevShopDomain, record in
// Config.DKIMTXTFile) and the webhook key (Config.WebhookSigningKey).
func Shop() app.DevShop { return shop }

// FakeGitHub is the stand-in GitHub of the test binary (see Config): tests
// use it to take a name, fail a setup step or answer with rate limits.
func FakeGitHub() *fakegithub.Server { return gitHub }

// Main starts the shared services, runs the tests and stops the services,
// failing the binary when the services cannot start. If the test binary
// dies, the services die with it (they get a parent-death signal).
func Main(m *testing.M) {
	os.Exit(run(m))
}

// MainThen is Main with a clean-up that runs after the tests, before the
// services stop (the e2e tests close their shared browser with it).
func MainThen(m *testing.M, after func()) {
	os.Exit(run(testingM{m, after}))
}

// testingM runs a clean-up after the tests.
type testingM struct {
	m     *testing.M
	after func()
}

func (t testingM) Run() int {
	defer t.after()
	return t.m.Run()
}

func run(m interface{ Run() int }) int {
	if err := SetTimeZone(); err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "hackdesk-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil { // the PostgreSQL account must reach its cluster
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := config.Defaults()
	base.DatabaseURL = os.Getenv("TEST_DATABASE_URL")
	shared, err = devstack.Start(ctx, devstack.Options{Base: base, DataDir: dir, BinDir: BinDir(), Fast: true, TemporalInMemory: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv: start services:", err)
		printLogTails(filepath.Join(dir, "logs"), 20)
		return 1
	}
	defer shared.Close()
	adminURL = shared.PostgresAdminURL()
	if adminURL == "" {
		adminURL = shared.Config.DatabaseURL
	}
	gitHub = fakegithub.New(fakegithub.Options{QueuedFor: 300 * time.Millisecond, RunFor: 1200 * time.Millisecond})
	if err := gitHub.Start("127.0.0.1:0"); err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	defer gitHub.Close()
	if shop, err = app.LoadDevShop(filepath.Join(dir, "shop")); err != nil {
		fmt.Fprintln(os.Stderr, "testenv: dev shop:", err)
		return 1
	}
	if err := prepareTemplate(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "testenv: migrate template database:", err)
		return 1
	}
	return m.Run()
}

// printLogTails prints the last n lines of every log in dir to stderr: the
// directory goes when the binary ends, and a service that would not start
// says why there. The services hold test data only.
func printLogTails(dir string, n int) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(data) == 0 {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		lines = lines[max(0, len(lines)-n):]
		fmt.Fprintf(os.Stderr, "testenv: the last %d lines of %s:\n%s\n", len(lines), e.Name(), strings.Join(lines, "\n"))
	}
}

// SetTimeZone makes TimeZone the process's local zone.
func SetTimeZone() error {
	loc, err := time.LoadLocation(TimeZone)
	if err != nil {
		return err
	}
	time.Local = loc
	return os.Setenv("TZ", TimeZone)
}

// RepoRoot is the directory holding go.mod.
func RepoRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// BinDir is where the Makefile installs temporal and versitygw.
func BinDir() string { return filepath.Join(RepoRoot(), "bin") }

// prepareTemplate creates a migrated database that every test's database
// is copied from.
func prepareTemplate(ctx context.Context) error {
	if err := dropDatabase(ctx, templateDB); err != nil {
		return err
	}
	if err := devstack.CreateDatabase(ctx, adminURL, templateDB, ""); err != nil {
		return err
	}
	store, err := db.Open(ctx, withDatabase(adminURL, templateDB))
	if err != nil {
		return err
	}
	defer store.Close()
	_, err = store.MigrateUp(ctx)
	return err
}

var templateMu sync.Mutex // CREATE DATABASE ... TEMPLATE needs the template idle

// DatabaseURL creates a fresh, migrated database for t and drops it when t
// ends. Sessions on it use TimeZone.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	if shared == nil {
		t.Fatal("testenv: call testenv.Main from TestMain")
	}
	name := "t_" + randomHex(6)
	ctx := context.Background()
	templateMu.Lock()
	err := devstack.CreateDatabase(ctx, adminURL, name, templateDB)
	templateMu.Unlock()
	if err != nil {
		t.Fatalf("testenv: create database: %v", err)
	}
	t.Cleanup(func() {
		if err := dropDatabase(context.Background(), name); err != nil {
			t.Logf("testenv: drop database %s: %v", name, err)
		}
	})
	// Every copy of the template holds the template's edition: give this
	// database's its own id, so the workflow IDs made from it (the
	// edition's ApplicationWindow and EventDay) are not another test's on
	// the shared Temporal server.
	if err := freshEditionID(ctx, withDatabase(adminURL, name)); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	u, _ := url.Parse(withDatabase(adminURL, name))
	q := u.Query()
	q.Set("timezone", TimeZone)
	u.RawQuery = q.Encode()
	return u.String()
}

// freshEditionID gives the edition a new database starts with a new id.
func freshEditionID(ctx context.Context, rawURL string) error {
	conn, err := pgx.Connect(ctx, rawURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE hackathons SET id = gen_random_uuid()`); err != nil {
		return fmt.Errorf("a fresh edition id: %w", err)
	}
	return nil
}

// Store opens a store on a fresh database.
func Store(t testing.TB) *db.Store {
	t.Helper()
	s, err := db.Open(context.Background(), DatabaseURL(t))
	if err != nil {
		t.Fatalf("testenv: open store: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Config is a configuration for one test: a fresh database, the shared
// Temporal server and bucket, a private task queue, the log mail driver,
// a two-second grace before replaced resumes are deleted, a short pause
// before an erasure's tombstone, and the
// stand-in GitHub (FakeGitHub) as code host.
func Config(t testing.TB) config.Config {
	t.Helper()
	cfg := shared.Config
	cfg.DatabaseURL = DatabaseURL(t)
	cfg.TaskQueue = "hackdesk-test-" + randomHex(6)
	cfg.HTTPAddr = "127.0.0.1:0"
	cfg.PublicURL = "http://hackdesk.test"
	cfg.MailDriver = "log"
	cfg.ResumeCleanupGrace = 2 * time.Second
	cfg.ErasureSettle = 200 * time.Millisecond
	cfg.GitHubToken, cfg.GitHubOrg, cfg.GitHubAPIURL = gitHub.Token(), gitHub.Org(), gitHub.URL()
	cfg.FoundryPollInterval = 200 * time.Millisecond
	cfg.SigningKey = signingKey
	cfg.TemporalPayloadKeys = PayloadKeys
	cfg.WebhookSigningKey = shop.WebhookKey
	cfg.ReceiptSenderDomains = []string{receipttest.DevShopDomain}
	cfg.DKIMTXTFile = shop.TXTFile
	return cfg
}

// Logger writes to t's log, so output shows only for failing tests.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// App starts an App (worker, outbox dispatcher and API on a free port) for
// cfg and stops it when t ends. The log mail driver prints to Mail.
func App(t testing.TB, cfg config.Config) *app.App {
	t.Helper()
	return AppWith(t, cfg)
}

// AppWith is App with Open's options (a tracer provider).
func AppWith(t testing.TB, cfg config.Config, opts ...app.Option) *app.App {
	t.Helper()
	ctx := context.Background()
	a, err := app.Open(ctx, cfg, Logger(t), Mail, opts...)
	if err != nil {
		t.Fatalf("testenv: open app: %v", err)
	}
	t.Cleanup(a.Close)
	if err := a.StartWorker(); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	a.StartDispatcher()
	if err := a.Listen(); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return a
}

func withDatabase(rawURL, name string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	u.Path = "/" + name
	return u.String()
}

func dropDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(errors.New("testenv: no randomness"))
	}
	return hex.EncodeToString(b)
}

// Temporal dials the shared Temporal server for t (closed when t ends),
// with the payload codec of cfg, as the app's own client has.
func Temporal(t testing.TB, cfg config.Config) client.Client {
	t.Helper()
	codec, err := payloadcodec.FromEnv(cfg.TemporalPayloadKeys)
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	dc := payloadcodec.DataConverter(codec)
	c, err := client.Dial(client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace,
		Logger:           sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
		DataConverter:    dc,
		FailureConverter: payloadcodec.FailureConverter(dc)})
	if err != nil {
		t.Fatalf("testenv: dial Temporal: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

// WorkerOptions are the options of a hackdesk worker (worker.New) for
// cfg's task queue and build.
func WorkerOptions(cfg config.Config) worker.Options {
	return worker.Options{TaskQueue: cfg.TaskQueue, BuildID: cfg.BuildID}
}

// MakeCurrent makes the version of a started worker of o (worker.New) the
// current version of its deployment, as a first deploy does, so runs on
// its task queue go to it.
func MakeCurrent(t testing.TB, c client.Client, o worker.Options) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := worker.TakeCurrent(ctx, c, o.Version(), o.Queues()[:1]); err != nil {
		t.Fatalf("testenv: %v", err)
	}
}
