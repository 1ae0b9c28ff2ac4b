package e2e

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"hackdesk/api"
)

const chromiumPath = "/usr/bin/chromium"

// TestAPIDocsRenderInBrowser loads /api/docs in headless Chromium and checks
// that Swagger UI rendered every operation of openapi.yaml: the page, its
// embedded scripts and styles and the spec all load from this process under
// the page's Content-Security-Policy.
func TestAPIDocsRenderInBrowser(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing (%v); CI must install chromium (see .ci/run)", chromiumPath, err)
		}
		t.Skipf("%s is not installed (apt-get install chromium); set CI=1 to make this a failure", chromiumPath)
	}
	_, c := newApp(t)

	// The page and an asset, as a plain client sees them.
	page := c.expect(http.StatusOK, "GET", "/api/docs", nil)
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Fatalf("Content-Security-Policy %q", csp)
	}
	if !bytes.Contains(page.Body, []byte("/api/openapi.yaml")) || !bytes.Contains(page.Body, []byte("/api/docs/swagger-ui-bundle.js")) {
		t.Fatalf("page does not load the spec and the bundle from here:\n%s", truncate(page.Body, 2000))
	}
	assets := &client{t: t, base: c.base, offSpec: true} // assets are not API operations
	js := assets.expect(http.StatusOK, "GET", "/api/docs/swagger-ui-bundle.js", nil)
	if ct := js.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") || len(js.Body) < 100_000 {
		t.Fatalf("bundle: Content-Type %q, %d bytes", ct, len(js.Body))
	}
	assets.expect(http.StatusNotFound, "GET", "/api/docs/nope.js", nil)

	dom := dumpDOM(t, c.base+"/api/docs")

	// Swagger UI renders each operation as an "opblock" whose id is
	// operations-<tag>-<operationId>, with the path and summary as text.
	var spec struct {
		Paths map[string]map[string]struct {
			OperationID string   `yaml:"operationId"`
			Summary     string   `yaml:"summary"`
			Tags        []string `yaml:"tags"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(api.OpenAPISpec(), &spec); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(dom, `class="opblock opblock-`); n < 20 {
		t.Fatalf("the DOM has %d operation blocks; Swagger UI did not render the spec:\n%s", n, truncateString(dom, 3000))
	}
	for path, ops := range spec.Paths {
		for method, op := range ops {
			if method == "parameters" {
				continue
			}
			id := "operations-" + op.Tags[0] + "-" + op.OperationID
			if !strings.Contains(dom, `id="`+id+`"`) {
				t.Errorf("%s %s: no element %s in the rendered page", strings.ToUpper(method), path, id)
			}
		}
	}
	for _, text := range []string{
		"/api/auth/login", "/api/admin/applications/decisions", "/api/admin/applications/{id}",
		"Open a session", "Decide a batch of applications (admin)", "hackdesk API",
	} {
		if !strings.Contains(dom, htmlEscape(text)) {
			t.Errorf("the rendered page lacks %q", text)
		}
	}
}

var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

func truncateString(s string, n int) string { return truncate([]byte(s), n) }

// dumpDOM loads url in headless Chromium and returns the DOM once the page
// has settled (virtual time lets scripts run without waiting in real time).
func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=10000", "--dump-dom", url)
	// Chromium forks helpers; end them all with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if err != nil {
		t.Fatalf("chromium: %v after %s\nstderr: %s", err, time.Since(start).Round(time.Millisecond), truncate(stderr.Bytes(), 4000))
	}
	t.Logf("chromium rendered %s in %s (%d bytes of DOM)", url, time.Since(start).Round(time.Millisecond), stdout.Len())
	return stdout.String()
}
