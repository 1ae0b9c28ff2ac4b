package devstack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writePidFile writes a postmaster.pid whose first line is pid.
func writePidFile(t *testing.T, dir string, pid int) string {
	t.Helper()
	path := filepath.Join(dir, "postmaster.pid")
	content := strconv.Itoa(pid) + "\n" + dir + "\n1700000000\n5432\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	return path
}

// deadPid returns the pid of a process that has exited and been reaped.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatalf("run true: %v", err)
	}
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Skipf("pid %d was reused at once", pid)
	}
	return pid
}

func assertGone(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: got stat error %v, want the file removed", path, err)
	}
}

func TestClearStalePid(t *testing.T) {
	t.Run("OKDeadPid", func(t *testing.T) {
		dir := t.TempDir()
		path := writePidFile(t, dir, deadPid(t))
		if err := clearStalePid(dir); err != nil {
			t.Fatalf("clearStalePid: %v", err)
		}
		assertGone(t, path)
	})

	t.Run("OKMissingFile", func(t *testing.T) {
		if err := clearStalePid(t.TempDir()); err != nil {
			t.Fatalf("clearStalePid: got %v, want nil", err)
		}
	})

	t.Run("OKMissingDir", func(t *testing.T) {
		if err := clearStalePid(filepath.Join(t.TempDir(), "absent")); err != nil {
			t.Fatalf("clearStalePid: got %v, want nil", err)
		}
	})

	t.Run("OKReusedPidNotPostgres", func(t *testing.T) {
		dir := t.TempDir()
		path := writePidFile(t, dir, os.Getpid())
		if err := clearStalePid(dir); err != nil {
			t.Fatalf("clearStalePid: %v", err)
		}
		assertGone(t, path)
		if !processAlive(os.Getpid()) {
			t.Error("clearStalePid signalled a process that is not postgres")
		}
	})

	t.Run("OKGarbage", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "postmaster.pid")
		if err := os.WriteFile(path, []byte("not a pid\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := clearStalePid(dir); err != nil {
			t.Fatalf("clearStalePid: %v", err)
		}
		assertGone(t, path)
	})
}

func TestProcessAlive(t *testing.T) {
	for _, tc := range []struct {
		name string
		pid  func(*testing.T) int
		want bool
	}{
		{"OKSelf", func(*testing.T) int { return os.Getpid() }, true},
		{"OKDead", deadPid, false},
		{"OKZero", func(*testing.T) int { return 0 }, false},
		{"OKNegative", func(*testing.T) int { return -1 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pid := tc.pid(t)
			if got := processAlive(pid); got != tc.want {
				t.Errorf("processAlive(%d): got %v, want %v", pid, got, tc.want)
			}
		})
	}
}

