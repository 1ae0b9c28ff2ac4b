package devstack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoPostgres is returned when the PostgreSQL server binaries are missing.
var ErrNoPostgres = errors.New("PostgreSQL server binaries (initdb, postgres) not found: install the postgresql package (apt-get install postgresql) or set DATABASE_URL")

// PostgresOptions configure a private cluster.
type PostgresOptions struct {
	Dir      string // cluster directory; created and initialised when empty
	Port     int    // 0 picks a free port
	Database string // created when missing
	Fast     bool   // turn off fsync (throw-away test clusters)
	LogPath  string
}

// Postgres is a running private cluster.
type Postgres struct {
	URL      string // the application database
	AdminURL string // the postgres maintenance database
	Port     int
	proc     *process
}

// pgSearchGlob is where pgBinary looks for versioned server binaries when
// they are not on PATH; tests point it elsewhere.
var pgSearchGlob = "/usr/lib/postgresql/*/bin/"

// PgBinary finds a PostgreSQL server binary on PATH or under
// /usr/lib/postgresql/<version>/bin, newest version first.
func PgBinary(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	matches, _ := filepath.Glob(pgSearchGlob + name)
	sort.Slice(matches, func(i, j int) bool { return pgMajor(matches[i]) > pgMajor(matches[j]) })
	if len(matches) == 0 {
		return "", ErrNoPostgres
	}
	return matches[0], nil
}

func pgMajor(path string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return v
}

// serverCredential returns the user PostgreSQL runs as: the postgres (or
// nobody) account when we are root, since the server refuses to run as root.
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("running as root and no postgres or nobody account exists to run PostgreSQL")
}

func chownTree(dir string, cred *syscall.Credential) error {
	if cred == nil {
		return nil
	}
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(cred.Uid), int(cred.Gid))
	})
}

// StartPostgres initialises the cluster on first use and starts it. The
// superuser is "hackdesk" with a random password kept beside the cluster
// (<dir>.password, mode 0600); connections are TCP on 127.0.0.1 only.
func StartPostgres(ctx context.Context, o PostgresOptions) (*Postgres, error) {
	initdb, err := PgBinary("initdb")
	if err != nil {
		return nil, err
	}
	postgres, err := PgBinary("postgres")
	if err != nil {
		return nil, err
	}
	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	if o.Port, err = portOrFree(o.Port); err != nil {
		return nil, err
	}
	if err := checkPortFree("PostgreSQL", o.Port); err != nil {
		return nil, err
	}
	pwPath := strings.TrimRight(o.Dir, "/") + ".password"
	if _, err := os.Stat(filepath.Join(o.Dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := initCluster(ctx, initdb, o.Dir, pwPath, cred); err != nil {
			return nil, err
		}
	}
	password, err := os.ReadFile(pwPath)
	if err != nil {
		return nil, fmt.Errorf("read cluster password: %w", err)
	}
	if err := clearStalePid(o.Dir); err != nil {
		return nil, err
	}

	args := []string{"-D", o.Dir, "-p", strconv.Itoa(o.Port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
		"-c", "max_connections=200", "-c", "shared_buffers=256MB"}
	if o.Fast {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(postgres, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	proc, err := startProcess("postgres", cmd, o.LogPath, syscall.SIGINT)
	if err != nil {
		return nil, err
	}
	pw := strings.TrimSpace(string(password))
	pg := &Postgres{
		Port:     o.Port,
		AdminURL: pgURL(pw, o.Port, "postgres"),
		URL:      pgURL(pw, o.Port, o.Database),
		proc:     proc,
	}
	err = waitReady(ctx, proc, 60*time.Second, func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, pg.AdminURL)
		if err != nil {
			return err
		}
		return conn.Close(ctx)
	})
	if err == nil && o.Database != "" {
		err = CreateDatabase(ctx, pg.AdminURL, o.Database, "")
	}
	if err != nil {
		proc.stop(10 * time.Second)
		return nil, err
	}
	return pg, nil
}

func pgURL(password string, port int, database string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword("hackdesk", password),
		Host: "127.0.0.1:" + strconv.Itoa(port), Path: "/" + database, RawQuery: "sslmode=disable"}
	return u.String()
}

// Stop shuts the cluster down (fast shutdown).
func (p *Postgres) Stop() { p.proc.stop(30 * time.Second) }

func initCluster(ctx context.Context, initdb, dir, pwPath string, cred *syscall.Credential) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := chownTree(dir, cred); err != nil {
		return err
	}
	secret := make([]byte, 24)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	password := hex.EncodeToString(secret)
	if err := os.WriteFile(pwPath, []byte(password+"\n"), 0o600); err != nil {
		return err
	}
	// initdb reads the password from a file the server account can read.
	pwFile, err := os.CreateTemp("", "hackdesk-pw-*")
	if err != nil {
		return err
	}
	defer os.Remove(pwFile.Name())
	if _, err := pwFile.WriteString(password + "\n"); err != nil {
		pwFile.Close()
		return err
	}
	// The close ends the write: initdb must find the whole password.
	if err := pwFile.Close(); err != nil {
		return err
	}
	if cred != nil {
		if err := os.Chown(pwFile.Name(), int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, initdb, "-D", dir, "-U", "hackdesk", "--pwfile", pwFile.Name(),
		"--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-instructions")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb %s: %w: %s", dir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// clearStalePid deals with the postmaster.pid of a run that was killed: a
// leftover server on this directory is stopped, a dead one's file removed.
func clearStalePid(dir string) error {
	pidFile := filepath.Join(dir, "postmaster.pid")
	data, err := os.ReadFile(pidFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if processAlive(pid) && strings.HasPrefix(strings.TrimSpace(string(comm)), "postgres") {
		_ = syscall.Kill(pid, syscall.SIGINT)
		for i := 0; i < 300 && processAlive(pid); i++ {
			time.Sleep(100 * time.Millisecond)
		}
		if processAlive(pid) {
			return fmt.Errorf("a PostgreSQL server (pid %d) still runs on %s", pid, dir)
		}
	}
	if err := os.Remove(pidFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// CreateDatabase creates name (from template, if given) unless it exists.
func CreateDatabase(ctx context.Context, adminURL, name, template string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	stmt := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		stmt += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	_, err = conn.Exec(ctx, stmt)
	return err
}

// DevDatabaseURL is the URL of the application database of a cluster that
// `hackdesk dev` keeps under dataDir, for shell commands run beside it.
func DevDatabaseURL(dataDir string, port int, database string) (string, error) {
	pw, err := os.ReadFile(filepath.Join(dataDir, "postgres.password"))
	if err != nil {
		return "", fmt.Errorf("DATABASE_URL is not set and no dev cluster was found in %s (run `make run` first): %w", dataDir, err)
	}
	return pgURL(strings.TrimSpace(string(pw)), port, database), nil
}
