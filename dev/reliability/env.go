package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/devstack"
	"hackdesk/dev/receipttest"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/auth"
)

// Env is one scenario's world: a fresh copy of the migrated database, a
// task queue of its own, and the API and worker processes it starts.
type Env struct {
	s         *Suite
	Name      string
	DB        string
	URL       string    // the database, directly (the suite's checks)
	Store     *db.Store // on URL
	TaskQueue string
	procs     []*Proc
	began     time.Time
	// extraEnv is added to every process's environment (after the
	// defaults, so it overrides them).
	extraEnv []string
}

// Step reports a scenario's progress on stderr, with the time since it
// began.
func (e *Env) Step(format string, args ...any) {
	say("  %s +%s: %s", e.Name, time.Since(e.began).Round(100*time.Millisecond), fmt.Sprintf(format, args...))
}

// NewEnv makes a database for a scenario.
func (s *Suite) NewEnv(ctx context.Context, name string) (*Env, error) {
	s.envs++
	e := &Env{s: s, Name: name, DB: fmt.Sprintf("rel_%02d_%s", s.envs, name), TaskQueue: fmt.Sprintf("rel-%02d-%s", s.envs, name),
		began: time.Now()}
	if err := devstack.CreateDatabase(ctx, s.pg.AdminURL, e.DB, templateDB); err != nil {
		return nil, err
	}
	e.URL = withDatabase(s.pg.URL, e.DB)
	var err error
	if e.Store, err = db.Open(ctx, e.URL); err != nil {
		return nil, err
	}
	return e, nil
}

// Close stops the env's processes (gracefully, then by force) and closes
// its store.
func (e *Env) Close() {
	for _, p := range e.procs {
		p.Stop()
	}
	e.Store.Close()
}

// Proc is one hackdesk process (bin/hackdesk unless started from another
// build).
type Proc struct {
	Role    string // serve or worker
	Name    string // serve-1, worker-2, ...
	Bin     string // the binary
	URL     string // the API's base URL (serve)
	LogPath string
	cmd     *exec.Cmd
	done    chan struct{}
}

// environment is what every hackdesk process of the env gets; dbProxy and
// temporalAddr say how it reaches PostgreSQL and Temporal.
func (e *Env) environment(dbProxy, temporalAddr string) []string {
	s := e.s
	env := append(os.Environ(),
		"DATABASE_URL="+withHost(e.URL, s.listen[dbProxy]),
		"TEMPORAL_ADDRESS="+temporalAddr,
		"TEMPORAL_NAMESPACE=default",
		"TEMPORAL_TASK_QUEUE="+e.TaskQueue,
		"S3_ENDPOINT="+s.s3.Endpoint,
		"S3_BUCKET="+s.s3Opts.Bucket,
		"S3_REGION="+s.s3Opts.Region,
		"S3_ACCESS_KEY_ID="+s.s3.AccessKey,
		"S3_SECRET_ACCESS_KEY="+s.s3.SecretKey,
		"MAIL_DRIVER=log",
		"LOG_FORMAT=text",
		// Clients name themselves with X-Forwarded-For, so each check has
		// its own client address.
		"TRUSTED_PROXIES=127.0.0.1/32",
		"GITHUB_TOKEN="+s.github.Token(),
		"GITHUB_ORG="+s.github.Org(),
		"GITHUB_API_URL="+s.github.URL(),
		"RESUME_CLEANUP_GRACE=3s",
		"SIGNING_KEY="+s.signingKey,
		"TEMPORAL_PAYLOAD_KEYS="+s.payloadKeys,
		"WEBHOOK_SIGNING_KEY="+s.shop.WebhookKey,
		"RECEIPT_SENDER_DOMAINS="+receipttest.DevShopDomain,
		"DKIM_TXT_FILE="+s.shop.TXTFile,
	)
	return append(env, e.extraEnv...)
}

// StartAPI starts `hackdesk serve`, reaching PostgreSQL and Temporal
// through their proxies, and waits for /healthz.
func (e *Env) StartAPI(ctx context.Context) (*Proc, error) { return e.StartAPIBin(ctx, e.s.hackdesk()) }

