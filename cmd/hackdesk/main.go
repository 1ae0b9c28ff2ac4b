// Command hackdesk is the hackathon and membership backend: the API, the
// Temporal worker, migrations, account bootstrap and the local dev stack.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"hackdesk/internal/platform/version"
)

const usage = `usage: hackdesk <command> [flags]

commands:
  dev                  run the whole local stack (PostgreSQL, Temporal, S3, worker, API)
  serve                run the API (production)
  worker               run the Temporal worker (production)
  migrate up|status    apply or list database migrations
  users create --email E --name N [--role member|admin|superadmin] [--password P]
                       create a confirmed account (password read from stdin if omitted)
  users grant --email E [--role R] [--exec President|VP|none --subteam S]
                       change an account's role or exec role
  seed --applications N --reviewers M --reviews K [--seed S] [--password P] [--prefix X]
                       demo/benchmark data: N submitted applications, M admin reviewers, K reviews
  receipts sample --email E [--amount 20.00] [--term T] [--post]
                       a campus-shop receipt signed by the dev shop; --post sends it to the local webhook
  version              print the build id (the Worker Deployment version workers register)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "hackdesk:", err)
		os.Exit(1)
	}
}

type usageError struct{}

func (usageError) Error() string { return "usage" }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{}
	}
	switch args[0] {
	case "dev":
		return runDev(ctx, args[1:], stdout, stderr)
	case "serve":
		return runServe(ctx, stderr)
	case "worker":
		return runWorker(ctx, stderr)
	case "migrate":
		return runMigrate(ctx, args[1:], stdout, stderr)
	case "users":
		return runUsers(ctx, args[1:], stdin, stdout, stderr)
	case "seed":
		return runSeed(ctx, args[1:], stdout, stderr)
	case "receipts":
		return runReceipts(ctx, args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, version.BuildID())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageError{}
}

// newLogger builds the process logger: text or JSON on stderr.
func newLogger(format string, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	l := slog.New(h)
	slog.SetDefault(l)
	return l
}
