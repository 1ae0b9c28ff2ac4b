// Package browser drives headless Chromium from Go tests the way a person
// uses the site: it opens pages at a phone's or a desktop's size, finds
// controls by their role and accessible name or by their label, clicks, taps
// and types with real input events, and checks the page with axe-core.
//
// One Chromium process serves the whole test binary. It starts on the first
// Open and ends with Close; every Page lives in its own browser context, so
// cookies and storage never leak from one test to another. Without Chromium
// at ChromiumPath the tests skip, unless the CI variable is set: then they
// fail.
//
// The site under test is reached at its public origin. The harness's
// PUBLIC_URL is http://hackdesk.test, and the API refuses a cookie-
// authenticated write whose Origin differs from it, so a Page opened for
//
//	browser.Site{URL: cfg.PublicURL, Addr: app.Addr()}
//
// loads http://hackdesk.test/... while its requests go to app.Addr(): the
// page's browser context uses that listener as its HTTP proxy (the same
// effect as --host-resolver-rules="MAP hackdesk.test:80 127.0.0.1:<port>",
// but per context, so each test's App can listen on its own port).
// Requests to loopback addresses, such as the S3 endpoint's presigned URLs,
// bypass the proxy.
//
// Use it from TestMain so the browser ends with the test binary:
//
//	func TestMain(m *testing.M) { browser.Main(m) }
//
// or call Close after m.Run in a TestMain of your own.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// ChromiumPath is the browser the tests drive.
const ChromiumPath = "/usr/bin/chromium"

// DefaultTimeout is how long a Page waits for an element, a URL or a text
// to appear before it fails the test: long enough for a request that
// writes (a submit) on a machine busy with the whole suite.
const DefaultTimeout = 20 * time.Second

// callTimeout bounds one protocol command or navigation, so a hung browser
// fails the test instead of the whole binary.
const callTimeout = 30 * time.Second

// Viewport is a screen size to open a Page at.
type Viewport struct {
	Name          string // for subtest names: "mobile", "desktop"
	Width, Height int64  // CSS pixels
	Scale         float64
	// Mobile emulates a phone: mobile layout rules, touch input, and taps
	// instead of mouse clicks.
	Mobile bool
}

// The two viewports of the quality bars.
var (
	Mobile  = Viewport{Name: "mobile", Width: 390, Height: 844, Scale: 2, Mobile: true}
	Desktop = Viewport{Name: "desktop", Width: 1280, Height: 800, Scale: 1}
	// Narrow is the 320 CSS pixels wide screen at which a page's content
	// must reflow without scrolling sideways (WCAG 1.4.10).
	Narrow = Viewport{Name: "narrow", Width: 320, Height: 640, Scale: 2, Mobile: true}
	// Viewports lists both, for tests that run once per viewport.
	Viewports = []Viewport{Mobile, Desktop}
)

// Site says where a Page's paths are.
type Site struct {
	// URL is the origin the browser shows, e.g. the configuration's
	// PUBLIC_URL "http://hackdesk.test".
	URL string
	// Addr is the host:port of the listener that serves URL. Empty means the
	// browser resolves URL's host itself (e.g. an httptest server's URL).
	Addr string
}

// shared is the one browser of the test binary.
var shared struct {
	mu          sync.Mutex
	ctx         context.Context // a chromedp context with a running browser
	cancelAlloc context.CancelFunc
	cancelCtx   context.CancelFunc
	err         error
}

