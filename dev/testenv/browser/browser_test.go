package browser_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hackdesk/dev/testenv/browser"
)

func TestMain(m *testing.M) { browser.Main(m) }

const csp = "default-src 'self'; script-src 'self'"

const head = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>%s</title>
<script type="module" src="/app.js"></script></head><body>
<header><p>hackdesk</p></header><nav aria-label="Site"><a href="/other?from=nav">Other page</a></nav>
<main>`

const signUp = `<h1>Sign up</h1>
<form aria-labelledby="form-title"><h2 id="form-title">Your details</h2>
<label for="email">Email</label> <input id="email" type="email">
<label for="name">Display name</label> <input id="name" value="Ada">
<label for="size">T-shirt size</label>
<select id="size"><option value="">Choose</option><option value="s">Small</option><option value="m">Medium</option></select>
<input type="checkbox" id="coc"> <label for="coc">I agree to the code of conduct</label>
<label for="resume">Resume</label> <input type="file" id="resume">
<button type="button" id="save">Save</button>
</form>
<p role="status" id="out"></p>
</main></body></html>`

const other = `<h1>Other page</h1>
<table><caption>Scores</caption><tr><th>Name</th><th>Score</th></tr><tr><td>Ada</td><td>9</td></tr></table>
<button type="button">Delete</button><button type="button">Delete</button>
</main></body></html>`

const bad = `<h1>Bad page</h1><img src="/pixel.png"></main></body></html>`

const broken = `<h1>Broken page</h1><script>console.log("inline scripts are blocked")</script></main></body></html>`

// app.js is the page's script: it reports keys, input and the file in the
// status line, keeps the email in localStorage and saves with a fetch.
const appJS = `
const out = document.getElementById('out');
const email = document.getElementById('email');
let keys = 0;
if (email) {
  email.addEventListener('keydown', () => { keys++; });
  email.addEventListener('input', () => {
    localStorage.setItem('smoke.email', email.value);
    out.textContent = 'Email ' + email.value + ' after ' + keys + ' keys';
  });
  document.getElementById('resume').addEventListener('change', (e) => {
    out.textContent = 'Chose ' + e.target.files[0].name;
  });
  document.getElementById('save').addEventListener('click', async () => {
    const r = await fetch('/api/save', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({email: email.value, size: document.getElementById('size').value,
        coc: document.getElementById('coc').checked})});
    out.textContent = r.ok ? 'Saved ' + email.value : 'Refused ' + r.status;
  });
}
if (document.title === 'Broken') {
  console.error('boom from app.js');
  setTimeout(() => { throw new Error('kaput'); }, 0);
}
`

// pixel is a 1×1 PNG.
var pixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// saved is what the server saw of a POST /api/save.
type saved struct {
	Host, Origin string
	Body         map[string]any
}

// site serves the pages behind the public origin http://hackdesk.test,
// refusing a POST whose Origin is another one, as the API does.
func site(t *testing.T) (browser.Site, <-chan saved) {
	t.Helper()
	saves := make(chan saved, 10)
	mux := http.NewServeMux()
	page := func(title, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", csp)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, head, title)
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("GET /{$}", page("Sign up", signUp))
	mux.HandleFunc("GET /other", page("Other", other))
	mux.HandleFunc("GET /bad", page("Bad", bad))
	mux.HandleFunc("GET /broken", page("Broken", broken))
	mux.HandleFunc("GET /app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, appJS)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pixel) // a browser that went away needs no pixel
	})
	mux.HandleFunc("GET /pixel.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pixel)
	})
	mux.HandleFunc("POST /api/save", func(w http.ResponseWriter, r *http.Request) {
		s := saved{Host: r.Host, Origin: r.Header.Get("Origin")}
		if err := json.NewDecoder(r.Body).Decode(&s.Body); err != nil {
			t.Errorf("POST /api/save: body: %v", err)
		}
		saves <- s
		if s.Origin != "http://hackdesk.test" {
			http.Error(w, "bad origin", http.StatusForbidden)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return browser.Site{URL: "http://hackdesk.test", Addr: srv.Listener.Addr().String()}, saves
}

func TestPersonFillsTheForm(t *testing.T) {
	s, saves := site(t)
	resume := filepath.Join(t.TempDir(), "resume.pdf")
	if err := os.WriteFile(resume, []byte("%PDF-1.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, vp := range browser.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := browser.Open(t, s, vp)
			p.Visit("/")
			if got := p.Heading(1); got != "Sign up" {
				t.Fatalf("h1 %q", got)
			}
			if got := p.Headings(2); !slices.Equal(got, []string{"Your details"}) {
				t.Fatalf("h2s %q", got)
			}
			if !p.HasText("Sign up Your details") || p.HasText("Other page") {
				t.Fatal("HasText does not read the main landmark's text")
			}
			// A fresh browser context: the other subtest's storage is gone.
			if keys := p.LocalStorageKeys(); len(keys) != 0 {
				t.Fatalf("localStorage leaked from another test: %q", keys)
			}

			p.Fill("Email", "ada@example.com")
			if got := p.Value("Email"); got != "ada@example.com" {
				t.Fatalf("Email = %q", got)
			}
			// Typed key by key: a keydown for Ctrl+A and one per character,
			// and oninput ran.
			if got, want := p.Text("status", ""), "Email ada@example.com after 16 keys"; got != want {
				t.Fatalf("status %q, want %q", got, want)
			}
			// Fill replaces what was there.
			p.Fill("Email", "grace@example.com")
			if got := p.Value("Email"); got != "grace@example.com" {
				t.Fatalf("Email after a second Fill = %q", got)
			}
			p.Fill("Display name", "")
			if got := p.Value("Display name"); got != "" {
				t.Fatalf("Display name after clearing = %q", got)
			}
			p.Select("T-shirt size", "Medium")
			if got := p.Value("T-shirt size"); got != "Medium" {
				t.Fatalf("T-shirt size = %q", got)
			}
			p.Check("I agree to the code of conduct")
			if !p.Checked("I agree to the code of conduct") {
				t.Fatal("the box is not checked")
			}
			p.Uncheck("I agree to the code of conduct")
			p.Check("I agree to the code of conduct")
			p.SetFile("Resume", resume)
			p.WaitText("Chose resume.pdf")

			p.Within("form", "Your details").Click("button", "Save")
			select {
			case got := <-saves:
				if got.Host != "hackdesk.test" || got.Origin != "http://hackdesk.test" {
					t.Fatalf("the server saw Host %q, Origin %q", got.Host, got.Origin)
				}
				want := map[string]any{"email": "grace@example.com", "size": "m", "coc": true}
				if !reflect.DeepEqual(got.Body, want) {
					t.Fatalf("saved %v, want %v", got.Body, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("pressing Save sent nothing")
			}
			p.WaitText("Saved grace@example.com")
			if v, ok := p.LocalStorage("smoke.email"); !ok || v != "grace@example.com" {
				t.Fatalf("localStorage smoke.email = %q, %v", v, ok)
			}
			if _, ok := p.LocalStorage("nothing"); ok {
				t.Fatal("a missing key reads as present")
			}
			p.Reload()
			if keys := p.LocalStorageKeys(); !slices.Equal(keys, []string{"smoke.email"}) {
				t.Fatalf("localStorage after reload: %q", keys)
			}
			p.Axe()
		})
	}
}

func TestKeyboard(t *testing.T) {
	s, _ := site(t)
	p := browser.Open(t, s, browser.Desktop)
	p.Visit("/")
	want := []browser.Node{
		{Role: "link", Name: "Other page"},
		{Role: "textbox", Name: "Email"},
		{Role: "textbox", Name: "Display name"},
		{Role: "combobox", Name: "T-shirt size"},
		{Role: "checkbox", Name: "I agree to the code of conduct"},
	}
	for _, w := range want {
		p.Press("Tab")
		if got := p.Focused(); got != w {
			t.Fatalf("Tab moved the focus to %s, want %s", got, w)
		}
	}
	p.Press("Space")
	if !p.Checked("I agree to the code of conduct") {
		t.Fatal("Space did not check the focused box")
	}
	p.Press("Shift+Tab")
	p.WaitFocused("combobox", "T-shirt size")
	p.Press("Shift+Tab")
	p.Press("Shift+Tab")
	p.Type("x")
	if got := p.Value("Email"); got != "x" {
		t.Fatalf("typing after Shift+Tab twice went to %q (Email = %q)", p.Focused(), got)
	}
	p.Press("Shift+Tab")
	p.Press("Enter")
	p.WaitURL("/other")
	if got := p.URL(); got != "/other?from=nav" {
		t.Fatalf("URL %q", got)
	}
	p.WaitURL("/other?from=nav")
	if got := p.Table("Scores"); !reflect.DeepEqual(got, [][]string{{"Name", "Score"}, {"Ada", "9"}}) {
		t.Fatalf("table %q", got)
	}
	if n := p.Count("button", "Delete"); n != 2 {
		t.Fatalf("%d Delete buttons", n)
	}
	if p.Exists("button", "Save") {
		t.Fatal("Save is not on this page")
	}
	shot := filepath.Join(t.TempDir(), "other.png")
	p.Screenshot(shot)
	if data, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("screenshot: %v, %d bytes", err, len(data))
	}
}

// The harness's checks must fail a test: a recorder stands in for t.
func TestFailures(t *testing.T) {
	s, _ := site(t)

	t.Run("console errors, exceptions and CSP violations", func(t *testing.T) {
		r := run(t, func(r *recorder) {
			p := browser.Open(r, s, browser.Desktop)
			p.Visit("/broken")
			p.WaitText("Broken page")
			time.Sleep(200 * time.Millisecond) // the timer that throws
		})
		for _, want := range []string{"boom from app.js", "kaput", "Content Security Policy"} {
			if !strings.Contains(r.log(), want) {
				t.Errorf("the report lacks %q:\n%s", want, r.log())
			}
		}
	})
	t.Run("allowed console errors", func(t *testing.T) {
		r := run(t, func(r *recorder) {
			p := browser.Open(r, s, browser.Desktop)
			p.AllowConsoleError("boom")
			p.AllowConsoleError("kaput")
			p.AllowConsoleError("Content Security Policy")
			p.Visit("/broken")
			time.Sleep(200 * time.Millisecond)
		})
		if r.failed {
			t.Errorf("allowed errors failed the test:\n%s", r.log())
		}
	})
	t.Run("missing element", func(t *testing.T) {
		r := run(t, func(r *recorder) {
			p := browser.Open(r, s, browser.Mobile).WithTimeout(time.Second)
			p.Visit("/")
			p.Click("button", "Submit application")
		})
		if !r.failed || !strings.Contains(r.log(), `button "Submit application"`) || !strings.Contains(r.log(), `button "Save"`) {
			t.Errorf("want a failure naming the button and the page's buttons:\n%s", r.log())
		}
	})
	t.Run("two matches", func(t *testing.T) {
		r := run(t, func(r *recorder) {
			p := browser.Open(r, s, browser.Desktop).WithTimeout(time.Second)
			p.Visit("/other")
			p.Click("button", "Delete")
		})
		if !r.failed || !strings.Contains(r.log(), "2 elements match") {
			t.Errorf("want a failure for two Delete buttons:\n%s", r.log())
		}
	})
	t.Run("axe violation", func(t *testing.T) {
		r := run(t, func(r *recorder) {
			p := browser.Open(r, s, browser.Desktop)
			p.Visit("/bad")
			p.Axe()
		})
		// The report names the rule, its impact, the element and the version.
		for _, want := range []string{"image-alt (critical)", `<img src="/pixel.png">`, "axe-core " + browser.AxeVersion()} {
			if !r.failed || !strings.Contains(r.log(), want) {
				t.Errorf("want Axe to fail with %q:\n%s", want, r.log())
			}
		}
	})
}

// recorder is a testing.TB that records failures instead of failing, and
// runs its cleanups when run ends.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	lines    []string
	failed   bool
	cleanups []func()
}

func (r *recorder) note(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, s)
	r.failed = true
}
func (r *recorder) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}
func (r *recorder) Cleanup(f func())                  { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Error(args ...any)                 { r.note(fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.note(fmt.Sprintf(format, args...)) }
func (r *recorder) Fatal(args ...any)                 { r.note(fmt.Sprint(args...)); runtime.Goexit() }
func (r *recorder) Fatalf(format string, args ...any) {
	r.note(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (r *recorder) Fail()        { r.note("Fail") }
func (r *recorder) FailNow()     { r.note("FailNow"); runtime.Goexit() }
func (r *recorder) Failed() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.failed }

// run runs body with a recorder on a goroutine of its own (so Fatalf can
// end it), then the recorder's cleanups, and returns the recorder.
func run(t *testing.T, body func(r *recorder)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(r)
	}()
	<-done
	done = make(chan struct{})
	go func() {
		defer close(done)
		for i := len(r.cleanups) - 1; i >= 0; i-- {
			r.cleanups[i]()
		}
	}()
	<-done
	return r
}
