package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	valerrors "github.com/pb33f/libopenapi-validator/errors"

	"hackdesk/api"
)

// openAPIChecker validates HTTP responses against an OpenAPI document with
// pb33f/libopenapi-validator: the path and method must be described, the
// status documented, the Content-Type one the response lists and the body
// valid against its schema (formats such as uuid and date-time asserted).
type openAPIChecker struct {
	// mu serializes validations: parallel tests share the checker, and the
	// validator has had data races in concurrent use upstream.
	mu sync.Mutex
	v  validator.Validator
}

var (
	checkerOnce sync.Once
	checker     *openAPIChecker
	checkerErr  error
)

// specChecker parses and prepares api/openapi.yaml once per test binary.
func specChecker() (*openAPIChecker, error) {
	checkerOnce.Do(func() { checker, checkerErr = newOpenAPIChecker(api.OpenAPISpec()) })
	return checker, checkerErr
}

func newOpenAPIChecker(spec []byte) (*openAPIChecker, error) {
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi.yaml: %w", errors.Join(errs...))
	}
	return &openAPIChecker{v: v}, nil
}

func truncate(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// validateResponse checks one response against api/openapi.yaml and
// returns what disagrees, or nil.
func validateResponse(method, path string, r response) error {
	k, err := specChecker()
	if err != nil {
		return err
	}
	return k.validate(method, path, r)
}

func (k *openAPIChecker) validate(method, path string, r response) error {
	// The host is irrelevant: servers are matched on the path only.
	req, err := http.NewRequest(method, "http://127.0.0.1"+path, nil)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	header := r.Header
	if header == nil {
		header = http.Header{}
	}
	resp := &http.Response{
		StatusCode:    r.Status,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(r.Body)),
		ContentLength: int64(len(r.Body)),
		Request:       req,
	}
	k.mu.Lock()
	ok, verrs := k.v.ValidateHttpResponse(req, resp)
	k.mu.Unlock()
	if ok && len(verrs) == 0 {
		return nil
	}
	return fmt.Errorf("%s %s status %d (Content-Type %q) disagrees with openapi.yaml:\n%s\nbody: %s",
		method, req.URL.Path, r.Status, header.Get("Content-Type"), describe(verrs), truncate(r.Body, 500))
}

// describe lists validation errors with their schema failures.
func describe(verrs []*valerrors.ValidationError) string {
	if len(verrs) == 0 {
		return "  (the validator reported failure without details)"
	}
	var b strings.Builder
	for i, e := range verrs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "  - %s", e.Message)
		if e.Reason != "" && e.Reason != e.Message {
			fmt.Fprintf(&b, ": %s", e.Reason)
		}
		for _, f := range e.SchemaValidationErrors {
			loc := f.FieldPath
			if loc == "" {
				loc = "/" + strings.Join(f.InstancePath, "/")
			}
			fmt.Fprintf(&b, "\n      at %s: %s", loc, f.Reason)
		}
	}
	return b.String()
}

// checkResponse fails the test when a response disagrees with openapi.yaml.
func checkResponse(t *testing.T, method, path string, r response) {
	t.Helper()
	if err := validateResponse(method, path, r); err != nil {
		t.Errorf("openapi: %v", err)
	}
}