// start launches Chromium once; later calls return the same browser or the
// same error.
func start() (context.Context, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.ctx != nil || shared.err != nil {
		return shared.ctx, shared.err
	}
	if _, err := os.Stat(cameraFile); err != nil { // a blank camera until a test sets one
		if err := writeY4M(cameraFile, nil); err != nil {
			shared.err = fmt.Errorf("browser: camera: %w", err)
			return nil, shared.err
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// The camera: a fake device playing cameraFile (SetCamera), allowed
		// without asking, on the tests' site (http, so made a secure
		// context, as https is in production).
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", cameraFile),
		chromedp.Flag("unsafely-treat-insecure-origin-as-secure", "http://hackdesk.test"),
		// The user data directory is a fresh temporary one that chromedp
		// creates and removes with the browser.
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	startCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	// Starting the browser under startCtx would tie its life to that
	// timeout, so start it on ctx and give up from outside when it hangs.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	var err error
	select {
	case err = <-done:
	case <-startCtx.Done():
		err = fmt.Errorf("chromium did not start within a minute")
	}
	if err != nil {
		cancelCtx()
		cancelAlloc()
		shared.err = fmt.Errorf("browser: start %s: %w", ChromiumPath, err)
		return nil, shared.err
	}
	shared.ctx, shared.cancelCtx, shared.cancelAlloc = ctx, cancelCtx, cancelAlloc
	return ctx, nil
}

// Close ends the shared browser, if one started, and removes its profile
// directory. Call it when the test binary ends; it is safe to call twice.
func Close() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.ctx == nil {
		return
	}
	shared.cancelCtx()
	shared.cancelAlloc()
	shared.ctx = nil
	_ = os.Remove(cameraFile)
}

// Main runs the tests and then closes the browser, for a TestMain that has
// nothing else to do.
func Main(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}

// Available skips t when Chromium is not installed, or fails it when the CI
// variable is set (CI must install Chromium).
func Available(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing (%v); CI must install chromium", ChromiumPath, err)
		}
		t.Skipf("%s is not installed (apt-get install chromium); set CI=1 to make this a failure", ChromiumPath)
	}
}

// Page is one browser tab in a browser context of its own, bound to a test.
// Its methods fail the test (t.Fatalf) when something a person would see is
// missing; call them from the test's goroutine.
type Page struct {
	t       testing.TB
	tab     *tab
	scope   []locator // Within's chain, outermost first
	timeout time.Duration
}

// tab is the state a Page and its scoped copies share.
type tab struct {
	ctx  context.Context // chromedp context of the tab
	site Site
	base *url.URL
	vp   Viewport

	mu       sync.Mutex
	problems []string // console errors and uncaught exceptions
	allowed  []string // substrings of problems the test expects
}

// Open starts a tab for t at the viewport, in a fresh browser context that
// reaches site. It starts the shared browser on first use, skips t without
// Chromium, and when t ends closes the tab and fails t if the page logged a
// console error, an uncaught exception or a CSP violation the test did not
// allow (AllowConsoleError).
func Open(t testing.TB, site Site, vp Viewport) *Page {
	t.Helper()
	Available(t)
	base, err := url.Parse(site.URL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		t.Fatalf("browser: site URL %q is not an absolute URL", site.URL)
	}
	root, err := start()
	if err != nil {
		t.Fatal(err)
	}
	tb := &tab{site: site, base: base, vp: vp}
	ctxOpts := []chromedp.ContextOption{
		chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
			if site.Addr != "" {
				// The listener answers as a proxy for the public host;
				// loopback addresses bypass it (Chromium's implicit rule).
				p.ProxyServer = "http://" + site.Addr
			}
		}),
		chromedp.WithListener(tb.listen),
	}
	ctx, cancel := chromedp.NewContext(root, ctxOpts...)
	tb.ctx = ctx
	p := &Page{t: t, tab: tb, timeout: DefaultTimeout}
	t.Cleanup(cancel)
	t.Cleanup(p.finish)

	// The first action on a context opens its tab and ties the tab's life
	// to the context it runs with, so it runs on ctx itself, timed from
	// outside.
	opened := make(chan error, 1)
	go func() { opened <- chromedp.Do(ctx) }()
	select {
	case err = <-opened:
	case <-time.After(callTimeout):
		err = errors.New("timed out")
	}
	if err != nil {
		t.Fatalf("browser: open a tab: %v", err)
	}
	sctx, scancel := context.WithTimeout(ctx, callTimeout)
	defer scancel()
	metrics := emulation.SetDeviceMetricsOverrideParams{
		Width: vp.Width, Height: vp.Height, DeviceScaleFactor: vp.Scale, Mobile: vp.Mobile,
	}
	if vp.Mobile {
		metrics.ScreenOrientation = &emulation.ScreenOrientation{Type: emulation.ScreenOrientationTypePortraitPrimary}
	}
	err = chromedp.Do(sctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, metrics); err != nil {
			return err
		}
		touch := emulation.SetTouchEmulationEnabledParams{Enabled: vp.Mobile}
		if vp.Mobile {
			touch.MaxTouchPoints = 5
		}
		_, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, touch)
		return err
	}))
	if err != nil {
		t.Fatalf("browser: open a tab at %s: %v", vp.Name, err)
	}
	return p
}

