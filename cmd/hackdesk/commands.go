package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/devstack"
	"hackdesk/internal/platform/config"
)

// loadConfig reads the environment and validates it for role.
func loadConfig(role config.Role) (config.Config, error) {
	cfg := config.FromEnv()
	if err := cfg.Validate(role); err != nil {
		return cfg, fmt.Errorf("configuration: %w", err)
	}
	return cfg, nil
}

func runServe(ctx context.Context, stderr io.Writer) error {
	cfg, err := loadConfig(config.RoleServe)
	if err != nil {
		return err
	}
	log := newLogger(cfg.LogFormat, stderr)
	a, err := app.Open(ctx, cfg, log, stderr)
	if err != nil {
		return err
	}
	defer a.Close()
	a.StartDispatcher()
	if err := a.Listen(); err != nil {
		return err
	}
	log.Info("API listening", "url", a.URL())
	logMetrics(log, a)
	return a.Wait(ctx)
}

func runWorker(ctx context.Context, stderr io.Writer) error {
	cfg, err := loadConfig(config.RoleWorker)
	if err != nil {
		return err
	}
	log := newLogger(cfg.LogFormat, stderr)
	a, err := app.Open(ctx, cfg, log, stderr)
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.StartWorker(); err != nil {
		return err
	}
	// In the background: a failed set-up is retried while the worker
	// polls, rather than ending the process.
	a.KeepSchedules()
	log.Info("worker started", "task_queue", cfg.TaskQueue, "temporal", cfg.TemporalAddress)
	logMetrics(log, a)
	<-ctx.Done()
	return nil
}

func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || (args[0] != "up" && args[0] != "status") {
		return usageError{}
	}
	cfg, err := loadConfig(config.RoleMigrate)
	if err != nil {
		return err
	}
	store, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer store.Close()
	if args[0] == "up" {
		n, err := store.MigrateUp(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "applied %d migration(s)\n", n)
		return nil
	}
	st, err := store.MigrateStatus(ctx)
	if err != nil {
		return err
	}
	for _, m := range st {
		state := "pending"
		if m.Applied {
			state = "applied"
		}
		fmt.Fprintf(stdout, "%05d  %-8s %s\n", m.Version, state, m.Source)
	}
	return nil
}

func runDev(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", envOr("HACKDESK_DATA_DIR", ".data"), "directory for the local services' data")
	binDir := fs.String("bin", envOr("HACKDESK_BIN_DIR", defaultBinDir()), "directory holding the temporal and versitygw binaries")
	pgPort := fs.Int("postgres-port", devPostgresPort, "PostgreSQL port")
	tPort := fs.Int("temporal-port", 7233, "Temporal frontend port")
	uiPort := fs.Int("temporal-ui-port", 8233, "Temporal Web UI port")
	s3Port := fs.Int("s3-port", 7070, "S3 (versitygw) port")
	if err := fs.Parse(args); err != nil {
		return usageError{}
	}
	cfg := config.FromEnv()
	_, publicSet := os.LookupEnv("PUBLIC_URL")
	cfg = app.DevConfig(cfg, publicSet)
	_, externalTemporal := os.LookupEnv("TEMPORAL_ADDRESS")
	if _, set := os.LookupEnv("LOG_FORMAT"); !set {
		cfg.LogFormat = "text" // for a person reading a terminal; JSON elsewhere
	}
	if _, set := os.LookupEnv("METRICS_ADDR"); !set {
		cfg.MetricsAddr = devMetricsAddr // METRICS_ADDR= (empty) turns metrics off
	}
	log := newLogger(cfg.LogFormat, stderr)

	fmt.Fprintln(stdout, "hackdesk dev: starting PostgreSQL, Temporal and S3 (first start takes a little longer)...")
	d, err := app.StartDev(ctx, app.DevOptions{
		Options: devstack.Options{
			Base: cfg, DataDir: *dataDir, BinDir: *binDir,
			PostgresPort: *pgPort, TemporalPort: *tPort, TemporalUIPort: *uiPort, S3Port: *s3Port,
			ExternalTemporal: externalTemporal,
		},
		Logger:  log,
		MailOut: stdout,
	})
	if errors.Is(err, devstack.ErrNoPostgres) {
		return errors.New("initdb not found: install the postgresql package (sudo apt-get install postgresql) or set DATABASE_URL")
	}
	if err != nil {
		return err
	}
	defer func() {
		fmt.Fprintln(stdout, "hackdesk dev: stopping...")
		d.Close()
		fmt.Fprintln(stdout, "hackdesk dev: stopped")
	}()
	uiURL := d.Stack.UIURL
	if uiURL == "" {
		uiURL = "(external Temporal at " + d.Config.TemporalAddress + ")"
	}
	fmt.Fprintf(stdout, `
hackdesk dev is up
  Site         %s/   (an account per role: ./bin/hackdesk seed --demo)
  API          %s/api   (reference: %s/api/docs)
  Temporal UI  %s
  S3           %s   (bucket %s)
  Code host    %s
  Metrics      %s
  Data         %s
Press Ctrl-C to stop.

`, d.URL(), d.URL(), d.URL(), uiURL, d.Config.S3Endpoint, d.Config.S3Bucket, d.CodeHostInUse(), metricsInUse(d.MetricsURL()), *dataDir)
	return d.Wait(ctx)
}

// logMetrics says where /metrics is served, when METRICS_ADDR is set.
func logMetrics(log *slog.Logger, a *app.App) {
	if u := a.MetricsURL(); u != "" {
		log.Info("metrics listening", "url", u)
	}
}

// devMetricsAddr is where `hackdesk dev` serves /metrics unless
// METRICS_ADDR says otherwise.
const devMetricsAddr = "127.0.0.1:9090"

// metricsInUse is the banner's metrics line.
func metricsInUse(url string) string {
	if url == "" {
		return "(off: METRICS_ADDR is empty)"
	}
	return url
}

// devPostgresPort is where `hackdesk dev` runs its cluster by default.
const devPostgresPort = 15432

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// defaultBinDir is the directory of the running executable when the tools
// sit beside it (bin/hackdesk), else ./bin.
func defaultBinDir() string {
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		if _, err := os.Stat(filepath.Join(dir, "temporal")); err == nil {
			return dir
		}
	}
	return "bin"
}
