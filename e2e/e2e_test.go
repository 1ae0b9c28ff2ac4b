// Package e2e tests the API over HTTP against the real stack: PostgreSQL,
// the Temporal dev server and versitygw, started once per test binary.
package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"hackdesk/api"
	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// TestMain starts the shared services and, after the tests, closes the
// one browser the page tests share.
func TestMain(m *testing.M) { testenv.MainThen(m, browser.Close) }

// client talks to one running App.
type client struct {
	t     *testing.T
	base  string
	token string
	// offSpec skips the OpenAPI check, for tests that call undocumented
	// routes on purpose.
	offSpec bool
}

func newApp(t *testing.T) (*app.App, *client) {
	t.Helper()
	a := testenv.App(t, testenv.Config(t))
	return a, &client{t: t, base: a.URL()}
}

// response is a finished request: status, headers and the raw body.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it is not JSON.
func (r response) JSON(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("body %q is not JSON: %v", r.Body, err)
	}
}

// Map decodes the body as a JSON object.
func (r response) Map(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

func (c *client) do(method, path string, body any, headers ...string) response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	r := response{Status: resp.StatusCode, Header: resp.Header, Body: data}
	if !c.offSpec {
		checkResponse(c.t, method, path, r)
	}
	return r
}

// expect fails the test unless the response has the wanted status.
func (c *client) expect(want int, method, path string, body any, headers ...string) response {
	c.t.Helper()
	r := c.do(method, path, body, headers...)
	if r.Status != want {
		c.t.Fatalf("%s %s = %d, want %d; body %s", method, path, r.Status, want, r.Body)
	}
	return r
}

// sessionBound waits out the API process's session cache: a change to a
// session, a role or an account made outside that process (the CLI,
// another replica, SQL) is honoured within api.SessionCacheTTL.
func sessionBound() { time.Sleep(api.SessionCacheTTL) }
