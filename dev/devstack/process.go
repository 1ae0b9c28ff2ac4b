// Package devstack starts and supervises the local services hackdesk needs
// (PostgreSQL, the Temporal dev server, versitygw) for `hackdesk dev` and the
// test harness. Every child runs in its own process group, is told to stop
// if this process dies, and is stopped in order by Close.
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
	"syscall"
	"time"
)

// process is one supervised child.
type process struct {
	name    string
	cmd     *exec.Cmd
	stopSig syscall.Signal
	done    chan struct{}
	err     error
	logPath string
}

// startProcess starts cmd with its output appended to logPath. stopSig is
// what asks it to shut down cleanly; the kernel sends the same signal if
// this process dies first. The log directory is created 0700 and the log
// 0600 (an older, wider log is tightened): logs can hold emails and
// connection details.
func startProcess(name string, cmd *exec.Cmd, logPath string, stopSig syscall.Signal) (*process, error) {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	if err := logFile.Chmod(0o600); err != nil {
		logFile.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = stopSig
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, stopSig: stopSig, done: make(chan struct{}), logPath: logPath}
	go func() {
		p.err = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitedError reports a process that ended while it was awaited.
type exitedError struct {
	name, logPath string
	err           error
}

func (e *exitedError) Error() string {
	return fmt.Sprintf("%s exited (%v); see %s", e.name, e.err, e.logPath)
}

// exitError describes how the process ended, pointing at its log.
func (p *process) exitError() error {
	return &exitedError{name: p.name, logPath: p.logPath, err: p.err}
}

// stop asks the process group to stop, then kills it after timeout.
func (p *process) stop(timeout time.Duration) {
	if p == nil || p.exited() {
		return
	}
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, p.stopSig)
	select {
	case <-p.done:
	case <-time.After(timeout):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
}

// waitReady polls check until it succeeds, the process exits or ctx ends.
func waitReady(ctx context.Context, p *process, timeout time.Duration, check func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		if p.exited() {
			return p.exitError()
		}
		cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
		last = check(cctx)
		ccancel()
		if last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not ready after %s: %w (see %s)", p.name, timeout, last, p.logPath)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// FreePort returns a loopback TCP port that was free a moment ago and that
// the kernel will not hand out again for about a minute: it connects to the
// port and closes the accepted side first, which leaves that side in
// TIME_WAIT. A later bind(:0) or outgoing connection skips a port in
// TIME_WAIT, while a server that sets SO_REUSEADDR (Go's, PostgreSQL,
// Temporal, versitygw) may still bind it. Without this, test binaries that
// start their services side by side can be handed each other's ports.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	client, err := net.DialTCP("tcp", nil, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
	if err != nil {
		return 0, err
	}
	defer client.Close()
	server, err := l.Accept()
	if err != nil {
		return 0, err
	}
	server.Close() // the accepting side closes first: it holds TIME_WAIT
	return port, nil
}

// portOrFree returns port, or a free one when port is 0.
func portOrFree(port int) (int, error) {
	if port != 0 {
		return port, nil
	}
	return FreePort()
}

// checkPortFree fails with a clear message when something already listens
// on the port.
func checkPortFree(name string, port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("%s port %d is in use (another hackdesk dev running?): %w", name, port, err)
	}
	return l.Close()
}

// processAlive reports whether pid names a live process.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