// StartAPIBin is StartAPI with another build's binary.
func (e *Env) StartAPIBin(ctx context.Context, bin string) (*Proc, error) {
	port, err := devstack.FreePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	env := append(e.environment(pgAPI, e.s.listen[temporalAPI]), "HTTP_ADDR="+addr, "PUBLIC_URL=http://"+addr)
	p, err := e.start("serve", bin, env)
	if err != nil {
		return nil, err
	}
	p.URL = "http://" + addr
	err = p.waitReady(ctx, func() bool {
		resp, err := http.Get(p.URL + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return p, err
}

// StartWorker starts `hackdesk worker`, reaching PostgreSQL through its
// own proxy, and waits until it has started polling.
func (e *Env) StartWorker(ctx context.Context) (*Proc, error) {
	return e.StartWorkerBin(ctx, e.s.hackdesk())
}

// StartWorkerBin is StartWorker with another build's binary.
func (e *Env) StartWorkerBin(ctx context.Context, bin string) (*Proc, error) {
	env := append(e.environment(pgWorker, e.s.temporal.Address), "PUBLIC_URL=http://127.0.0.1:8080")
	p, err := e.start("worker", bin, env)
	if err != nil {
		return nil, err
	}
	err = p.waitReady(ctx, func() bool {
		data, _ := os.ReadFile(p.LogPath)
		return strings.Contains(string(data), "worker started")
	})
	return p, err
}

func (e *Env) start(role, bin string, env []string) (*Proc, error) {
	n := 1
	for _, p := range e.procs {
		if p.Role == role {
			n++
		}
	}
	name := fmt.Sprintf("%s-%d", role, n)
	logPath := e.s.logPath(e.DB + "-" + name)
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, role)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	p := &Proc{Role: role, Name: name, Bin: bin, LogPath: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	e.procs = append(e.procs, p)
	return p, nil
}

func (p *Proc) waitReady(ctx context.Context, ready func() bool) error {
	err := poll(ctx, 30*time.Second, func() (bool, error) {
		select {
		case <-p.done:
			return false, fmt.Errorf("%s exited during start-up: %s", p.Name, p.tail())
		default:
		}
		return ready(), nil
	})
	if err != nil {
		p.Kill()
		return fmt.Errorf("%s not ready: %w", p.Name, err)
	}
	return nil
}

// tail is the end of the process's log, for error messages.
func (p *Proc) tail() string {
	data, _ := os.ReadFile(p.LogPath)
	s := strings.TrimSpace(string(data))
	if len(s) > 600 {
		s = "..." + s[len(s)-600:]
	}
	return s
}

// Kill SIGKILLs the process (no shutdown of any kind) and waits for it.
func (p *Proc) Kill() {
	if p.exited() {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// Stop asks the process to stop (SIGTERM) and kills it after 40 s (a
// worker gives running activities 30 s).
func (p *Proc) Stop() {
	if p.exited() {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(40 * time.Second):
		p.Kill()
	}
}

func (p *Proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Account creates a confirmed account and returns its id; the password is
// "password-" + email.
func (e *Env) Account(ctx context.Context, email, role string) (uuid.UUID, error) {
	p, err := account.Create(ctx, e.Store.Queries, email, strings.Split(email, "@")[0], "password-"+email, role)
	return p.ID, err
}

// Session opens a session for the account directly in the database (no
// login, so no rate limit) and returns its token.
func (e *Env) Session(ctx context.Context, id uuid.UUID) (string, error) {
	tok, hash, err := auth.NewToken()
	if err != nil {
		return "", err
	}
	_, err = e.Store.SessionInsert(ctx, db.SessionInsertParams{TokenHash: hash, ProfileID: id, ExpiresAt: time.Now().Add(2 * time.Hour)})
	return tok, err
}

// SeedApplication writes an application for owner straight to the
// database: submitted with every required field, or a draft.
func (e *Env) SeedApplication(ctx context.Context, owner uuid.UUID, status string) (uuid.UUID, error) {
	id := uuid.New()
	_, err := e.Store.Pool().Exec(ctx, `
		INSERT INTO applications (id, profile_id, status, email, phone, discord, tshirt_size, age, country,
			university, program, year_of_study, experience_level, hackathons_attended,
			resume_key, resume_name, resume_type, q1_answer, q2_answer, coc_agreed, info_share_authorized, submitted_at)
		SELECT $1::uuid, p.id, $3::text, p.email, '+1 613 555 0100', 'handle', 'M', 20, 'Canada',
			'uOttawa', 'CS', '2', 'beginner', 1, p.id::text || '/cv.pdf', 'cv.pdf', 'pdf', 'q1', 'q2', true, true,
			CASE WHEN $3::text = 'submitted' THEN now() END
		FROM profiles p WHERE p.id = $2::uuid`, id, owner, status)
	return id, err
}

// Seed runs `hackdesk seed` on the env's database.
func (e *Env) Seed(ctx context.Context, apps, reviewers int, prefix string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(e.s.binDir, "hackdesk"), "seed", "--force",
		"--applications", strconv.Itoa(apps), "--reviewers", strconv.Itoa(reviewers), "--reviews", "0",
		"--prefix", prefix, "--seed", "7")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+e.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("seed: %w: %s", err, out)
	}
	return nil
}

// Count runs a query returning one integer.
func (e *Env) Count(ctx context.Context, sql string, args ...any) (int, error) {
	var n int
	err := e.Store.Pool().QueryRow(ctx, sql, args...).Scan(&n)
	return n, err
}

var mailPrinted = regexp.MustCompile(`----- email (\S+) -----`)

// MailPrints counts, per idempotency key, the emails the log mail driver
// printed in every worker of the env, killed ones included: each print is
// one delivery.
func (e *Env) MailPrints() (map[string]int, error) {
	out := map[string]int{}
	for _, p := range e.procs {
		if p.Role != "worker" {
			continue
		}
		f, err := os.Open(p.LogPath)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if m := mailPrinted.FindStringSubmatch(sc.Text()); m != nil {
				out[m[1]]++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// EmailReport checks every email of the env: recorded once per key (the
// schema's rule), sent, and delivered exactly once (printed once by the
// workers). kinds, when given, limits the check to those kinds.
type EmailReport struct {
	Rows, Sent, NotSent, PrintedTwice, NeverPrinted int
	Statuses                                        map[string]int
}

func (r EmailReport) OK() bool {
	return r.Rows > 0 && r.NotSent == 0 && r.PrintedTwice == 0 && r.NeverPrinted == 0
}

func (r EmailReport) String() string {
	s := fmt.Sprintf("%d emails, %d sent, %d delivered twice, %d never delivered", r.Rows, r.Sent, r.PrintedTwice, r.NeverPrinted)
	if r.NotSent > 0 {
		s += fmt.Sprintf(", %d not sent %v", r.NotSent, r.Statuses)
	}
	return s
}

func (e *Env) Emails(ctx context.Context, kinds ...string) (EmailReport, error) {
	rep := EmailReport{Statuses: map[string]int{}}
	prints, err := e.MailPrints()
	if err != nil {
		return rep, err
	}
	rows, err := e.Store.Pool().Query(ctx, `SELECT idempotency_key, kind, status FROM emails`)
	if err != nil {
		return rep, err
	}
	defer rows.Close()
	for rows.Next() {
		var key, kind, status string
		if err := rows.Scan(&key, &kind, &status); err != nil {
			return rep, err
		}
		if len(kinds) > 0 && !slices.Contains(kinds, kind) {
			continue
		}
		rep.Rows++
		if status == "sent" {
			rep.Sent++
		} else {
			rep.NotSent++
			rep.Statuses[status]++
		}
		switch n := prints[key]; {
		case n > 1:
			rep.PrintedTwice++
		case n == 0 && status == "sent":
			rep.NeverPrinted++
		}
	}
	return rep, rows.Err()
}

// WaitEmailsSettled waits until no email of the env is pending or being
// sent.
func (e *Env) WaitEmailsSettled(ctx context.Context, timeout time.Duration) error {
	return e.WaitEmails(ctx, 0, timeout)
}

// WaitEmails waits until at least n emails are recorded (workflows record
// theirs in an activity, after the request) and none is pending or being
// sent.
func (e *Env) WaitEmails(ctx context.Context, n int, timeout time.Duration) error {
	var rows, open int
	err := poll(ctx, timeout, func() (bool, error) {
		err := e.Store.Pool().QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status IN ('pending', 'sending')) FROM emails`).
			Scan(&rows, &open)
		return rows >= n && open == 0, err
	})
	if err != nil {
		return fmt.Errorf("emails: %d recorded (want %d), %d not sent yet: %w", rows, n, open, err)
	}
	return nil
}

// WorkflowStarts are the outbox rows of the env.
type WorkflowStart struct {
	ID, Type, RunID string
	Started         bool
	Attempts        int
}

func (e *Env) WorkflowStarts(ctx context.Context) ([]WorkflowStart, error) {
	rows, err := e.Store.Pool().Query(ctx, `SELECT workflow_id, type, coalesce(run_id, ''), started_at IS NOT NULL, attempts
		FROM workflow_starts WHERE signal IS NULL ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []WorkflowStart
	for rows.Next() {
		var w WorkflowStart
		if err := rows.Scan(&w.ID, &w.Type, &w.RunID, &w.Started, &w.Attempts); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// WaitStarted waits until every outbox row is started.
func (e *Env) WaitStarted(ctx context.Context, timeout time.Duration) error {
	err := poll(ctx, timeout, func() (bool, error) {
		n, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts WHERE started_at IS NULL`)
		return n == 0, err
	})
	if err != nil {
		n, _ := e.Count(ctx, `SELECT count(*) FROM workflow_starts WHERE started_at IS NULL`)
		return fmt.Errorf("%d outbox rows still pending: %w", n, err)
	}
	return nil
}
