package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/config"
	"hackdesk/devstack"
	"hackdesk/testenv"
	"hackdesk/workflows"
)

// TestDev starts the real `hackdesk dev` wiring (private PostgreSQL, the
// Temporal dev server, versitygw, migrations, worker and API) on free ports,
// sends an email through the real Temporal server, and checks that a second
// start with the same key records and sends nothing new.
func TestDev(t *testing.T) {
	if err := testenv.SetTimeZone(); err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: its parent is private, and PostgreSQL runs as another
	// account when the tests run as root.
	dir, err := os.MkdirTemp("", "hackdesk-dev-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := config.Defaults()
	base.HTTPAddr = "127.0.0.1:0"
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var mailOut strings.Builder
	d, err := app.StartDev(ctx, app.DevOptions{
		Options: devstack.Options{Base: base, DataDir: dir, BinDir: testenv.BinDir(), Fast: true},
		Logger:  testenv.Logger(t),
		MailOut: &syncWriter{b: &mailOut},
	})
	if err != nil {
		t.Fatalf("StartDev: %v", err)
	}
	closed := false
	defer func() {
		if !closed {
			d.Close()
		}
	}()

	waitStatus(t, d.URL()+"/readyz", http.StatusOK)
	waitStatus(t, d.Stack.UIURL+"/", http.StatusOK)
	if got := get(t, d.URL()+"/api/admin/emails"); got != http.StatusUnauthorized {
		t.Fatalf("anonymous GET /api/admin/emails = %d, want 401", got)
	}

	in := workflows.SendEmailInput{Key: "dev-e2e:1", Kind: "notice", To: "ada@example.com",
		Data: map[string]string{"subject": "Welcome", "body": "Hello from hackdesk"}}
	id := workflows.SendEmailID(in.Key)
	for i, wantRecorded := range []bool{true, false} {
		run, err := workflows.Start(ctx, d.Temporal, d.Config.TaskQueue, id, workflows.SendEmail, in)
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		var res workflows.SendEmailResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.Status != "sent" || (i == 0 && res.Recorded != wantRecorded) {
			t.Fatalf("run %d result = %+v", i, res)
		}
	}
	// The first run's history feeds the replay test.
	testenv.RecordHistory(t, d.Temporal, id, "send_email")

	var rows, sent int
	err = d.Store.Pool().QueryRow(ctx,
		`SELECT count(*), count(*) FILTER (WHERE status = 'sent' AND attempts = 1) FROM emails`).Scan(&rows, &sent)
	if err != nil {
		t.Fatal(err)
	}
	if rows != 1 || sent != 1 {
		t.Fatalf("emails: %d rows, %d sent once; want 1 and 1", rows, sent)
	}
	if n := strings.Count(mailOut.String(), "Subject: Welcome"); n != 1 {
		t.Fatalf("log driver printed the email %d times, want 1", n)
	}

	// A run with a fresh ID but the same key (a workflow started again after
	// its history was purged) still records and sends nothing new.
	run, err := workflows.Start(ctx, d.Temporal, d.Config.TaskQueue, id+":again", workflows.SendEmail, in)
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.SendEmailResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Recorded || res.Status != "sent" {
		t.Fatalf("second key use = %+v, want not recorded, sent", res)
	}
	if n := strings.Count(mailOut.String(), "Subject: Welcome"); n != 1 {
		t.Fatalf("log driver printed the email %d times after a repeat, want 1", n)
	}

	ports := []string{d.Config.TemporalAddress, strings.TrimPrefix(d.Config.S3Endpoint, "http://"), d.Addr()}
	d.Close()
	closed = true
	for _, addr := range ports {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after Close", addr)
		}
	}
}

func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func waitStatus(t *testing.T, url string, want int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			var body map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered %d (last err %v)", url, want, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
