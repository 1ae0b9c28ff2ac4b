package devstack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/storage"
)

// S3Options configure versitygw with its posix backend.
type S3Options struct {
	Bin     string // path of versitygw
	Dir     string // backend directory; each bucket is a folder in it
	Port    int    // 0 picks a free port
	Bucket  string // created when missing
	Region  string
	LogPath string
}

// S3 is a running versitygw.
type S3 struct {
	Endpoint  string
	AccessKey string
	SecretKey string
	proc      *process
}

// StartS3 starts versitygw on loopback with root credentials kept beside
// the backend (<dir>.credentials, mode 0600) and creates the bucket.
func StartS3(ctx context.Context, o S3Options) (*S3, error) {
	var err error
	if o.Port, err = portOrFree(o.Port); err != nil {
		return nil, err
	}
	if err := checkPortFree("S3", o.Port); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, err
	}
	access, secret, err := s3Credentials(strings.TrimRight(o.Dir, "/") + ".credentials")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.Bin, "--port", "127.0.0.1:"+strconv.Itoa(o.Port), "--region", o.Region, "--quiet",
		"posix", o.Dir)
	// Credentials go through the environment, not argv, so ps does not show them.
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+access, "ROOT_SECRET_ACCESS_KEY="+secret)
	proc, err := startProcess("versitygw", cmd, o.LogPath, syscall.SIGTERM)
	if err != nil {
		return nil, err
	}
	s := &S3{Endpoint: "http://127.0.0.1:" + strconv.Itoa(o.Port), AccessKey: access, SecretKey: secret, proc: proc}
	blob := storage.New(config.Config{S3Endpoint: s.Endpoint, S3Region: o.Region, S3Bucket: o.Bucket,
		S3AccessKey: access, S3SecretKey: secret})
	err = waitReady(ctx, proc, 30*time.Second, blob.EnsureBucket)
	if err != nil {
		proc.stop(10 * time.Second)
		return nil, err
	}
	return s, nil
}

// Stop shuts versitygw down.
func (s *S3) Stop() { s.proc.stop(10 * time.Second) }

func s3Credentials(path string) (access, secret string, err error) {
	data, err := os.ReadFile(path)
	if err == nil {
		parts := strings.Fields(string(data))
		if len(parts) == 2 {
			return parts[0], parts[1], nil
		}
		return "", "", fmt.Errorf("%s is malformed; delete it and the S3 data to start over", path)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", "", err
	}
	a, s := make([]byte, 10), make([]byte, 20)
	if _, err := rand.Read(a); err != nil {
		return "", "", err
	}
	if _, err := rand.Read(s); err != nil {
		return "", "", err
	}
	access, secret = "HD"+strings.ToUpper(hex.EncodeToString(a)), hex.EncodeToString(s)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", "", err
	}
	return access, secret, os.WriteFile(path, []byte(access+" "+secret+"\n"), 0o600)
}
