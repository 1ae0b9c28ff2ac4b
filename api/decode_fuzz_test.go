package api

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/patch"
)

// Fuzz targets for the one JSON decoder (decode.go), the PATCH field types
// (optional.go) and the request bodies built on them. Run them with
// `make fuzz`; the seeds below also run as plain tests.

// decodeInto runs decode on body sent with contentType ("" sends none).
func decodeInto(contentType string, body []byte, v any) (*httptest.ResponseRecorder, error) {
	r := httptest.NewRequest(http.MethodPost, "/x", bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	return w, decode(w, r, v)
}

// checkRefusal asserts that a refused body is a client error: an
// *apperr.Error answered 400, 413 or 415 with a JSON body carrying its
// title, never an internal error.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok {
		t.Fatalf("decode error %v is not an *apperr.Error (it would answer 500)", err)
	}
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	w := httptest.NewRecorder()
	writeError(w, r, err)
	switch w.Code {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
	default:
		t.Fatalf("decode error %v answers %d, want 400, 413 or 415", err, w.Code)
	}
	var b errorBody
	if json.Unmarshal(w.Body.Bytes(), &b) != nil || b.Error != e.Title || b.Error == "" {
		t.Fatalf("error body %q does not carry the title %q", w.Body.String(), e.Title)
	}
}

// checkAcceptedBody asserts what an accepted body must have been: sent as
// JSON (or without a type) and exactly one well-formed JSON value.
func checkAcceptedBody(t *testing.T, contentType string, body []byte) {
	t.Helper()
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			t.Fatalf("accepted a body sent as %q", contentType)
		}
	}
	if !json.Valid(body) {
		t.Fatalf("accepted a body that is not one JSON value: %q", body)
	}
}

// storableText reports why PostgreSQL would refuse s in a text column
// holding at most maxChars characters (0: no limit), or "".
func storableText(s string, maxChars int) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return "contains NUL, which a PostgreSQL text value cannot hold"
	case !utf8.ValidString(s):
		return "is not UTF-8"
	case maxChars > 0 && utf8.RuneCountInString(s) > maxChars:
		return "is longer than its column allows"
	}
	return ""
}

// applicationRowInvalid mirrors the CHECK constraints of the applications
// table (db/migrations/00003_applications.sql) on the columns a PATCH
// writes, plus what PostgreSQL text cannot hold. "" means the row would
// be stored.
func applicationRowInvalid(a db.Application) string {
	texts := []struct {
		name string
		v    *string
		max  int
	}{
		{"email", a.Email, 254}, {"phone", a.Phone, 30}, {"discord", a.Discord, 40},
		{"dietary_restrictions", a.DietaryRestrictions, 300}, {"country", a.Country, 100},
		{"gender", a.Gender, 300}, {"ethnicity", a.Ethnicity, 300}, {"university", a.University, 200},
		{"program", a.Program, 200}, {"year_of_study", a.YearOfStudy, 50}, {"experience_level", a.ExperienceLevel, 300},
		{"github_url", a.GithubUrl, 300}, {"linkedin_url", a.LinkedinUrl, 300}, {"website_url", a.WebsiteUrl, 300},
		{"q1_answer", a.Q1Answer, 5000}, {"q2_answer", a.Q2Answer, 1000}, {"tshirt_size", a.TshirtSize, 0},
	}
	for _, c := range texts {
		if c.v == nil {
			continue
		}
		if why := storableText(*c.v, c.max); why != "" {
			return c.name + " " + why
		}
	}
	if a.TshirtSize != nil {
		switch *a.TshirtSize {
		case "XS", "S", "M", "L", "XL", "XXL":
		default:
			return "tshirt_size is not a size"
		}
	}
	if a.Age != nil && (*a.Age < 13 || *a.Age > 100) {
		return "age is out of range"
	}
	if a.HackathonsAttended != nil && (*a.HackathonsAttended < 0 || *a.HackathonsAttended > 1000) {
		return "hackathons_attended is out of range"
	}
	if why := storableText(a.TeamMembers, 0); why != "" {
		return "team_members " + why
	}
	if a.TeamMembers != "" && len(strings.Split(a.TeamMembers, ",")) > application.MaxTeamMembers {
		return "team_members lists too many"
	}
	return ""
}

