package devstack

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestDataDirPrivate: the data directory is created 0700, and an existing
// wider one is tightened. When PostgreSQL runs as another account (tests
// run as root), that account owns it, so the cluster inside stays
// reachable.
func TestDataDirPrivate(t *testing.T) {
	base := t.TempDir()
	fresh := filepath.Join(base, "fresh", ".data")
	if err := prepareDataDir(fresh, false); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, fresh); m != 0o700 {
		t.Errorf("new data dir mode %o, want 700", m)
	}
	old := filepath.Join(base, "old")
	if err := os.Mkdir(old, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := prepareDataDir(old, true); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, old); m != 0o700 {
		t.Errorf("existing data dir mode %o, want tightened to 700", m)
	}
	cred, err := serverCredential()
	if err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		st, _ := os.Stat(old)
		if uid := st.Sys().(*syscall.Stat_t).Uid; uid != cred.Uid {
			t.Errorf("data dir owned by uid %d, want the PostgreSQL account %d", uid, cred.Uid)
		}
	}
}

// TestLogFilesPrivate: service logs are 0600 in a 0700 directory, and an
// existing wider log is tightened.
func TestLogFilesPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	logPath := filepath.Join(dir, "true.log")
	p, err := startProcess("true", exec.Command("true"), logPath, syscall.SIGTERM)
	if err != nil {
		t.Fatal(err)
	}
	<-p.done
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("log dir mode %o, want 700", m)
	}
	if m := mode(t, logPath); m != 0o600 {
		t.Errorf("log file mode %o, want 600", m)
	}
	if err := os.Chmod(logPath, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err = startProcess("true", exec.Command("true"), logPath, syscall.SIGTERM)
	if err != nil {
		t.Fatal(err)
	}
	<-p.done
	if m := mode(t, logPath); m != 0o600 {
		t.Errorf("reopened log mode %o, want tightened to 600", m)
	}
}
