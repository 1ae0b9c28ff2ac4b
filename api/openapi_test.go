package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/pb33f/libopenapi"
	oapivalidator "github.com/pb33f/libopenapi-validator"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"go.yaml.in/yaml/v3"
)

// notOperations are routes that serve files rather than API operations, so
// openapi.yaml does not list them.
var notOperations = map[string]string{
	// Swagger UI's scripts, styles and icons for the page at /api/docs
	// (which is described). Their names belong to the embedded UI release.
	"GET /api/docs/*": "assets of the API reference page",
}

// Every route in the policy table is described in openapi.yaml, and the
// document describes no route that does not exist.
func TestOpenAPICoversRoutes(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	described := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			described[strings.ToUpper(method)+" "+path] = true
		}
	}
	s := New(Deps{})
	served := map[string]bool{}
	err := chi.Walk(s.Router(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		served[method+" "+route] = true
		if _, skip := notOperations[method+" "+route]; skip || s.ServesWeb(method, route) {
			return nil // the front end's pages and assets are not operations
		}
		if !described[method+" "+route] {
			t.Errorf("%s %s is not in openapi.yaml", method, route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for op := range notOperations {
		if !served[op] {
			t.Errorf("notOperations lists %s, which is not served", op)
		}
		if described[op] {
			t.Errorf("notOperations lists %s, which openapi.yaml describes", op)
		}
	}
	for op := range described {
		if !served[op] {
			t.Errorf("openapi.yaml describes %s, which is not served", op)
		}
	}
}

// openAPIModel parses a document into libopenapi's OpenAPI 3 model.
func openAPIModel(t *testing.T, spec []byte) (libopenapi.Document, *v3.Document) {
	t.Helper()
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("openapi.yaml as an OpenAPI 3 model: %v", err)
	}
	return doc, &m.Model
}

// documentErrors validates a document against the OpenAPI 3.1 schema.
func documentErrors(t *testing.T, spec []byte) []string {
	t.Helper()
	doc, _ := openAPIModel(t, spec)
	v, errs := oapivalidator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("openapi.yaml: %v", errs)
	}
	ok, verrs := v.ValidateDocument()
	var out []string
	for _, e := range verrs {
		msg := e.Message
		if e.Reason != "" {
			msg += ": " + e.Reason
		}
		for _, f := range e.SchemaValidationErrors {
			msg += fmt.Sprintf("\n    at %s (line %d): %s", f.FieldPath, f.Line, f.Reason)
		}
		out = append(out, msg)
	}
	if !ok && len(out) == 0 {
		out = append(out, "invalid, without details")
	}
	return out
}

// openapi.yaml is a valid OpenAPI 3.1 document (the official schema, as
// libopenapi-validator embeds it).
func TestOpenAPIDocumentIsValid(t *testing.T) {
	t.Parallel()
	doc, _ := openAPIModel(t, openAPISpec)
	if v := doc.GetVersion(); !strings.HasPrefix(v, "3.1") {
		t.Fatalf("openapi.yaml is OpenAPI %s, want 3.1", v)
	}
	for _, e := range documentErrors(t, openAPISpec) {
		t.Error(e)
	}
}

// The document check catches a structural mistake such as the one that was
// in openapi.yaml: an unquoted comma in a flow mapping made
// "case-insensitive" a key of the parameter object.
func TestOpenAPIDocumentCheckCatchesStrayKey(t *testing.T) {
	t.Parallel()
	good := `description: "exact recipient, case-insensitive" }`
	if !bytes.Contains(openAPISpec, []byte(good)) {
		t.Fatalf("openapi.yaml no longer has %s; update this test", good)
	}
	bad := bytes.Replace(openAPISpec, []byte(good), []byte(`description: exact recipient, case-insensitive }`), 1)
	errs := documentErrors(t, bad)
	if len(errs) == 0 {
		t.Fatal("a parameter with a stray key passed the document check")
	}
	t.Logf("caught: %s", strings.Join(errs, "\n"))
}

// operations lists every operation of the document as "METHOD /path".
func operations(m *v3.Document) (keys []string, ops map[string]*v3.Operation, items map[string]*v3.PathItem) {
	ops, items = map[string]*v3.Operation{}, map[string]*v3.PathItem{}
	for path, item := range m.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			k := strings.ToUpper(method) + " " + path
			keys = append(keys, k)
			ops[k], items[k] = op, item
		}
	}
	sort.Strings(keys)
	return keys, ops, items
}

