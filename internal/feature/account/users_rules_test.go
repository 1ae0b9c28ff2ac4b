package account

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestUserQueryValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q, role string
		wantQ   string
		refused []string // the refused fields
	}{
		{"", "", "", nil},
		{"  Ada ", "admin", "Ada", nil},
		{"50%_off", "member", "50%_off", nil},
		{strings.Repeat("é", 100), "superadmin", strings.Repeat("é", 100), nil},
		{strings.Repeat("é", 101), "", strings.Repeat("é", 101), []string{"q"}},
		{"", "owner", "", []string{"role"}},
		{"", "Admin", "", []string{"role"}},
		{strings.Repeat("a", 101), "root", strings.Repeat("a", 101), []string{"q", "role"}},
	}
	for _, c := range cases {
		uq := UserQuery{Q: c.q, Role: c.role}
		f := uq.Validate()
		if got := slices.Sorted(maps.Keys(f)); !slices.Equal(got, c.refused) || uq.Q != c.wantQ {
			t.Errorf("q %q role %q: refused %v, q %q; want %v, %q", c.q, c.role, got, uq.Q, c.refused, c.wantQ)
		}
	}
}

// decodePatch reads body as the API does: unknown fields refused.
func decodePatch(body string) (UserPatch, error) {
	var p UserPatch
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	dec.DisallowUnknownFields()
	return p, dec.Decode(&p)
}

func TestUserPatchValidate(t *testing.T) {
	t.Parallel()
	term := uuid.NewString()
	cases := []struct {
		body    string
		refused map[string]string // field: reason; nil when valid
	}{
		{`{}`, nil},
		{`{"role":"admin"}`, nil},
		{`{"exec":null}`, nil},
		{`{"role":"member","exec":null}`, nil},
		{`{"exec":{"position":"President","term_id":"` + term + `"}}`, nil},
		{`{"exec":{"position":"Exec","subteam":null,"term_id":"` + term + `"}}`, nil},
		{`{"exec":{"position":"VP","subteam":" Design ","term_id":"` + term + `"}}`, nil},
		{`{"role":null}`, map[string]string{"role": "must be one of member, admin, superadmin"}},
		{`{"role":"owner"}`, map[string]string{"role": "must be one of member, admin, superadmin"}},
		{`{"exec":{}}`, map[string]string{"exec.position": "is required", "exec.term_id": "is required"}},
		{`{"exec":{"position":"president","term_id":"x"}}`, map[string]string{
			"exec.position": "must be one of President, VP, Exec", "exec.term_id": "must be a UUID"}},
		{`{"exec":{"position":"VP","term_id":"` + term + `"}}`, map[string]string{"exec.subteam": "is required for a VP"}},
		{`{"exec":{"position":"VP","subteam":"  ","term_id":"` + term + `"}}`, map[string]string{"exec.subteam": "must be 1 to 100 characters"}},
		{`{"exec":{"position":"Exec","subteam":"` + strings.Repeat("é", 101) + `","term_id":"` + term + `"}}`,
			map[string]string{"exec.subteam": "must be 1 to 100 characters"}},
	}
	for _, c := range cases {
		p, err := decodePatch(c.body)
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		f := p.Validate()
		if len(f) != len(c.refused) || (len(f) > 0 && !maps.Equal(map[string]string(f), c.refused)) {
			t.Errorf("%s: %v, want %v", c.body, f, c.refused)
		}
	}
}

func TestUserPatchDecodeStrict(t *testing.T) {
	t.Parallel()
	cases := map[string]string{ // body: the decoder's error
		`{"exec":{"position":"VP","extra":1}}`: `json: unknown field "exec.extra"`,
		`{"exec":"VP"}`:                        "json: cannot unmarshal string into Go struct field UserPatch.exec of type account.ExecInput",
		`{"exec":{"position":5}}`:              "json: cannot unmarshal number into Go struct field UserPatch.exec.position of type string",
		`{"admin":true}`:                       `json: unknown field "admin"`,
	}
	for body, want := range cases {
		if _, err := decodePatch(body); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", body, err, want)
		}
	}
}

func TestUserPatchChange(t *testing.T) {
	t.Parallel()
	term := uuid.New()
	cases := []struct {
		body string
		want Change
	}{
		{`{}`, Change{}},
		{`{"role":"superadmin"}`, Change{Role: "superadmin"}},
		{`{"exec":null}`, Change{Exec: "none"}},
		{`{"role":"admin","exec":{"position":"VP","subteam":" Design ","term_id":"` + term.String() + `"}}`,
			Change{Role: "admin", Exec: "VP", Subteam: "Design", TermID: &term}},
		{`{"exec":{"position":"President","term_id":"` + term.String() + `"}}`,
			Change{Exec: "President", TermID: &term}},
	}
	for _, c := range cases {
		p, err := decodePatch(c.body)
		if err != nil {
			t.Fatal(err)
		}
		if f := p.Validate(); len(f) != 0 {
			t.Fatalf("%s: %v", c.body, f)
		}
		got := p.change()
		if got.Role != c.want.Role || got.Exec != c.want.Exec || got.Subteam != c.want.Subteam ||
			(got.TermID == nil) != (c.want.TermID == nil) || (got.TermID != nil && *got.TermID != *c.want.TermID) {
			t.Errorf("%s: %+v, want %+v", c.body, got, c.want)
		}
		if got.Role != "" || got.Exec != "" {
			if err := got.Check(); err != nil {
				t.Errorf("%s: Grant would refuse %+v: %v", c.body, got, err)
			}
		}
	}
}