// fakePgTree points PATH at an empty directory and pgSearchGlob at root,
// restoring both when the test ends.
func fakePgTree(t *testing.T, root string) {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
	old := pgSearchGlob
	pgSearchGlob = filepath.Join(root, "*", "bin") + string(filepath.Separator)
	t.Cleanup(func() { pgSearchGlob = old })
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestPgBinary(t *testing.T) {
	t.Run("ErrNoPostgres", func(t *testing.T) {
		fakePgTree(t, t.TempDir())
		got, err := PgBinary("initdb")
		if !errors.Is(err, ErrNoPostgres) {
			t.Fatalf("pgBinary: got (%q, %v), want ErrNoPostgres", got, err)
		}
	})

	t.Run("OKNewestVersion", func(t *testing.T) {
		root := t.TempDir()
		fakePgTree(t, root)
		for _, v := range []string{"9", "14", "15"} {
			writeExecutable(t, filepath.Join(root, v, "bin", "initdb"))
		}
		got, err := PgBinary("initdb")
		if err != nil {
			t.Fatalf("pgBinary: %v", err)
		}
		if want := filepath.Join(root, "15", "bin", "initdb"); got != want {
			t.Errorf("pgBinary: got %q, want %q", got, want)
		}
	})

	t.Run("ErrOtherBinaryOnly", func(t *testing.T) {
		root := t.TempDir()
		fakePgTree(t, root)
		writeExecutable(t, filepath.Join(root, "15", "bin", "initdb"))
		got, err := PgBinary("postgres")
		if !errors.Is(err, ErrNoPostgres) {
			t.Fatalf("pgBinary: got (%q, %v), want ErrNoPostgres", got, err)
		}
	})

	t.Run("OKPathFirst", func(t *testing.T) {
		root := t.TempDir()
		writeExecutable(t, filepath.Join(root, "15", "bin", "initdb"))
		pathDir := t.TempDir()
		writeExecutable(t, filepath.Join(pathDir, "initdb"))
		old := pgSearchGlob
		pgSearchGlob = filepath.Join(root, "*", "bin") + string(filepath.Separator)
		t.Cleanup(func() { pgSearchGlob = old })
		t.Setenv("PATH", pathDir)
		got, err := PgBinary("initdb")
		if err != nil {
			t.Fatalf("pgBinary: %v", err)
		}
		if want := filepath.Join(pathDir, "initdb"); got != want {
			t.Errorf("pgBinary: got %q, want %q", got, want)
		}
	})
}

func TestPorts(t *testing.T) {
	t.Run("OKFreePort", func(t *testing.T) {
		port, err := FreePort()
		if err != nil {
			t.Fatalf("FreePort: %v", err)
		}
		if port <= 0 || port > 65535 {
			t.Fatalf("FreePort: got %d, want a TCP port", port)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Fatalf("listen on FreePort's %d: %v", port, err)
		}
		l.Close()
	})

	// The port is held in TIME_WAIT, so the kernel does not hand it to
	// the next bind(:0) or outgoing connection while a server starts on it.
	t.Run("OKFreePortHeld", func(t *testing.T) {
		port, err := FreePort()
		if err != nil {
			t.Fatalf("FreePort: %v", err)
		}
		data, err := os.ReadFile("/proc/net/tcp")
		if err != nil {
			t.Skipf("no /proc/net/tcp: %v", err)
		}
		local := fmt.Sprintf("0100007F:%04X", port)
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) > 3 && f[1] == local && f[3] == "06" { // 06: TIME_WAIT
				return
			}
		}
		t.Fatalf("no socket on 127.0.0.1:%d in TIME_WAIT after FreePort", port)
	})

	t.Run("OKCheckPortFree", func(t *testing.T) {
		port, err := FreePort()
		if err != nil {
			t.Fatalf("FreePort: %v", err)
		}
		if err := checkPortFree("Test", port); err != nil {
			t.Errorf("checkPortFree(%d): got %v, want nil", port, err)
		}
	})

	t.Run("ErrPortInUse", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		port := l.Addr().(*net.TCPAddr).Port
		err = checkPortFree("PostgreSQL", port)
		if err == nil {
			t.Fatalf("checkPortFree(%d): got nil, want an error", port)
		}
		for _, want := range []string{"PostgreSQL", "port " + strconv.Itoa(port), "in use"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
	})

	t.Run("OKPortOrFree", func(t *testing.T) {
		if got, err := portOrFree(5432); err != nil || got != 5432 {
			t.Errorf("portOrFree(5432): got (%d, %v), want (5432, nil)", got, err)
		}
		if got, err := portOrFree(0); err != nil || got == 0 {
			t.Errorf("portOrFree(0): got (%d, %v), want a free port", got, err)
		}
	})
}

// waitForLog polls path until it contains want.
func waitForLog(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if data, _ := os.ReadFile(path); strings.Contains(string(data), want) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	data, _ := os.ReadFile(path)
	t.Fatalf("log %s never contained %q; got %q", path, want, data)
}

// signalOf returns the signal that ended p, or 0 when it was not a signal.
func signalOf(p *process) syscall.Signal {
	var exitErr *exec.ExitError
	if !errors.As(p.err, &exitErr) {
		return 0
	}
	ws, ok := exitErr.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0
	}
	return ws.Signal()
}

