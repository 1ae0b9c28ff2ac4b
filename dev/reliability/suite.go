package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"hackdesk/internal/platform/payloadcodec"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/devstack"
	"hackdesk/dev/fakegithub"
	"hackdesk/internal/platform/config"
)

// Proxy names. The API processes reach PostgreSQL through pgAPI and
// Temporal through temporalAPI; the workers reach PostgreSQL through
// pgWorker (and Temporal directly), so a fault can hit one side alone.
const (
	pgAPI       = "pg-api"
	pgWorker    = "pg-worker"
	temporalAPI = "temporal-api"
)

// templateDB is migrated once; every scenario's database is a copy.
const templateDB = "rel_template"

// Suite is the stack every scenario runs on: PostgreSQL, the Temporal dev
// server on its SQLite file and versitygw (all started by package
// devstack), toxiproxy in front of PostgreSQL and Temporal, and the
// stand-in GitHub.
type Suite struct {
	root, dataDir, binDir string

	pg           *devstack.Postgres
	temporal     *devstack.Temporal
	temporalOpts devstack.TemporalOptions
	s3           *devstack.S3
	s3Opts       devstack.S3Options

	toxiproxy *exec.Cmd
	toxi      *toxiproxy.Client
	listen    map[string]string // proxy name → listen address

	github *fakegithub.Server
	// Temporal is a client of the suite's own, dialled straight to the
	// server (not through a proxy).
	Temporal client.Client

	envs int // scenario databases made so far
	// signingKey is SIGNING_KEY for every process.
	signingKey string
	// payloadKeys is TEMPORAL_PAYLOAD_KEYS for every process.
	payloadKeys string
	// shop is the stand-in campus shop whose signed receipts the
	// membership webhook accepts.
	shop app.DevShop
}

