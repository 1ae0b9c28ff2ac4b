package devstack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"hackdesk/internal/platform/config"
)

// Options say which services to start and where. A service whose setting
// is already present in Base (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT)
// is used as it is and not started.
type Options struct {
	Base    config.Config
	DataDir string // .data: postgres/, temporal.db, s3/, logs/
	BinDir  string // where temporal and versitygw are
	// Ports; 0 picks free ones.
	PostgresPort, TemporalPort, TemporalUIPort, S3Port int
	// Fast turns off durability (throw-away test data).
	Fast bool
	// ExternalTemporal, when true, keeps Base.TemporalAddress even though it
	// has a default value.
	ExternalTemporal bool
	// TemporalInMemory keeps the dev server's state in memory instead of
	// .data/temporal.db (throw-away stacks: tests and benchmarks).
	TemporalInMemory bool
}

// Stack is the running services.
type Stack struct {
	Config   config.Config // Base with the started services filled in
	UIURL    string        // Temporal Web UI, when started here
	postgres *Postgres
	temporal *Temporal
	s3       *S3
}

// Start brings the services up in order and returns the configuration that
// reaches them. On error, whatever was started is stopped again.
func Start(ctx context.Context, o Options) (_ *Stack, err error) {
	dataDir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return nil, err
	}
	if err := prepareDataDir(dataDir, o.Base.DatabaseURL == ""); err != nil {
		return nil, err
	}
	s := &Stack{Config: o.Base}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	logs := filepath.Join(dataDir, "logs")

	if s.Config.DatabaseURL == "" {
		s.postgres, err = StartPostgres(ctx, PostgresOptions{
			Dir: filepath.Join(dataDir, "postgres"), Port: o.PostgresPort, Database: "hackdesk",
			Fast: o.Fast, LogPath: filepath.Join(logs, "postgres.log"),
		})
		if err != nil {
			return nil, err
		}
		s.Config.DatabaseURL = s.postgres.URL
	}
	if !o.ExternalTemporal {
		bin, err := tool(o.BinDir, "temporal")
		if err != nil {
			return nil, err
		}
		dbFile := filepath.Join(dataDir, "temporal.db")
		if o.TemporalInMemory {
			dbFile = ""
		}
		codec, err := s.codecEndpoint()
		if err != nil {
			return nil, err
		}
		s.temporal, err = StartTemporal(ctx, TemporalOptions{
			Bin: bin, DBFile: dbFile, Port: o.TemporalPort,
			UIPort: o.TemporalUIPort, LogPath: filepath.Join(logs, "temporal.log"),
			UICodecEndpoint: codec,
		})
		if err != nil {
			return nil, err
		}
		s.Config.TemporalAddress = s.temporal.Address
		s.UIURL = s.temporal.UIURL
		if s.Config.TemporalUIURL == "" {
			s.Config.TemporalUIURL = s.UIURL
		}
	}
	if s.Config.S3Endpoint == "" {
		bin, err := tool(o.BinDir, "versitygw")
		if err != nil {
			return nil, err
		}
		s.s3, err = StartS3(ctx, S3Options{
			Bin: bin, Dir: filepath.Join(dataDir, "s3"), Port: o.S3Port, Bucket: s.Config.S3Bucket,
			Region: s.Config.S3Region, LogPath: filepath.Join(logs, "versitygw.log"),
		})
		if err != nil {
			return nil, err
		}
		s.Config.S3Endpoint = s.s3.Endpoint
		s.Config.S3AccessKey, s.Config.S3SecretKey = s.s3.AccessKey, s.s3.SecretKey
	}
	return s, nil
}

// codecEndpoint is the API's codec server for the dev Web UI, so a
// signed-in superadmin reads decoded payloads there. The UI learns it at
// start, so an API address with port 0 gets its free port now.
func (s *Stack) codecEndpoint() (string, error) {
	host, port, err := net.SplitHostPort(s.Config.HTTPAddr)
	if err != nil {
		return "", fmt.Errorf("HTTP_ADDR %q: %w", s.Config.HTTPAddr, err)
	}
	if port == "0" {
		p, err := FreePort()
		if err != nil {
			return "", err
		}
		port = strconv.Itoa(p)
		s.Config.HTTPAddr = net.JoinHostPort(host, port)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/api/temporal/codec", nil
}

// prepareDataDir makes the data directory private (0700; an existing one
// is tightened too): it holds passwords, keys, the database and logs with
// emails. When PostgreSQL will run as another account (we are root), that
// account owns the directory so it can reach its cluster inside; root
// reaches everything anyway.
func prepareDataDir(dir string, withPostgres bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	if !withPostgres {
		return nil
	}
	cred, err := serverCredential()
	if err != nil || cred == nil {
		return err
	}
	return os.Chown(dir, int(cred.Uid), int(cred.Gid))
}

// Close stops what Start started, in reverse order.
func (s *Stack) Close() {
	if s.s3 != nil {
		s.s3.Stop()
	}
	if s.temporal != nil {
		s.temporal.Stop()
	}
	if s.postgres != nil {
		s.postgres.Stop()
	}
}

// PostgresAdminURL is the maintenance database of the cluster started here
// ("" when DATABASE_URL was given).
func (s *Stack) PostgresAdminURL() string {
	if s.postgres == nil {
		return ""
	}
	return s.postgres.AdminURL
}

func tool(binDir, name string) (string, error) {
	p := filepath.Join(binDir, name)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s not found: run `make tools` to build it into %s", p, binDir)
		}
		return "", err
	}
	return p, nil
}