func TestProcessStop(t *testing.T) {
	t.Run("OKStopSignal", func(t *testing.T) {
		logPath := filepath.Join(t.TempDir(), "logs", "sleep.log")
		p, err := startProcess("sleep", exec.Command("sleep", "30"), logPath, syscall.SIGTERM)
		if err != nil {
			t.Fatalf("startProcess: %v", err)
		}
		t.Cleanup(func() { p.stop(time.Second) })
		if p.exited() {
			t.Fatal("exited() true right after start")
		}
		if _, err := os.Stat(logPath); err != nil {
			t.Errorf("log file: %v", err)
		}
		start := time.Now()
		p.stop(5 * time.Second)
		if elapsed := time.Since(start); elapsed >= 5*time.Second {
			t.Errorf("stop took %v, want the stop signal to end it before the timeout", elapsed)
		}
		if !p.exited() {
			t.Fatal("exited() false after stop")
		}
		if got := signalOf(p); got != syscall.SIGTERM {
			t.Errorf("ended by signal %v (err %v), want %v", got, p.err, syscall.SIGTERM)
		}
		if msg := p.exitError().Error(); !strings.Contains(msg, "sleep exited") || !strings.Contains(msg, logPath) {
			t.Errorf("exitError: got %q, want the name and log path", msg)
		}
	})

	t.Run("OKKilledAfterTimeout", func(t *testing.T) {
		logPath := filepath.Join(t.TempDir(), "stubborn.log")
		cmd := exec.Command("sh", "-c", `trap "" TERM; echo ready; sleep 30`)
		p, err := startProcess("stubborn", cmd, logPath, syscall.SIGTERM)
		if err != nil {
			t.Fatalf("startProcess: %v", err)
		}
		t.Cleanup(func() { p.stop(time.Second) })
		waitForLog(t, logPath, "ready") // the trap is in place
		const timeout = 500 * time.Millisecond
		start := time.Now()
		p.stop(timeout)
		elapsed := time.Since(start)
		if !p.exited() {
			t.Fatal("exited() false after stop")
		}
		if elapsed < timeout {
			t.Errorf("stop returned after %v, want it to wait %v before killing", elapsed, timeout)
		}
		if elapsed > 5*time.Second {
			t.Errorf("stop took %v, want about %v", elapsed, timeout)
		}
		if got := signalOf(p); got != syscall.SIGKILL {
			t.Errorf("ended by signal %v (err %v), want %v", got, p.err, syscall.SIGKILL)
		}
	})

	t.Run("OKStopExitedOrNil", func(t *testing.T) {
		var nilProc *process
		nilProc.stop(time.Second) // must not panic
		p, err := startProcess("true", exec.Command("true"), filepath.Join(t.TempDir(), "true.log"), syscall.SIGTERM)
		if err != nil {
			t.Fatalf("startProcess: %v", err)
		}
		<-p.done
		p.stop(time.Second)
		if p.err != nil {
			t.Errorf("true: got err %v, want nil", p.err)
		}
	})

	t.Run("ErrStartMissingBinary", func(t *testing.T) {
		p, err := startProcess("nope", exec.Command(filepath.Join(t.TempDir(), "no-such-binary")), filepath.Join(t.TempDir(), "nope.log"), syscall.SIGTERM)
		if err == nil {
			p.stop(time.Second)
			t.Fatal("startProcess: got nil error, want one")
		}
		if !strings.Contains(err.Error(), "start nope") {
			t.Errorf("error %q does not name the process", err)
		}
	})
}