// StartSuite brings the stack up under a fresh data directory.
func StartSuite(ctx context.Context, root string) (_ *Suite, err error) {
	dir, err := os.MkdirTemp("", "hackdesk-reliability-*")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil { // PostgreSQL runs as another account under root
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	s := &Suite{root: root, dataDir: dir, binDir: filepath.Join(root, "bin"), listen: map[string]string{},
		signingKey: base64.StdEncoding.EncodeToString(key)}
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	s.payloadKeys = "rel:" + base64.StdEncoding.EncodeToString(key)
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	for _, tool := range []string{"temporal", "versitygw", "toxiproxy-server", "hackdesk"} {
		if _, err := os.Stat(filepath.Join(s.binDir, tool)); err != nil {
			return nil, fmt.Errorf("%s missing in %s: run `make tools build` (make reliability does)", tool, s.binDir)
		}
	}
	s.pg, err = devstack.StartPostgres(ctx, devstack.PostgresOptions{Dir: filepath.Join(dir, "postgres"),
		Database: "hackdesk", LogPath: s.logPath("postgres")})
	if err != nil {
		return nil, err
	}
	// Temporal and S3 are restarted on their ports, so those come from
	// below the ephemeral range: there no outgoing connection can be
	// holding one when it is bound again.
	tPort, err := restartablePort()
	if err != nil {
		return nil, err
	}
	uiPort, err := restartablePort()
	if err != nil {
		return nil, err
	}
	s.temporalOpts = devstack.TemporalOptions{Bin: filepath.Join(s.binDir, "temporal"),
		DBFile: filepath.Join(dir, "temporal.db"), Port: tPort, UIPort: uiPort, LogPath: s.logPath("temporal")}
	if s.temporal, err = devstack.StartTemporal(ctx, s.temporalOpts); err != nil {
		return nil, err
	}
	s3Port, err := restartablePort()
	if err != nil {
		return nil, err
	}
	base := config.Defaults()
	s.s3Opts = devstack.S3Options{Bin: filepath.Join(s.binDir, "versitygw"), Dir: filepath.Join(dir, "s3"),
		Port: s3Port, Bucket: base.S3Bucket, Region: base.S3Region, LogPath: s.logPath("versitygw")}
	if s.s3, err = devstack.StartS3(ctx, s.s3Opts); err != nil {
		return nil, err
	}
	if s.shop, err = app.LoadDevShop(filepath.Join(dir, "shop")); err != nil {
		return nil, err
	}
	if err := s.startToxiproxy(ctx); err != nil {
		return nil, err
	}
	s.github = fakegithub.New(fakegithub.Options{QueuedFor: 300 * time.Millisecond, RunFor: 1200 * time.Millisecond})
	if err := s.github.Start("127.0.0.1:0"); err != nil {
		return nil, err
	}
	codec, err := payloadcodec.FromEnv(s.payloadKeys)
	if err != nil {
		return nil, err
	}
	dc := payloadcodec.DataConverter(codec)
	s.Temporal, err = client.DialContext(ctx, client.Options{HostPort: s.temporal.Address,
		Logger:        sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
		DataConverter: dc, FailureConverter: payloadcodec.FailureConverter(dc)})
	if err != nil {
		return nil, err
	}
	if err := devstack.CreateDatabase(ctx, s.pg.AdminURL, templateDB, ""); err != nil {
		return nil, err
	}
	store, err := db.Open(ctx, withDatabase(s.pg.URL, templateDB))
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if _, err := store.MigrateUp(ctx); err != nil {
		return nil, fmt.Errorf("migrate the template database: %w", err)
	}
	return s, nil
}

func (s *Suite) logPath(name string) string { return filepath.Join(s.dataDir, "logs", name+".log") }

// hackdesk is the binary of this tree (make build).
func (s *Suite) hackdesk() string { return filepath.Join(s.binDir, "hackdesk") }

// startToxiproxy runs bin/toxiproxy-server on a free port and creates the
// proxies.
func (s *Suite) startToxiproxy(ctx context.Context) error {
	port, err := devstack.FreePort()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.logPath("toxiproxy")), 0o700); err != nil {
		return err
	}
	logFile, err := os.Create(s.logPath("toxiproxy"))
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(s.binDir, "toxiproxy-server"), "-host", "127.0.0.1", "-port", strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return err
	}
	go func() { _ = cmd.Wait(); logFile.Close() }()
	s.toxiproxy = cmd
	s.toxi = toxiproxy.NewClient("127.0.0.1:" + strconv.Itoa(port))
	if err := poll(ctx, 10*time.Second, func() (bool, error) {
		_, err := s.toxi.Proxies()
		return err == nil, nil
	}); err != nil {
		return fmt.Errorf("toxiproxy did not answer: %w", err)
	}
	tAddr := s.temporal.Address
	for name, upstream := range map[string]string{
		pgAPI: "127.0.0.1:" + strconv.Itoa(s.pg.Port), pgWorker: "127.0.0.1:" + strconv.Itoa(s.pg.Port), temporalAPI: tAddr,
	} {
		p, err := devstack.FreePort()
		if err != nil {
			return err
		}
		listen := "127.0.0.1:" + strconv.Itoa(p)
		if _, err := s.toxi.CreateProxy(name, listen, upstream); err != nil {
			return fmt.Errorf("create proxy %s: %w", name, err)
		}
		s.listen[name] = listen
	}
	return nil
}

// Proxy returns the named proxy, fresh from the server.
func (s *Suite) Proxy(name string) (*toxiproxy.Proxy, error) { return s.toxi.Proxy(name) }

// Toxic adds a toxic to a proxy on both streams (name-up, name-down).
func (s *Suite) Toxic(proxy, name, typ string, attrs toxiproxy.Attributes) error {
	p, err := s.toxi.Proxy(proxy)
	if err != nil {
		return err
	}
	for _, stream := range []string{"upstream", "downstream"} {
		if _, err := p.AddToxic(name+"-"+stream[:2], typ, stream, 1, attrs); err != nil {
			return fmt.Errorf("add %s toxic to %s: %w", typ, proxy, err)
		}
	}
	return nil
}