// listen runs in the tab's message loop: it records console errors, uncaught
// exceptions and browser log errors (CSP violations, failed loads).
func (tb *tab) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			parts = append(parts, remoteText(a))
		}
		msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ") + stackPlace(ev.StackTrace)
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			desc, _, _ := strings.Cut(remoteText(d.Exception), "\n    at ")
			text += " " + desc
		}
		place := ""
		if d.URL != "" {
			place = fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
		}
		msg = "exception: " + text + place
	case *log.EventEntryAdded:
		e := ev.Entry
		if e.Level != log.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("%s error: %s", e.Source, e.Text)
		if e.URL != "" && !strings.Contains(e.Text, e.URL) {
			msg += " (" + e.URL + ")"
		}
	default:
		return
	}
	tb.mu.Lock()
	tb.problems = append(tb.problems, msg)
	tb.mu.Unlock()
}

func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if o.Type == runtime.RemoteObjectTypeString {
		var s string
		if err := jsonUnmarshal(o.Value, &s); err == nil {
			return s
		}
	}
	if o.Description != "" {
		return o.Description
	}
	if len(o.Value) > 0 {
		return string(o.Value)
	}
	return string(o.Type)
}

func stackPlace(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 {
		return ""
	}
	f := st.CallFrames[0]
	return fmt.Sprintf(" (%s:%d)", f.URL, f.LineNumber+1)
}

// AllowConsoleError lets the page log errors containing substr without
// failing the test, e.g. the browser's "status of 401" line for a request
// the test makes fail on purpose.
func (p *Page) AllowConsoleError(substr string) {
	p.tab.mu.Lock()
	defer p.tab.mu.Unlock()
	p.tab.allowed = append(p.tab.allowed, substr)
}

// ConsoleErrors returns the console errors, uncaught exceptions and browser
// log errors so far, allowed ones included.
func (p *Page) ConsoleErrors() []string {
	p.t.Helper()
	p.sync()
	p.tab.mu.Lock()
	defer p.tab.mu.Unlock()
	return append([]string(nil), p.tab.problems...)
}

// sync makes sure every event the browser sent so far reached listen: the
// listener runs in the tab's message loop, so once the reply to a command
// arrives every earlier event has been handled.
func (p *Page) sync() {
	ctx, cancel := context.WithTimeout(p.tab.ctx, 5*time.Second)
	defer cancel()
	_, _ = chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "0"})
}

// finish fails the test on unexpected console errors and, for a failed
// test, logs where the page was.
func (p *Page) finish() {
	t := p.t
	t.Helper()
	if p.tab.ctx.Err() != nil {
		return
	}
	p.sync()
	if t.Failed() {
		p.logState()
	}
	p.tab.mu.Lock()
	defer p.tab.mu.Unlock()
	var bad []string
	for _, m := range p.tab.problems {
		ok := false
		for _, a := range p.tab.allowed {
			if strings.Contains(m, a) {
				ok = true
				break
			}
		}
		if !ok {
			bad = append(bad, m)
		}
	}
	if len(bad) > 0 {
		t.Errorf("browser (%s): the page logged %d error(s):\n  %s", p.tab.vp.Name, len(bad), strings.Join(bad, "\n  "))
	}
}