func FuzzDecodeApplicationPatch(f *testing.F) {
	for _, s := range []struct{ ct, body string }{
		{"application/json", `{"phone":"+1 (555) 123-4567","age":19,"tshirt_size":"M"}`},
		{"application/json; charset=utf-8", `{"gender":["woman"," non-binary "],"github_url":null}`},
		{"", `{"team_members":"a@example.com, b@example.com","coc_agreed":true}`},
		{"application/merge-patch+json", `{"q1_answer":"  why  ","answers":{"x":null}}`},
		{"application/json", `{"position_ids":["4f0c5e8e-0000-4000-8000-000000000001"]}`},
		{"application/json", `{"university":"\u0000"}`},
		{"application/json", `{"age":"19"}`},
		{"application/json", `{"age":1e3}`},
		{"application/json", `{"nope":1}`},
		{"application/json", `{"email":"a@b.co"} {}`},
		{"text/plain", `{}`},
		{"application/json", `[]`},
		{"application/json", ``},
		{"application/json", `{"website_url":"https://example.com/` + strings.Repeat("x", 300) + `"}`},
	} {
		f.Add(s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		var p application.Patch
		_, err := decodeInto(contentType, body, &p)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		checkAcceptedBody(t, contentType, body)
		// Accepted ⇒ the patched row passes the table's CHECK constraints.
		var row db.Application
		p.Apply(&row)
		if why := applicationRowInvalid(row); why != "" {
			t.Fatalf("accepted %q but the row would be refused: %s", body, why)
		}
		// A PATCH is idempotent: applying it again changes nothing.
		again := row
		p.Apply(&again)
		if !reflect.DeepEqual(row, again) {
			t.Fatalf("applying %q twice gave %+v, then %+v", body, row, again)
		}
	})
}

// FuzzDecodeDisplayName decodes the two bodies that carry a display name
// (sign-up and the profile PATCH): accepted ⇒ the name is trimmed, 1 to 100
// characters and storable (profiles.display_name), and checking it again
// changes nothing.
func FuzzDecodeDisplayName(f *testing.F) {
	for _, s := range []string{
		`{"display_name":"Ada Lovelace"}`, `{"display_name":"  Grace  "}`, `{"display_name":""}`,
		`{"display_name":"\u0000"}`, `{"display_name":"a\u0000b"}`, `{"display_name":"` + strings.Repeat("é", 101) + `"}`,
		`{"display_name":"\ud800"}`, `{"display_name":"\u202eevil"}`, `{"display_name":null}`,
		`{"email":"ada@example.com","password":"correct horse battery staple","display_name":"Ada"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var patch account.ProfilePatch
		if _, err := decodeInto("application/json", body, &patch); err != nil {
			checkRefusal(t, err)
		} else if patch.DisplayName.Set {
			checkDisplayNameAccepted(t, body, patch.DisplayName.V)
		}
		var signup account.SignupRequest
		if _, err := decodeInto("application/json", body, &signup); err != nil {
			checkRefusal(t, err)
		} else {
			checkDisplayNameAccepted(t, body, signup.DisplayName)
			if why := storableText(signup.Email, 254); why != "" || !strings.Contains(signup.Email, "@") {
				t.Fatalf("accepted email %q from %q: %s", signup.Email, body, why)
			}
		}
	})
}

func checkDisplayNameAccepted(t *testing.T, body []byte, name string) {
	t.Helper()
	if name == "" || name != strings.TrimSpace(name) {
		t.Fatalf("accepted display name %q from %q: empty or untrimmed", name, body)
	}
	if why := storableText(name, 100); why != "" {
		t.Fatalf("accepted display name %q from %q: %s", name, body, why)
	}
	if again, why := auth.CheckDisplayName(name); why != "" || again != name {
		t.Fatalf("display name %q checked again gives %q (%s)", name, again, why)
	}
}

// FuzzField wraps one JSON value as {"v": <value>} and decodes it into each
// kind of PATCH field: the key present ⇒ Set; Null exactly for the literal
// null; otherwise the value survives a round trip through JSON, and a
// value of the wrong type is refused as a field error naming "v".
func FuzzField(f *testing.F) {
	for _, s := range []string{`"text"`, `null`, ` null `, `17`, `-3`, `1e2`, `2147483648`, `true`, `["a","b"]`,
		`{"k":"v"}`, `"\u0000"`, `"\ud83d\ude00"`, `[]`, `""`, `nul`, `"a,b"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		body := []byte(`{"v":` + raw + `}`)
		if !json.Valid(body) {
			return
		}
		null := strings.TrimSpace(raw) == "null"
		checkField[string](t, body, null)
		checkField[int32](t, body, null)
		checkField[bool](t, body, null)
		checkField[[]string](t, body, null)
		checkField[map[string]*string](t, body, null)
	})
}