// Untoxic removes a toxic added by Toxic.
func (s *Suite) Untoxic(proxy, name string) error {
	p, err := s.toxi.Proxy(proxy)
	if err != nil {
		return err
	}
	return errors.Join(p.RemoveToxic(name+"-up"), p.RemoveToxic(name+"-do"))
}

// SetEnabled enables or disables proxies (a disabled proxy drops its
// connections and refuses new ones).
func (s *Suite) SetEnabled(enabled bool, names ...string) error {
	for _, n := range names {
		p, err := s.toxi.Proxy(n)
		if err != nil {
			return err
		}
		if enabled {
			err = p.Enable()
		} else {
			err = p.Disable()
		}
		if err != nil {
			return fmt.Errorf("proxy %s enabled=%v: %w", n, enabled, err)
		}
	}
	return nil
}

// ResetFaults removes every toxic and enables every proxy.
func (s *Suite) ResetFaults() error { return s.toxi.ResetState() }

// KillTemporal SIGKILLs the dev server (found by its SQLite file in its
// command line, so nothing else is touched) and waits for it to be gone.
func (s *Suite) KillTemporal() error {
	pids := pidsWithArg(s.temporalOpts.DBFile)
	if len(pids) == 0 {
		return errors.New("no Temporal dev server runs on " + s.temporalOpts.DBFile)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			return err
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for syscall.Kill(pid, 0) == nil && !zombie(pid) {
			if time.Now().After(deadline) {
				return fmt.Errorf("the Temporal server (pid %d) survived SIGKILL", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// RestartTemporal starts the dev server again on the same port and
// SQLite file.
func (s *Suite) RestartTemporal(ctx context.Context) error {
	t, err := devstack.StartTemporal(ctx, s.temporalOpts)
	if err != nil {
		return err
	}
	s.temporal = t
	return nil
}

// StopS3 stops versitygw; StartS3 brings it back on the same port and data.
func (s *Suite) StopS3() { s.s3.Stop() }

func (s *Suite) StartS3(ctx context.Context) error {
	s3, err := devstack.StartS3(ctx, s.s3Opts)
	if err != nil {
		return err
	}
	s.s3 = s3
	return nil
}

// Close stops everything, in reverse order, and removes the data unless
// keep is set.
func (s *Suite) Close() {
	if s.Temporal != nil {
		s.Temporal.Close()
	}
	if s.github != nil {
		s.github.Close()
	}
	if s.toxiproxy != nil && s.toxiproxy.Process != nil {
		_ = syscall.Kill(-s.toxiproxy.Process.Pid, syscall.SIGKILL)
	}
	if s.s3 != nil {
		s.s3.Stop()
	}
	if s.temporal != nil {
		s.temporal.Stop()
	}
	if s.pg != nil {
		s.pg.Stop()
	}
}

// RemoveData deletes the data directory.
func (s *Suite) RemoveData() { os.RemoveAll(s.dataDir) }

// pidsWithArg lists the processes one of whose arguments is arg.
func pidsWithArg(arg string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		for _, a := range strings.Split(string(data), "\x00") {
			if a == arg {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// withDatabase swaps the database of a PostgreSQL URL.
func withDatabase(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Path = "/" + name
	return u.String()
}

// withHost swaps the host:port of a PostgreSQL URL (to go through a proxy).
func withHost(raw, hostPort string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Host = hostPort
	return u.String()
}

// poll calls fn every 100 ms until it reports done, fails, or timeout or
// ctx ends.
func poll(ctx context.Context, timeout time.Duration, fn func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		done, err := fn()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not done after %s", timeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// restartablePort is a free loopback port below the kernel's ephemeral
// range (32768 and up by default).
func restartablePort() (int, error) {
	for i := 0; i < 100; i++ {
		port := 20000 + mrand.IntN(12000)
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		l.Close()
		return port, nil
	}
	return 0, errors.New("no free port between 20000 and 32000")
}