var lowerCamel = regexp.MustCompile(`^[a-z]+(?:[A-Z][a-z0-9]*)+$`)

// Every operation has a unique lowerCamelCase operationId (verb + noun).
func TestOpenAPIOperationIDs(t *testing.T) {
	t.Parallel()
	_, m := openAPIModel(t, openAPISpec)
	keys, ops, _ := operations(m)
	seen := map[string]string{}
	for _, k := range keys {
		id := ops[k].OperationId
		switch {
		case id == "":
			t.Errorf("%s has no operationId", k)
		case !lowerCamel.MatchString(id):
			t.Errorf("%s: operationId %q is not lowerCamelCase verb+noun", k, id)
		case seen[id] != "":
			t.Errorf("%s: operationId %q is also used by %s", k, id, seen[id])
		}
		seen[id] = k
	}
}

// An operation that takes input (a body or parameters) or needs
// credentials can be refused, so it must document at least one 4xx answer.
// Only public operations without input (health checks, this document, the
// reference page, the session status, the current hackathon edition, the
// site's configured links, the current edition's calendar) may list none.
func TestOpenAPIFallibleOperationsList4xx(t *testing.T) {
	t.Parallel()
	_, m := openAPIModel(t, openAPISpec)
	keys, ops, items := operations(m)
	exempt := 0
	for _, k := range keys {
		op := ops[k]
		var why []string
		if op.RequestBody != nil {
			why = append(why, "a request body")
		}
		if len(op.Parameters)+len(items[k].Parameters) > 0 {
			why = append(why, "parameters")
		}
		// Absent security inherits the document's; security: [] is public.
		if (op.Security == nil && len(m.Security) > 0) || len(op.Security) > 0 {
			why = append(why, "security")
		}
		has4xx := false
		if op.Responses != nil && op.Responses.Codes != nil {
			for code := range op.Responses.Codes.KeysFromOldest() {
				if len(code) == 3 && code[0] == '4' {
					has4xx = true
				}
			}
		}
		if len(why) == 0 {
			exempt++
			continue
		}
		if !has4xx {
			t.Errorf("%s has %s but documents no 4xx response", k, strings.Join(why, ", "))
		}
	}
	if exempt > 8 {
		t.Errorf("%d operations are public and take no input; is security missing somewhere?", exempt)
	}
}

// The reference page at /api/docs loads the spec and its assets from this
// process, and its Content-Security-Policy allows exactly its own inline
// scripts (by hash), so the page works under it.
func TestAPIDocsPage(t *testing.T) {
	t.Parallel()
	s := New(Deps{})
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		return w
	}
	for _, path := range []string{"/api/docs", "/api/docs/"} {
		w := get(path)
		if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s = %d %q", path, w.Code, w.Header().Get("Content-Type"))
		}
		body := w.Body.String()
		for _, want := range []string{`"swaggerJsonUrl":"/api/openapi.yaml"`, `src="/api/docs/swagger-ui-bundle.js"`, `href="/api/docs/swagger-ui.css"`} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: page lacks %s", path, want)
			}
		}
		csp := w.Header().Get("Content-Security-Policy")
		scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(body, -1)
		if len(scripts) == 0 {
			t.Fatal("no inline scripts; the hash check below would prove nothing")
		}
		for _, m := range scripts {
			sum := sha256.Sum256([]byte(m[1]))
			if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, h) {
				t.Errorf("CSP %q does not allow inline script %s", csp, h)
			}
		}
		if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
			t.Errorf("CSP %q allows arbitrary script", csp)
		}
	}
	for _, asset := range []string{"/api/docs/swagger-ui-bundle.js", "/api/docs/swagger-ui-standalone-preset.js", "/api/docs/swagger-ui.css", "/api/docs/favicon-32x32.png"} {
		if w := get(asset); w.Code != http.StatusOK || w.Body.Len() == 0 {
			t.Errorf("GET %s = %d, %d bytes", asset, w.Code, w.Body.Len())
		}
	}
	if w := get("/api/docs/nope.js"); w.Code != http.StatusNotFound {
		t.Errorf("GET /api/docs/nope.js = %d, want 404", w.Code)
	}
}
