package api

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"hackdesk/internal/feature/account"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/feature/foundry"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
)

// The web pages validate with the limits, patterns and enums that
// openapi.yaml states for request bodies, so they must be the server's own.
// For each probed field, every value of a corpus (each property's boundary
// values, its enum, null, and samples) passes the document's schema exactly
// when the handler's decode and Validate accept it. Values are trimmed and
// not blank: the server trims text, and a blank value means "clear" or
// "missing", which the descriptions say.

// probedBody is one request body: the schema's place in the document, the
// fields to probe, and a fresh request value to decode into.
type probedBody struct {
	op     string // operationId, or "#Name" for a component schema
	fields []string
	fresh  func() any
}

var probedBodies = []probedBody{
	{"#ApplicationPatch", []string{"email", "phone", "discord", "tshirt_size", "dietary_restrictions", "age",
		"country", "gender", "ethnicity", "university", "program", "year_of_study", "experience_level",
		"hackathons_attended", "github_url", "linkedin_url", "website_url", "q1_answer", "q2_answer",
		"coc_agreed", "info_share_authorized", "marketing_opt_in"}, func() any { return &application.Patch{} }},
	{"updateProfile", []string{"display_name", "marketing_opt_in"}, func() any { return &account.ProfilePatch{} }},
	{"createAccount", []string{"email", "display_name"}, func() any { return &account.SignupRequest{} }},
	{"createSession", []string{"email", "password"}, func() any { return &account.LoginRequest{} }},
	{"#AdminUserPatch", []string{"role", "exec"}, func() any { return &account.UserPatch{} }},
	{"#AdminUserExec", []string{"position", "subteam"}, func() any { return &account.ExecInput{} }},
	{"requestPasswordReset", []string{"email"}, func() any { return &account.ForgotRequest{} }},
	{"resetPassword", []string{"token", "password"}, func() any { return &account.ResetRequest{} }},
	{"#TokenRequest", []string{"token"}, func() any { return &account.TokenRequest{} }},
	{"submitReview", []string{"resume_score", "links_score", "q1_score", "q2_score"}, func() any { return &review.Request{} }},
	{"#QuestionBody", []string{"prompt", "type", "char_limit", "placeholder", "help_text", "required"},
		func() any { return &hiring.QuestionInput{Create: true} }},
	{"#PositionBody", []string{"title", "subteam", "grants", "description", "open"},
		func() any { return &hiring.PositionInput{Create: true} }},
	{"#TermBody", []string{"name"}, func() any { return &term.Input{Create: true} }},
	{"#HackathonBody", []string{"name", "capacity"}, func() any { return &hackathon.Input{} }},
	{"createBroadcast", []string{"subject", "body"}, func() any { return &broadcast.Request{} }},
	{"recordMembershipPayment", []string{"method", "amount_cents"}, func() any { return &membership.PaymentInput{DuesCents: 1} }},
	{"matchReceipt", []string{"email"}, func() any { return &membership.MatchInput{} }},
	{"launchFoundryProject", []string{"description", "project_type", "database"}, func() any { return &foundry.LaunchRequest{} }},
}

// samples are texts tried on every string field besides its boundary
// values.
var samples = []string{
	"a", "ab", "Ada Lovelace", "é", "1234567", "+1 (613) 555-0100", "+1 613.555.0100", "555 0100", "12345",
	strings.Repeat("1", 25), strings.Repeat("1", 26), "++1234567", "ada_l", "ada.l", "ada#1234", "ada#12", "a-b",
	"https://github.com/ada", "HTTP://Example.COM/x", "http://a.b?q=1", "http://a.b#top", "http://ab",
	"http://ab/x.y", "http://user@a.b", "ftp://a.b", "javascript:alert(1)", "/home", "http://a.b/x y",
	"a\u202eb", "a\u200bb", "a\tb", "line\nbreak", "a\u0085b", "a\u2028b", "XS", "xs", "M", "textarea",
	"ada@example.com", "not an email", "cash", "nextjs", "president",
}

func TestOpenAPIRequestRulesMatchValidation(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	if err := yaml.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatal(err)
	}
	for _, b := range probedBodies {
		props := bodyProperties(t, doc, b.op)
		for _, field := range b.fields {
			prop, ok := props[field]
			if !ok {
				t.Errorf("%s: openapi.yaml has no property %s", b.op, field)
				continue
			}
			for _, v := range corpus(doc, prop) {
				want := schemaAccepts(doc, prop, v)
				if got := goAccepts(b.fresh(), field, v); got != want {
					t.Errorf("%s.%s = %s: the server accepts it: %v; openapi.yaml accepts it: %v", b.op, field, show(v), got, want)
				}
			}
		}
	}
}