// logState writes the current URL and the page's text (its start and end) to the
// test log, and a screenshot to $BROWSER_ARTIFACTS when that is set.
func (p *Page) logState() {
	ctx, cancel := context.WithTimeout(p.tab.ctx, 5*time.Second)
	defer cancel()
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	text, _ := evalJSON[string](ctx, `(document.querySelector('main') || document.body || document.documentElement).innerText`)
	// The start says which page it is; the end holds what a form says
	// after a press (its error or progress), so both are kept.
	if r := []rune(text); len(r) > 2000 {
		text = string(r[:800]) + "\n…\n" + string(r[len(r)-1200:])
	}
	p.t.Logf("browser (%s): the page was at %s showing:\n%s", p.tab.vp.Name, loc, text)
	if dir := os.Getenv("BROWSER_ARTIFACTS"); dir != "" {
		name := strings.NewReplacer("/", "_", " ", "_").Replace(p.t.Name()) + "-" + p.tab.vp.Name + ".png"
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			if err := os.MkdirAll(dir, 0o755); err == nil {
				path := dir + string(os.PathSeparator) + name
				if os.WriteFile(path, png, 0o644) == nil {
					p.t.Logf("browser: screenshot %s", path)
				}
			}
		}
	}
}

// WithTimeout returns the page with another wait for elements, URLs and
// texts (DefaultTimeout otherwise).
func (p *Page) WithTimeout(d time.Duration) *Page {
	q := *p
	q.timeout = d
	return &q
}

// Viewport is the size the page was opened at.
func (p *Page) Viewport() Viewport { return p.tab.vp }

// callCtx is a context for one protocol exchange.
func (p *Page) callCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(p.tab.ctx, callTimeout)
}

// Visit opens path (with its query) on the site and waits for the load
// event.
func (p *Page) Visit(path string) {
	p.t.Helper()
	u, err := p.tab.base.Parse(path)
	if err != nil {
		p.t.Fatalf("browser: bad path %q: %v", path, err)
	}
	ctx, cancel := p.callCtx()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
		p.t.Fatalf("browser: visit %s: %v", u, err)
	}
}

// Reload reloads the page and waits for the load event.
func (p *Page) Reload() {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		p.t.Fatalf("browser: reload: %v", err)
	}
}

// URL is the current path and query, e.g. "/login?next=%2Freview".
func (p *Page) URL() string {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		p.t.Fatalf("browser: location: %v", err)
	}
	u, err := url.Parse(loc)
	if err != nil {
		p.t.Fatalf("browser: location %q: %v", loc, err)
	}
	return u.RequestURI()
}

// WaitURL waits until the page is at path. A path with a query must match
// the path and query exactly; a path without one matches any query.
func (p *Page) WaitURL(path string) {
	p.t.Helper()
	var last string
	ok := p.poll(func(ctx context.Context) (bool, error) {
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			return false, err
		}
		u, err := url.Parse(loc)
		if err != nil {
			return false, err
		}
		last = u.RequestURI()
		if strings.Contains(path, "?") {
			return last == path, nil
		}
		return u.Path == path, nil
	})
	if !ok {
		p.t.Fatalf("browser: waited %s for %s; the page is at %s", p.timeout, path, last)
	}
}

// Screenshot writes a full-page PNG of what the page shows to file.
func (p *Page) Screenshot(file string) {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("browser: screenshot: %v", err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// poll runs check until it reports true or the page's timeout passes.
// Errors count as "not yet" (a navigation can destroy the page's context
// mid-check); poll reports whether check succeeded.
func (p *Page) poll(check func(ctx context.Context) (bool, error)) bool {
	deadline := time.Now().Add(p.timeout)
	for {
		ctx, cancel := context.WithTimeout(p.tab.ctx, 5*time.Second)
		ok, err := check(ctx)
		cancel()
		if err == nil && ok {
			return true
		}
		if p.tab.ctx.Err() != nil || errors.Is(err, errFatal) || time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// errFatal marks a check error that waiting cannot fix (see fatal).
var errFatal = errors.New("browser: fatal")

type fatalErr struct{ msg string }

func (e fatalErr) Error() string        { return e.msg }
func (e fatalErr) Is(target error) bool { return target == errFatal }

// fatal is an error that stops a wait at once.
func fatal(format string, a ...any) error { return fatalErr{fmt.Sprintf(format, a...)} }
