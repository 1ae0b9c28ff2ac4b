package e2e

import (
	"sync"
	"testing"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
	"hackdesk/internal/platform/config"
)

// browserMu lets one browser test run at a time. Chromium gives each Page a
// browser context of its own, so parallel pages would not see each other,
// but on two cores their 10-second waits for what a person sees are not
// safe to share: browser tests run beside the API tests, one at a time.
var browserMu sync.Mutex

// browserTurn waits until no other browser test runs; call it after
// t.Parallel.
func browserTurn(t *testing.T) {
	browserMu.Lock()
	t.Cleanup(browserMu.Unlock)
}

// webApp starts an App for the browser tests and returns it, an anonymous
// API client and where a browser reaches it: the configuration's
// PUBLIC_URL (http://hackdesk.test), served by the App's listener, so the
// API's Origin check sees the site's own origin.
func webApp(t *testing.T) (*app.App, *client, browser.Site) {
	t.Helper()
	browser.Available(t)
	cfg := testenv.Config(t)
	a := testenv.App(t, cfg)
	return a, &client{t: t, base: a.URL()}, browser.Site{URL: cfg.PublicURL, Addr: a.Addr()}
}

// webAppWith is webApp with its configuration changed by change first.
func webAppWith(t *testing.T, change func(*config.Config)) (*app.App, *client, browser.Site) {
	t.Helper()
	browser.Available(t)
	cfg := testenv.Config(t)
	change(&cfg)
	a := testenv.App(t, cfg)
	return a, &client{t: t, base: a.URL()}, browser.Site{URL: cfg.PublicURL, Addr: a.Addr()}
}

// webSignIn signs in on /login as a person does and waits to land on
// where the page sends them (the path of next, "/" without one).
func webSignIn(t *testing.T, p *browser.Page, email, password, landing string) {
	t.Helper()
	p.Visit("/login")
	p.WaitFor("heading", "Sign in")
	p.Fill("Email", email)
	p.Fill("Password", password)
	p.Click("button", "Sign in")
	p.WaitURL(landing)
}

// eachViewport runs fn as a subtest at the phone's and the desktop's size.
func eachViewport(t *testing.T, fn func(t *testing.T, vp browser.Viewport)) {
	t.Helper()
	for _, vp := range browser.Viewports {
		t.Run(vp.Name, func(t *testing.T) { fn(t, vp) })
	}
}
