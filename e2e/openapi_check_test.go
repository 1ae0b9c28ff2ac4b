package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"hackdesk/api"
)

// specURL is the in-memory address under which the whole OpenAPI document
// is added to the JSON Schema compiler, so that local $refs such as
// #/components/schemas/User resolve against it.
const specURL = "mem://openapi.json"

// openAPIChecker validates HTTP responses against api/openapi.yaml.
type openAPIChecker struct {
	doc      map[string]any // the document as JSON values
	compiler *jsonschema.Compiler

	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema // by JSON pointer
}

var (
	checkerOnce sync.Once
	checker     *openAPIChecker
	checkerErr  error
)

// specChecker parses and prepares the OpenAPI document once per test binary.
func specChecker() (*openAPIChecker, error) {
	checkerOnce.Do(func() { checker, checkerErr = newOpenAPIChecker(api.OpenAPISpec()) })
	return checker, checkerErr
}

func newOpenAPIChecker(spec []byte) (*openAPIChecker, error) {
	var raw any
	if err := yaml.Unmarshal(spec, &raw); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	norm, err := jsonValue(raw)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	data, err := json.Marshal(norm)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml to JSON: %w", err)
	}
	// Decode again with the validator's own decoder (numbers as json.Number).
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml as JSON: %w", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("openapi.yaml is not a mapping")
	}
	if _, ok := obj["paths"].(map[string]any); !ok {
		return nil, errors.New("openapi.yaml has no paths")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, fmt.Errorf("openapi.yaml as a schema resource: %w", err)
	}
	return &openAPIChecker{doc: obj, compiler: c, schemas: map[string]*jsonschema.Schema{}}, nil
}

// jsonValue turns a decoded YAML value into one encoding/json can marshal:
// every mapping gets string keys.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			n, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	default:
		return v, nil
	}
}

// pointerEscape escapes one JSON pointer segment (RFC 6901).
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func pointerUnescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// pointer joins segments into a JSON pointer such as /paths/~1healthz/get.
func pointer(segs ...string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(pointerEscape(s))
	}
	return b.String()
}

// lookup returns the value at a JSON pointer of the document.
func (k *openAPIChecker) lookup(ptr string) (any, bool) {
	var cur any = k.doc
	if ptr == "" {
		return cur, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = pointerUnescape(seg)
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// deref follows local $refs (#/...) of the object at ptr, returning the
// pointer and value of the object it finally names.
func (k *openAPIChecker) deref(ptr string) (string, map[string]any, error) {
	for range 32 {
		v, ok := k.lookup(ptr)
		if !ok {
			return "", nil, fmt.Errorf("openapi.yaml has nothing at #%s", ptr)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return "", nil, fmt.Errorf("openapi.yaml: #%s is not an object", ptr)
		}
		ref, ok := obj["$ref"].(string)
		if !ok {
			return ptr, obj, nil
		}
		if !strings.HasPrefix(ref, "#") {
			return "", nil, fmt.Errorf("openapi.yaml: #%s: only local $refs are supported, got %q", ptr, ref)
		}
		ptr = ref[1:]
	}
	return "", nil, fmt.Errorf("openapi.yaml: $ref loop at #%s", ptr)
}

// schema compiles (once) the schema at a JSON pointer of the document.
func (k *openAPIChecker) schema(ptr string) (*jsonschema.Schema, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if s, ok := k.schemas[ptr]; ok {
		return s, nil
	}
	s, err := k.compiler.Compile(specURL + "#" + ptr)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: compiling #%s: %w", ptr, err)
	}
	k.schemas[ptr] = s
	return s, nil
}

var httpMethods = map[string]bool{
	"get": true, "put": true, "post": true, "delete": true,
	"options": true, "head": true, "patch": true, "trace": true,
}

// matchPath returns the path template of the document that matches a
// request path, preferring literal segments over {param} ones.
func (k *openAPIChecker) matchPath(path string) (string, bool) {
	paths := k.doc["paths"].(map[string]any)
	if _, ok := paths[path]; ok {
		return path, true
	}
	segs := strings.Split(path, "/")
	best, bestParams := "", -1
	for tmpl := range paths {
		tsegs := strings.Split(tmpl, "/")
		if len(tsegs) != len(segs) {
			continue
		}
		params := 0
		for i, ts := range tsegs {
			if strings.HasPrefix(ts, "{") && strings.HasSuffix(ts, "}") {
				if segs[i] == "" {
					params = -1
					break
				}
				params++
				continue
			}
			if ts != segs[i] {
				params = -1
				break
			}
		}
		if params < 0 {
			continue
		}
		// Fewer templated segments wins; ties break on the earliest literal
		// segment, then alphabetically, so the choice is deterministic.
		if bestParams < 0 || params < bestParams ||
			(params == bestParams && moreLiteral(tmpl, best)) {
			best, bestParams = tmpl, params
		}
	}
	return best, bestParams >= 0
}

// moreLiteral reports whether template a has a literal segment where b
// first has a {param} one (or, failing that, sorts first).
func moreLiteral(a, b string) bool {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := range as {
		ap, bp := strings.HasPrefix(as[i], "{"), strings.HasPrefix(bs[i], "{")
		if ap != bp {
			return bp
		}
	}
	return a < b
}

func truncate(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// validateResponse checks one response against the OpenAPI document and
// returns what disagrees, or nil.
func validateResponse(method, path string, r response) error {
	k, err := specChecker()
	if err != nil {
		return err
	}
	return k.validate(method, path, r)
}

func (k *openAPIChecker) validate(method, path string, r response) error {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	op := fmt.Sprintf("%s %s", method, path)
	tmpl, ok := k.matchPath(path)
	if !ok {
		return fmt.Errorf("undocumented: %s (no path in openapi.yaml; got status %d, body %s)",
			op, r.Status, truncate(r.Body, 500))
	}
	m := strings.ToLower(method)
	opPtr := pointer("paths", tmpl, m)
	if _, ok := k.lookup(opPtr); !httpMethods[m] || !ok {
		return fmt.Errorf("undocumented: %s (path %s has no %s operation in openapi.yaml; got status %d, body %s)",
			op, tmpl, method, r.Status, truncate(r.Body, 500))
	}
	status := strconv.Itoa(r.Status)
	respPtr := pointer("paths", tmpl, m, "responses", status)
	if _, ok := k.lookup(respPtr); !ok {
		respPtr = pointer("paths", tmpl, m, "responses", "default")
		if _, ok := k.lookup(respPtr); !ok {
			return fmt.Errorf("%s answered status %d, which openapi.yaml does not document for %s %s; body %s",
				op, r.Status, method, tmpl, truncate(r.Body, 500))
		}
	}
	respPtr, respObj, err := k.deref(respPtr)
	if err != nil {
		return err
	}
	content, ok := respObj["content"].(map[string]any)
	if !ok || len(content) == 0 {
		return nil // no documented body
	}
	ct := r.Header.Get("Content-Type")
	mt, hasJSON := content["application/json"].(map[string]any)
	if !hasJSON {
		types := make([]string, 0, len(content))
		for t := range content {
			if hasMediaType(ct, t) {
				return nil
			}
			types = append(types, t)
		}
		return fmt.Errorf("%s status %d: Content-Type %q, openapi.yaml documents %s",
			op, r.Status, ct, strings.Join(types, ", "))
	}
	if !hasMediaType(ct, "application/json") {
		return fmt.Errorf("%s status %d: Content-Type %q, openapi.yaml documents application/json; body %s",
			op, r.Status, ct, truncate(r.Body, 500))
	}
	body, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Body))
	if err != nil {
		return fmt.Errorf("%s status %d: body is not JSON (%v): %s", op, r.Status, err, truncate(r.Body, 500))
	}
	if _, ok := mt["schema"]; !ok {
		return nil
	}
	sch, err := k.schema(respPtr + pointer("content", "application/json", "schema"))
	if err != nil {
		return err
	}
	if err := sch.Validate(body); err != nil {
		return fmt.Errorf("%s status %d: body does not match openapi.yaml (%s %s responses %s): %v\nbody: %s",
			op, r.Status, method, tmpl, status, err, truncate(r.Body, 500))
	}
	return nil
}