func TestWaitReady(t *testing.T) {
	start := func(t *testing.T, args ...string) *process {
		t.Helper()
		p, err := startProcess(args[0], exec.Command(args[0], args[1:]...), filepath.Join(t.TempDir(), "p.log"), syscall.SIGTERM)
		if err != nil {
			t.Fatalf("startProcess: %v", err)
		}
		t.Cleanup(func() { p.stop(time.Second) })
		return p
	}

	t.Run("OK", func(t *testing.T) {
		p := start(t, "sleep", "30")
		calls := 0
		err := waitReady(context.Background(), p, 5*time.Second, func(context.Context) error {
			calls++
			if calls < 3 {
				return errors.New("not yet")
			}
			return nil
		})
		if err != nil {
			t.Fatalf("waitReady: %v", err)
		}
		if calls != 3 {
			t.Errorf("check called %d times, want 3", calls)
		}
	})

	t.Run("ErrExited", func(t *testing.T) {
		p := start(t, "true")
		<-p.done
		err := waitReady(context.Background(), p, 5*time.Second, func(context.Context) error { return errors.New("down") })
		if err == nil || !strings.Contains(err.Error(), "true exited") {
			t.Fatalf("waitReady: got %v, want the exit error", err)
		}
	})

	t.Run("ErrTimeout", func(t *testing.T) {
		p := start(t, "sleep", "30")
		err := waitReady(context.Background(), p, 300*time.Millisecond, func(context.Context) error { return errors.New("refused") })
		if err == nil {
			t.Fatal("waitReady: got nil, want a timeout")
		}
		if !strings.Contains(err.Error(), "not ready") || !strings.Contains(err.Error(), "refused") {
			t.Errorf("error %q does not report the timeout and the last check error", err)
		}
	})
}

// flakyTemporal writes a stand-in for the temporal CLI that exits at once,
// as a server that lost a port does, on its first failures runs, and runs
// the real CLI after. It counts its runs in the returned file.
func flakyTemporal(t *testing.T, failures int) (bin, count string) {
	t.Helper()
	real, err := filepath.Abs(filepath.Join("..", "..", "bin", "temporal"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(real); err != nil {
		t.Fatalf("the temporal CLI (make tools builds it): %v", err)
	}
	dir := t.TempDir()
	bin, count = filepath.Join(dir, "temporal"), filepath.Join(dir, "runs")
	script := fmt.Sprintf(`#!/bin/sh
n=$(cat %[1]q 2>/dev/null || echo 0)
n=$((n+1))
echo $n > %[1]q
if [ $n -le %[2]d ]; then echo "listen tcp: bind: address already in use" >&2; exit 1; fi
exec %[3]q "$@"
`, count, failures, real)
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return bin, count
}

func runs(t *testing.T, count string) string {
	t.Helper()
	data, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

func TestStartTemporalRetries(t *testing.T) {
	t.Run("OKFreshPortsAfterAnEarlyExit", func(t *testing.T) {
		bin, count := flakyTemporal(t, 2)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		tmp, err := StartTemporal(ctx, TemporalOptions{Bin: bin, LogPath: filepath.Join(t.TempDir(), "temporal.log")})
		if err != nil {
			t.Fatalf("StartTemporal: %v", err)
		}
		defer tmp.Stop()
		if got := runs(t, count); got != "3" {
			t.Errorf("runs: got %s, want 3 (two early exits, then the server)", got)
		}
		if err := CheckTemporal(ctx, tmp.Address); err != nil {
			t.Errorf("the started server at %s: %v", tmp.Address, err)
		}
	})

	t.Run("ErrGivenPortNotRetried", func(t *testing.T) {
		bin, count := flakyTemporal(t, 1)
		port, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		tmp, err := StartTemporal(ctx, TemporalOptions{Bin: bin, Port: port, LogPath: filepath.Join(t.TempDir(), "temporal.log")})
		if err == nil {
			tmp.Stop()
			t.Fatal("StartTemporal on a given port: got a server, want the early exit reported")
		}
		var exited *exitedError
		if !errors.As(err, &exited) || !strings.Contains(err.Error(), "temporal exited") {
			t.Errorf("error: got %v, want the early exit", err)
		}
		if got := runs(t, count); got != "1" {
			t.Errorf("runs: got %s, want 1 (a port the caller chose is not swapped)", got)
		}
	})
}