func checkField[T any](t *testing.T, body []byte, null bool) {
	t.Helper()
	var v struct {
		V patch.Field[T] `json:"v"`
	}
	_, err := decodeInto("application/json", body, &v)
	if err != nil {
		checkRefusal(t, err)
		if err == errNUL && escapesNUL(body) {
			return
		}
		e, _ := apperr.As(err)
		if null || e.Details["v"] == "" {
			t.Fatalf("%s into field[%T]: refused with %v, want a reason for v", body, v.V.V, err)
		}
		return
	}
	if !v.V.Set || v.V.Null != null {
		t.Fatalf("%s into field[%T]: Set=%v Null=%v, want Set and Null=%v", body, v.V.V, v.V.Set, v.V.Null, null)
	}
	if null {
		return
	}
	enc, err := json.Marshal(v.V.V)
	if err != nil {
		t.Fatal(err)
	}
	var back patch.Field[T]
	if err := json.Unmarshal(enc, &back); err != nil || !back.Set || back.Null || !reflect.DeepEqual(back.V, v.V.V) {
		t.Fatalf("field[%T] %s: round trip through %s gave %+v (%v)", v.V.V, body, enc, back, err)
	}
}

// FuzzListOrString: a list decodes to its canonical comma-separated form
// (items trimmed, none empty), the same whether sent as "a,b" or
// ["a","b"], and decoding the canonical form again gives it back.
func FuzzListOrString(f *testing.F) {
	for _, s := range []string{"a,b", " a , b ", ",,", "", "x", "a, b", "é,\u00a0", "a,,b,", "\t"} {
		f.Add(s, "c")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var fromString patch.List
		enc, _ := json.Marshal(a + "," + b)
		if err := json.Unmarshal(enc, &fromString); err != nil {
			t.Fatalf("string %s refused: %v", enc, err)
		}
		var fromArray patch.List
		enc, _ = json.Marshal([]string{a, b})
		if err := json.Unmarshal(enc, &fromArray); err != nil {
			t.Fatalf("array %s refused: %v", enc, err)
		}
		if fromString != fromArray {
			t.Fatalf("%q,%q: as a string %q, as an array %q", a, b, fromString, fromArray)
		}
		s := string(fromString)
		if s != "" {
			for _, item := range strings.Split(s, ",") {
				if item == "" || item != strings.TrimSpace(item) {
					t.Fatalf("%q,%q gave %q: item %q is empty or untrimmed", a, b, s, item)
				}
			}
		}
		var again patch.List
		enc, _ = json.Marshal(s)
		if err := json.Unmarshal(enc, &again); err != nil || again != fromString {
			t.Fatalf("canonical %q decodes again to %q (%v)", s, again, err)
		}
	})
}

// FuzzEscapesNUL: on well-formed JSON, the byte scan agrees with decoding
// the value and looking for NUL in every string and key.
func FuzzEscapesNUL(f *testing.F) {
	for _, s := range []string{`"\u0000"`, `"\\u0000"`, `"\\\u0000"`, `{"\u0000":1}`, `["a","\u00001"]`, `"\u00000"`,
		`"\u0001"`, `"\\\\u0000"`, `{"a":"\"\u0000"}`, `"\/"`, `1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v any
		if json.Unmarshal(body, &v) != nil {
			return
		}
		if got, want := escapesNUL(body), holdsNUL(v); got != want {
			t.Fatalf("escapesNUL(%q) = %v, the decoded value holds NUL: %v", body, got, want)
		}
	})
}

func holdsNUL(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.IndexByte(v, 0) >= 0
	case []any:
		for _, e := range v {
			if holdsNUL(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if holdsNUL(k) || holdsNUL(e) {
				return true
			}
		}
	}
	return false
}