// hasMediaType reports whether a Content-Type header names media type mt
// (ignoring case and parameters such as charset).
func hasMediaType(header, mt string) bool {
	h := strings.ToLower(strings.TrimSpace(header))
	mt = strings.ToLower(mt)
	if !strings.HasPrefix(h, mt) {
		return false
	}
	rest := h[len(mt):]
	return rest == "" || rest[0] == ';' || rest[0] == ' '
}

// checkResponse fails the test when a response disagrees with openapi.yaml.
func checkResponse(t *testing.T, method, path string, r response) {
	t.Helper()
	if err := validateResponse(method, path, r); err != nil {
		t.Errorf("openapi: %v", err)
	}
}

func TestOpenAPICheckerCatchesDrift(t *testing.T) {
	jsonHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	user := `{"id":"0b5e0c39-3f1c-4b8e-9a43-3f3e8f0f9a11","email":"ada@example.com","display_name":"Ada",` +
		`"role":"member","email_confirmed":true,"exec_role":null,"membership":null}`
	noEmail := `{"id":"0b5e0c39-3f1c-4b8e-9a43-3f3e8f0f9a11","display_name":"Ada",` +
		`"role":"member","email_confirmed":true,"exec_role":null,"membership":null}`
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
		{"RefResponse", "GET", "/api/profile", response{401, jsonHeader, []byte(`{"error":"Unauthorized"}`)}, false},
		{"RefResponseDrift", "GET", "/api/profile", response{401, jsonHeader, []byte(`{"message":"no error field"}`)}, true},
		{"YAML", "GET", "/api/openapi.yaml", response{200, http.Header{"Content-Type": {"application/yaml"}}, api.OpenAPISpec()}, false},
		{"YAMLWrongType", "GET", "/api/openapi.yaml", response{200, jsonHeader, api.OpenAPISpec()}, true},
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

func TestOpenAPIPathMatching(t *testing.T) {
	k := &openAPIChecker{doc: map[string]any{"paths": map[string]any{
		"/api/users/{id}":         map[string]any{},
		"/api/users/me":           map[string]any{},
		"/api/users/{id}/roles":   map[string]any{},
		"/api/{kind}/{id}/roles":  map[string]any{},
		"/api/{kind}/x/{sub}":     map[string]any{},
		"/api/{kind}/{id}/{what}": map[string]any{},
	}}}
	for path, want := range map[string]string{
		"/api/users/me":        "/api/users/me",
		"/api/users/42":        "/api/users/{id}",
		"/api/users/42/roles":  "/api/users/{id}/roles",
		"/api/teams/42/roles":  "/api/{kind}/{id}/roles",
		"/api/teams/x/roles":   "/api/{kind}/x/{sub}",
		"/api/teams/42/thing":  "/api/{kind}/{id}/{what}",
		"/api/users/":          "",
		"/api/users/42/roles/": "",
	} {
		got, ok := k.matchPath(path)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("matchPath(%q) = %q, want %q", path, got, want)
		}
	}
}