func TestOpenAPICheckerCatchesDrift(t *testing.T) {
	t.Parallel()
	jsonHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	user := `{"id":"0b5e0c39-3f1c-4b8e-9a43-3f3e8f0f9a11","email":"ada@example.com","display_name":"Ada",` +
		`"role":"member","email_confirmed":true,"exec_role":null,"membership":null,"onboarding":null,"marketing_opt_in":false}`
	noEmail := `{"id":"0b5e0c39-3f1c-4b8e-9a43-3f3e8f0f9a11","display_name":"Ada",` +
		`"role":"member","email_confirmed":true,"exec_role":null,"membership":null,"onboarding":null,"marketing_opt_in":false}`
	ready := `{"status":"ready","checks":{"database":"ok","temporal":"ok"},"outbox":{"pending":0,"lag_seconds":0}}`
	cases := []struct {
		name         string
		method, path string
		r            response
		wantErr      bool
	}{
		{"MissingRequiredField", "GET", "/api/profile", response{200, jsonHeader, []byte(noEmail)}, true},
		{"ValidBody", "GET", "/api/profile", response{200, jsonHeader, []byte(user)}, false},
		{"ValidBodyWithQuery", "GET", "/api/profile?x=1", response{200, jsonHeader, []byte(user)}, false},
		{"WrongEnum", "GET", "/api/profile", response{200, jsonHeader, []byte(strings.Replace(user, `"member"`, `"root"`, 1))}, true},
		{"BadUUIDFormat", "GET", "/api/profile", response{200, jsonHeader, []byte(strings.Replace(user, `"0b5e0c39-3f1c-4b8e-9a43-3f3e8f0f9a11"`, `"42"`, 1))}, true},
		{"NotJSON", "GET", "/api/profile", response{200, jsonHeader, []byte("<html>")}, true},
		{"WrongContentType", "GET", "/api/profile", response{200, http.Header{"Content-Type": {"text/plain"}}, []byte(user)}, true},
		{"UndocumentedStatus", "GET", "/api/profile", response{418, jsonHeader, []byte(`{"error":"teapot"}`)}, true},
		{"UndocumentedPath", "GET", "/api/nope", response{404, jsonHeader, []byte(`{"error":"Not found"}`)}, true},
		{"UndocumentedMethod", "DELETE", "/healthz", response{405, jsonHeader, []byte(`{"error":"Method not allowed"}`)}, true},
		{"Healthz", "GET", "/healthz", response{200, jsonHeader, []byte(`{"status":"ok"}`)}, false},
		{"HealthzWrongConst", "GET", "/healthz", response{200, jsonHeader, []byte(`{"status":"down"}`)}, true},
		{"Readyz", "GET", "/readyz", response{200, jsonHeader, []byte(ready)}, false},
		{"ReadyzNoOutbox", "GET", "/readyz", response{200, jsonHeader, []byte(`{"status":"ready","checks":{"database":"ok","temporal":"ok"}}`)}, true},
		{"ReadyzDown", "GET", "/readyz", response{503, jsonHeader, []byte(`{"status":"unavailable","error":"Service unavailable","checks":{"database":"unavailable","temporal":"ok"}}`)}, false},
		{"ReadyzDownNoStatus", "GET", "/readyz", response{503, jsonHeader, []byte(`{"error":"Service unavailable","checks":{"database":"unavailable","temporal":"ok"}}`)}, true},
		{"RefResponse", "GET", "/api/profile", response{401, jsonHeader, []byte(`{"error":"Unauthorized"}`)}, false},
		{"RefResponseDrift", "GET", "/api/profile", response{401, jsonHeader, []byte(`{"message":"no error field"}`)}, true},
		{"TemplatedPath", "GET", "/api/admin/applications/0b5e0c39-3f1c-4b8e-9a43-3f3e8f0f9a11", response{404, jsonHeader, []byte(`{"error":"Application not found"}`)}, false},
		{"YAML", "GET", "/api/openapi.yaml", response{200, http.Header{"Content-Type": {"application/yaml"}}, api.OpenAPISpec()}, false},
		{"YAMLWrongType", "GET", "/api/openapi.yaml", response{200, jsonHeader, api.OpenAPISpec()}, true},
		{"Docs", "GET", "/api/docs", response{200, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, []byte("<!DOCTYPE html><html></html>")}, false},
		{"DocsWrongType", "GET", "/api/docs", response{200, jsonHeader, []byte(`{}`)}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := validateResponse(tc.method, tc.path, tc.r)
			if tc.wantErr && err == nil {
				t.Errorf("%s %s %d: no error, want one", tc.method, tc.path, tc.r.Status)
			}
			if tc.wantErr && err != nil {
				t.Logf("caught: %v", err)
			}
			if !tc.wantErr && err != nil {
				t.Errorf("%s %s %d: %v", tc.method, tc.path, tc.r.Status, err)
			}
		})
	}
}

// A request path is checked against the path template that describes it:
// literal segments win over {param} ones. Each operation of this document
// answers its own template as a const, so only the right match validates.
func TestOpenAPIPathMatching(t *testing.T) {
	t.Parallel()
	templates := []string{
		"/api/users/{id}",
		"/api/users/me",
		"/api/users/{id}/roles",
		"/api/{kind}/{id}/roles",
		"/api/{kind}/x/{sub}",
		"/api/{kind}/{id}/{what}",
	}
	var spec strings.Builder
	spec.WriteString("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n")
	for _, tmpl := range templates {
		fmt.Fprintf(&spec, "  %q:\n    get:\n", tmpl)
		var params []string
		for _, seg := range strings.Split(tmpl, "/") {
			if strings.HasPrefix(seg, "{") {
				params = append(params, fmt.Sprintf("{name: %s, in: path, required: true, schema: {type: string}}", strings.Trim(seg, "{}")))
			}
		}
		if len(params) > 0 {
			fmt.Fprintf(&spec, "      parameters: [%s]\n", strings.Join(params, ", "))
		}
		fmt.Fprintf(&spec, "      responses:\n        \"200\":\n          description: ok\n"+
			"          content: {application/json: {schema: {const: %q}}}\n", tmpl)
	}
	k, err := newOpenAPIChecker([]byte(spec.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, spec.String())
	}
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	for path, want := range map[string]string{
		"/api/users/me":       "/api/users/me",
		"/api/users/42":       "/api/users/{id}",
		"/api/users/42/roles": "/api/users/{id}/roles",
		"/api/teams/42/roles": "/api/{kind}/{id}/roles",
		"/api/teams/x/roles":  "/api/{kind}/x/{sub}",
		"/api/teams/42/thing": "/api/{kind}/{id}/{what}",
	} {
		body := fmt.Appendf(nil, "%q", want)
		if err := k.validate("GET", path, response{200, jsonHeader, body}); err != nil {
			t.Errorf("%s should match %s: %v", path, want, err)
		}
	}
	for _, path := range []string{"/api/users", "/api/users/42/roles/x/y", "/nope"} {
		if err := k.validate("GET", path, response{200, jsonHeader, []byte(`"x"`)}); err == nil {
			t.Errorf("%s matched a template; want undocumented", path)
		}
	}
}