func show(v any) string {
	if s, ok := v.(string); ok && utf8.RuneCountInString(s) > 20 {
		r := []rune(s)
		return fmt.Sprintf("%q… (%d characters)", string(r[:10]), len(r))
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// goAccepts decodes {field: v} into req as the handler would and reports
// whether field passed (other fields may fail: they are absent).
func goAccepts(req any, field string, v any) bool {
	body, err := json.Marshal(map[string]any{field: v})
	if err != nil {
		panic(err)
	}
	_, err = decodeInto("application/json", body, req)
	if err == nil {
		return true
	}
	e, ok := apperr.As(err)
	if !ok || e.Details == nil {
		return false
	}
	_, failed := e.Details[field]
	return !failed
}

// bodyProperties finds the properties of a component schema ("#Name") or
// of an operation's JSON request body.
func bodyProperties(t *testing.T, doc map[string]any, op string) map[string]any {
	t.Helper()
	if name, ok := strings.CutPrefix(op, "#"); ok {
		return m(resolve(doc, m(m(doc["components"])["schemas"])[name]))["properties"].(map[string]any)
	}
	for _, item := range m(doc["paths"]) {
		for _, o := range m(item) {
			if m(o)["operationId"] != op {
				continue
			}
			schema := m(m(m(m(o)["requestBody"])["content"])["application/json"])["schema"]
			return m(resolve(doc, schema))["properties"].(map[string]any)
		}
	}
	t.Fatalf("openapi.yaml has no operation %s", op)
	return nil
}

func m(v any) map[string]any {
	out, _ := v.(map[string]any)
	return out
}

// resolve follows $ref to a component schema.
func resolve(doc map[string]any, s any) any {
	for i := 0; i < 10; i++ {
		ref, ok := m(s)["$ref"].(string)
		if !ok {
			return s
		}
		s = m(m(doc["components"])["schemas"])[strings.TrimPrefix(ref, "#/components/schemas/")]
	}
	return s
}

// corpus is what a property is probed with: null, true and false, its
// boundary values, its enum (and near misses) and, unless it is an email
// address (whose format is not probed), the samples. Blank or untrimmed
// texts are left out.
func corpus(doc map[string]any, prop any) []any {
	values := []any{nil, true, false}
	email := false
	for _, s := range alternatives(doc, prop) {
		email = email || s["format"] == "email"
		values = append(values, boundaries(s)...)
		for _, e := range asList(s["enum"]) {
			if str, ok := e.(string); ok {
				values = append(values, str, strings.ToLower(str)+"x")
			}
		}
	}
	if !email {
		for _, s := range samples {
			values = append(values, s)
		}
	}
	var out []any
	for _, v := range values {
		if s, ok := v.(string); ok && (s == "" || s != strings.TrimSpace(s)) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// boundaries are the values at and beyond a schema's limits. Strings are
// made of 'é' (two bytes), so a limit counted in bytes shows; an email
// address is padded in its (ASCII) local part.
func boundaries(s map[string]any) []any {
	var out []any
	str := func(n int) any {
		if s["format"] == "email" {
			return strings.Repeat("a", max(n-len("@example.com"), 1)) + "@example.com"
		}
		return strings.Repeat("é", n)
	}
	for _, k := range []string{"minLength", "maxLength"} {
		if n, ok := s[k].(int); ok {
			out = append(out, str(n-1), str(n), str(n+1))
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if n, ok := s[k].(int); ok {
			out = append(out, n-1, n, n+1)
		}
	}
	return out
}

// alternatives are the schemas a value may match: the oneOf's, or the
// schema itself.
func alternatives(doc map[string]any, prop any) []map[string]any {
	s := m(resolve(doc, prop))
	alts, ok := s["oneOf"].([]any)
	if !ok {
		return []map[string]any{s}
	}
	var out []map[string]any
	for _, a := range alts {
		out = append(out, m(resolve(doc, a)))
	}
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// schemaAccepts checks v against the type, lengths (in characters),
// pattern (Go's reading of it: the patterns are written to read alike in
// Go and ECMAScript), enum and bounds of prop. Formats are not checked:
// the corpus of an email field holds only well-formed addresses.
func schemaAccepts(doc map[string]any, prop any, v any) bool {
	for _, s := range alternatives(doc, prop) {
		if alternativeAccepts(s, v) {
			return true
		}
	}
	return false
}

func alternativeAccepts(s map[string]any, v any) bool {
	if !typeAccepts(s["type"], v) {
		return false
	}
	if enum := asList(s["enum"]); enum != nil && !slices.Contains(enum, v) {
		return false
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if lo, ok := s["minLength"].(int); ok && n < lo {
			return false
		}
		if hi, ok := s["maxLength"].(int); ok && n > hi {
			return false
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			return false
		}
	case int:
		if lo, ok := s["minimum"].(int); ok && x < lo {
			return false
		}
		if hi, ok := s["maximum"].(int); ok && x > hi {
			return false
		}
	}
	return true
}

// typeAccepts matches a JSON value to a schema's type (a name or a list).
func typeAccepts(t any, v any) bool {
	var types []string
	switch x := t.(type) {
	case nil:
		return true
	case string:
		types = []string{x}
	case []any:
		for _, e := range x {
			types = append(types, fmt.Sprint(e))
		}
	}
	var kind string
	switch v.(type) {
	case nil:
		kind = "null"
	case bool:
		kind = "boolean"
	case string:
		kind = "string"
	case int:
		return slices.Contains(types, "integer") || slices.Contains(types, "number")
	}
	return slices.Contains(types, kind)
}

// The patterns the application's fields carry in openapi.yaml are the Go
// regexps, character for character.
func TestOpenAPIPatternsAreTheGoRegexps(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	if err := yaml.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatal(err)
	}
	schemas := m(m(doc["components"])["schemas"])
	patch := m(schemas["ApplicationPatch"])["properties"]
	for _, tc := range []struct {
		where  string
		schema any
		re     *regexp.Regexp
	}{
		{"ApplicationPatch.phone", m(patch)["phone"], application.PhonePattern},
		{"ApplicationPatch.discord", m(patch)["discord"], application.DiscordHandle},
		{"WebURL", schemas["WebURL"], application.WebURLPattern},
	} {
		if got := m(tc.schema)["pattern"]; got != tc.re.String() {
			t.Errorf("%s: openapi.yaml has pattern %v, the server %s", tc.where, got, tc.re)
		}
	}
}
