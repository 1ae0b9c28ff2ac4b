// Command bench is `make bench`: it starts its own stack (throw-away
// PostgreSQL, Temporal dev server, versitygw), seeds it with `hackdesk seed`,
// and measures the hot paths side by side with what PostgreSQL alone can do
// (pgbench), printing a markdown table and writing it to
// docs/performance.md. The last line of output holds the headline figures.
//
// With -large (`make bench-large`) it seeds three hackathon editions of
// 100,000 applications each instead and measures the review queue, review
// submission and the leaderboard (at 1,000,000 reviews in the current
// edition) the same way, in a section of its own.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"hackdesk/app"
	"hackdesk/dev/devstack"
	"hackdesk/internal/platform/config"
)

// Phase lengths and sizes (issue "Benchmarks").
const (
	clients          = 32
	runFor           = 20 * time.Second
	seedApplications = 100_000
	seedReviewers    = 500
	seedReviews      = 300_000
	leaderboardCalls = 50
	workflowCount    = 1000
	workflowInFlight = 32
)

func main() {
	large := flag.Bool("large", false, "three hackathon editions of 100,000 applications: the queue, review submit and leaderboard (make bench-large)")
	flag.StringVar(&only, "only", "", "run one phase after the seed (admin; checkin; queue; submit; receipts: with the no-op workflows; load), print its figures and write nothing: for trying a phase")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, *large)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// only is -only: the one phase to run, or "" for all of them.
var only string

func run(ctx context.Context, large bool) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	outDir := filepath.Join(root, "bin", "bench")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	dataDir, err := os.MkdirTemp("", "hackdesk-bench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dataDir)
	if err := os.Chmod(dataDir, 0o755); err != nil { // PostgreSQL runs as another account under root
		return err
	}

	say("starting PostgreSQL, Temporal and versitygw...")
	base := config.Defaults()
	base.HTTPAddr = "127.0.0.1:0"
	// Durable PostgreSQL (fsync and synchronous commit on); the Temporal dev
	// server keeps its state in memory, as its SQLite file is not what a
	// production Temporal cluster persists to.
	stack, err := devstack.Start(ctx, devstack.Options{Base: base, DataDir: dataDir, BinDir: filepath.Join(root, "bin"), TemporalInMemory: true})
	if err != nil {
		return err
	}
	defer stack.Close()
	cfg := stack.Config
	if cfg.TemporalPayloadKeys == "" {
		// Payloads are encrypted as in production, with a key of this run.
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		cfg.TemporalPayloadKeys = "bench:" + base64.StdEncoding.EncodeToString(key)
	}
	shop, err := benchShop(outDir)
	if err != nil {
		return err
	}
	cfg = withShop(cfg, shop)
	if cfg.SigningKey == "" {
		// Tickets and QR codes are signed with a key of this run; the door's
		// phase signs its tickets with it too.
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		cfg.SigningKey = base64.StdEncoding.EncodeToString(key)
	}
	cfg.DatabaseURL += "&pool_max_conns=" + fmt.Sprint(poolSize)
	logFile, err := os.Create(filepath.Join(outDir, "api.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewJSONHandler(logFile, nil))
	a, err := app.Open(ctx, cfg, logger, io.Discard)
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.Migrate(ctx); err != nil {
		return err
	}
	if err := a.StartWorker(); err != nil {
		return err
	}
	if err := a.Listen(); err != nil {
		return err
	}
	b := &bench{a: a, cfg: cfg, root: root, outDir: outDir, pgAdminURL: stack.PostgresAdminURL()}
	if large {
		return b.allLarge(ctx)
	}
	return b.all(ctx)
}

func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}
