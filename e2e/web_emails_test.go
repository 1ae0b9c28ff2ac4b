package e2e

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// webCatcherApp starts an App as the local stack runs: the log mail driver
// and a loopback PUBLIC_URL, where the email audit is the developer's mail
// catcher and shows one-time links. The browser reaches the listener at
// that URL directly (loopback addresses bypass the harness's proxy).
func webCatcherApp(t *testing.T) (*app.App, *client, browser.Site) {
	t.Helper()
	browser.Available(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := testenv.Config(t)
	cfg.HTTPAddr = addr
	cfg.PublicURL = "http://" + addr
	if !cfg.MailCatcher() {
		t.Fatalf("%s with mail driver %q is not the local stack's mail catcher", cfg.PublicURL, cfg.MailDriver)
	}
	a := testenv.App(t, cfg)
	return a, &client{t: t, base: a.URL()}, browser.Site{URL: cfg.PublicURL}
}

var webConfirmLink = regexp.MustCompile(`https?://\S+/auth/confirm\?token=[A-Za-z0-9_-]+`)

// The emails page, as the local stack's mail catcher: a newcomer's sign-up
// confirmation is listed, the recipient filter narrows the list, the view
// survives a reload from its URL, and the email opens with its link
// clickable; following it confirms the account. A filter that matches
// nothing says what to do. An admin opening the page is sent home.
// axe-core finds nothing on each state.
func TestWebEmails(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webCatcherApp(t)
	const root = "root@example.com"
	decAccount(t, a, anon, root, "superadmin")
	decAccount(t, a, anon, "admin@example.com", "admin")

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		newcomer, other := "newcomer-"+vp.Name+"@example.com", "other-"+vp.Name+"@example.com"
		for _, e := range []string{newcomer, other} {
			anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
				map[string]string{"email": e, "password": "cobol-compiler", "display_name": "Newcomer"})
		}
		sent := sentEmail(t, a, newcomer, "confirm")
		sentEmail(t, a, other, "confirm")
		link := webConfirmLink.FindString(sent.TextBody)
		if link == "" {
			t.Fatalf("no confirmation link in:\n%s", sent.TextBody)
		}

		p := browser.Open(t, site, vp)
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "emails-"+name+"-"+vp.Name+".png"))
			}
		}
		webSignIn(t, p, root, "password-"+root, "/")
		p.Visit("/admin/emails")
		p.WaitFor("heading", "Emails")
		p.WaitText(newcomer)
		p.WaitText(other)
		p.WaitFor("table", "Emails, newest first")
		p.Axe()
		shot("list")

		// The recipient filter narrows the list and is in the URL.
		p.Fill("Recipient", newcomer)
		p.Click("button", "Apply filters")
		p.WaitURL("/admin/emails?" + url.Values{"to": {newcomer}}.Encode())
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			return p.HasText(newcomer) && !p.HasText(other), "only the newcomer's emails"
		})
		p.Reload()
		p.WaitText(newcomer)
		if got := p.Value("Recipient"); got != newcomer {
			t.Fatalf("after a reload the recipient filter holds %q, want %q", got, newcomer)
		}
		if p.HasText(other) {
			t.Fatalf("after a reload the list shows %s again", other)
		}
		p.Axe()
		shot("filtered")

		// The confirmation opens with its link as a link.
		p.Click("button", "Open email: "+sent.Subject)
		dlg := p.Within("dialog", sent.Subject)
		dlg.WaitFor("link", link)
		dlg.WaitText("Idempotency key")
		p.Axe()
		shot("open")
		p.Press("Escape")
		p.WaitGone("dialog", sent.Subject)

		// A filter that matches nothing says so and offers the way back.
		p.Fill("Recipient", "nobody@example.com")
		p.Click("button", "Apply filters")
		p.WaitFor("heading", "No emails match these filters")
		p.Axe()
		shot("none")
		p.Click("button", "Clear filters")
		p.WaitURL("/admin/emails")
		p.WaitText(other)

		// The link is the newcomer's: following it confirms their address.
		p.Fill("Recipient", newcomer)
		p.Click("button", "Apply filters")
		p.WaitURL("/admin/emails?" + url.Values{"to": {newcomer}}.Encode())
		p.Click("button", "Open email: "+sent.Subject)
		p.Within("dialog", sent.Subject).Click("link", link)
		p.WaitFor("heading", "Confirm your email address")
		p.Click("button", "Confirm email")
		testenv.Eventually(t, 15*time.Second, func() (bool, string) {
			var confirmed bool
			if err := a.Store.Pool().QueryRow(context.Background(),
				`SELECT email_confirmed_at IS NOT NULL FROM profiles WHERE email = $1`, newcomer).Scan(&confirmed); err != nil {
				t.Fatal(err)
			}
			return confirmed, newcomer + " confirmed by following the link"
		})
	})

	// An admin (not a superadmin) is sent home.
	p := browser.Open(t, site, browser.Viewports[1])
	webSignIn(t, p, "admin@example.com", "password-admin@example.com", "/")
	p.Visit("/admin/emails")
	p.WaitURL("/")
}
