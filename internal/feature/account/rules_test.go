package account

import (
	"errors"
	"strings"
	"testing"
	"time"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	login := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	stored := login.Add(SessionAbsolute) // what login writes
	h := time.Hour
	cases := []struct {
		name     string
		role     string
		lastSeen time.Duration // after login
		stored   time.Time
		want     time.Duration // after login
	}{
		{"member fresh: idle from login", "member", 0, stored, 7 * 24 * h},
		{"member used lately: idle from last use", "member", 10 * 24 * h, stored, 17 * 24 * h},
		{"member near the end: absolute", "member", 29 * 24 * h, stored, 30 * 24 * h},
		{"admin fresh: 12 h idle", "admin", 0, stored, 12 * h},
		{"admin used lately", "admin", 3 * 24 * h, stored, 3*24*h + 12*h},
		{"admin near the end: 7 days absolute", "admin", 6*24*h + 20*h, stored, 7 * 24 * h},
		{"superadmin like admin", "superadmin", 0, stored, 12 * h},
		{"a stored limit earlier than the role's wins", "member", 0, login.Add(24 * h), 24 * h},
		// A member's 10-day-old session promoted to admin is past the
		// admin's absolute limit.
		{"promoted: the stricter limit at once", "admin", 10 * 24 * h, stored, 7 * 24 * h},
	}
	for _, c := range cases {
		got := SessionExpiry(c.role, login, login.Add(c.lastSeen), c.stored)
		if want := login.Add(c.want); !got.Equal(want) {
			t.Errorf("%s: expiry at login+%v, want login+%v", c.name, got.Sub(login), c.want)
		}
	}
}

func TestCheckRoleChange(t *testing.T) {
	t.Parallel()
	cases := []struct {
		from, to    string
		superadmins int
		refused     bool
	}{
		{"superadmin", "member", 1, true},
		{"superadmin", "admin", 1, true},
		{"superadmin", "admin", 2, false},
		{"superadmin", "superadmin", 1, false},
		{"admin", "member", 0, false},
		{"member", "superadmin", 0, false},
		{"admin", "member", 1, false},
	}
	for _, c := range cases {
		err := CheckRoleChange(c.from, c.to, c.superadmins)
		if (err != nil) != c.refused || (err != nil && !errors.Is(err, ErrLastSuperadmin)) {
			t.Errorf("%s → %s with %d superadmins: %v, refused %v", c.from, c.to, c.superadmins, err, c.refused)
		}
	}
	if e, ok := apperr.As(ErrLastSuperadmin); !ok || e.Code != apperr.Conflict {
		t.Fatalf("ErrLastSuperadmin is %v, want a 409", ErrLastSuperadmin)
	}
}

func TestChangeCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		c   Change
		err string // "" when valid
	}{
		{Change{Role: "admin"}, ""},
		{Change{Exec: "President"}, ""},
		{Change{Exec: "none"}, ""},
		{Change{Exec: "VP", Subteam: "Tech"}, ""},
		{Change{Exec: "Exec", Term: "2026-2027"}, ""},
		{Change{}, "give --role and/or --exec"},
		{Change{Role: "owner"}, "--role must be one of member, admin, superadmin"},
		{Change{Exec: "Treasurer"}, "--exec must be President, VP, Exec or none"},
		{Change{Exec: "VP", Subteam: "  "}, "a VP needs --subteam"},
		{Change{Role: "admin", Term: "2026-2027"}, "--term goes with --exec President, VP or Exec"},
		{Change{Exec: "none", Term: "2026-2027"}, "--term goes with --exec President, VP or Exec"},
	}
	for _, c := range cases {
		err := c.c.Check()
		if got := errString(err); got != c.err {
			t.Errorf("%+v: %q, want %q", c.c, got, c.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestParseSearch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q, limit string
		want     Search
		field    string // the refused field, "" when accepted
	}{
		{"Ada", "", Search{Q: "ada", Limit: 8}, ""},
		{"  ADA@x ", "50", Search{Q: "ada@x", Email: true, Limit: 8}, ""}, // at most 8 rows whatever the limit
		{"a@b", "", Search{Q: "a@b", Email: true, Limit: 8}, ""},          // an address is compared whole
		{"ada", "1", Search{Q: "ada", Limit: 1}, ""},
		{"ada", "8", Search{Q: "ada", Limit: 8}, ""},
		{"Ada  Love", "", Search{Q: "ada love", Limit: 8}, ""},
		{"ada.lo", "", Search{Q: "ada lo", Limit: 8}, ""},
		{" O'Neil-Br ", "", Search{Q: "o neil br", Limit: 8}, ""},
		{"ab", "", Search{}, "q"},
		{" ab ", "", Search{}, "q"},
		{"a.b", "", Search{}, "q"}, // "a b": 3 characters with the space, but one of them is
		{"...", "", Search{}, "q"},
		{"ada\u202e", "", Search{}, "q"},
		{"ada\tlove", "", Search{}, "q"},
		{"%%%", "", Search{Q: "%%%", Limit: 8}, ""}, // matched literally
		{"éé", "", Search{}, "q"},                   // two characters, four bytes
		{"ééé", "", Search{Q: "ééé", Limit: 8}, ""},
		{strings.Repeat("a", 101), "", Search{}, "q"},
		{"ada", "0", Search{}, "limit"},
		{"ada", "51", Search{}, "limit"},
		{"ada", "ten", Search{}, "limit"},
		{"ab", "ten", Search{}, "limit"}, // the limit is checked first
	}
	for _, c := range cases {
		got, err := ParseSearch(c.q, c.limit)
		if c.field == "" {
			if err != nil || got != c.want {
				t.Errorf("ParseSearch(%q, %q) = %+v, %v; want %+v", c.q, c.limit, got, err, c.want)
			}
			continue
		}
		e, ok := apperr.As(err)
		if !ok || len(e.Details) != 1 || e.Details[c.field] == "" {
			t.Errorf("ParseSearch(%q, %q): %v, want a refusal of %s", c.q, c.limit, err, c.field)
		}
	}
}

func TestProfilePatchValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		p     ProfilePatch
		field string
		want  string // the display name after validation
	}{
		{"nothing", ProfilePatch{}, "", ""},
		{"name trimmed", ProfilePatch{DisplayName: patch.Field[string]{Set: true, V: "  Ada "}}, "", "Ada"},
		{"blank name", ProfilePatch{DisplayName: patch.Field[string]{Set: true, V: "  "}}, "display_name", ""},
		{"null name", ProfilePatch{DisplayName: patch.Field[string]{Set: true, Null: true}}, "display_name", ""},
		{"opt-in", ProfilePatch{MarketingOptIn: patch.Field[bool]{Set: true, V: true}}, "", ""},
		{"null opt-in", ProfilePatch{MarketingOptIn: patch.Field[bool]{Set: true, Null: true}}, "marketing_opt_in", ""},
	}
	for _, c := range cases {
		f := c.p.Validate()
		switch {
		case c.field == "" && len(f) != 0, c.field != "" && (len(f) != 1 || f[c.field] == ""):
			t.Errorf("%s: fields %v, want a refusal of %q", c.name, f, c.field)
		case c.field == "" && c.p.DisplayName.V != c.want:
			t.Errorf("%s: name %q, want %q", c.name, c.p.DisplayName.V, c.want)
		}
	}
}

func TestRequestsValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		v      interface{ Validate() apperr.Fields }
		fields []string
	}{
		{"signup", &SignupRequest{Email: " ada@example.com ", Password: "analytical-engine", DisplayName: "Ada"}, nil},
		{"signup refused", &SignupRequest{Email: "x", Password: "short", DisplayName: ""}, []string{"email", "display_name", "password"}},
		{"signup password like the email", &SignupRequest{Email: "lovelace@example.com", Password: "lovelace@example.com", DisplayName: "Ada"}, []string{"password"}},
		{"login", &LoginRequest{Email: "x", Password: "y"}, nil},
		{"login empty", &LoginRequest{Email: " ", Password: ""}, []string{"email", "password"}},
		{"token blank", &TokenRequest{Token: " "}, []string{"token"}},
		{"forgot blank", &ForgotRequest{Email: ""}, []string{"email"}},
		{"reset", &ResetRequest{Token: "t", Password: "a long enough one"}, nil},
		{"reset refused", &ResetRequest{Token: "", Password: "short"}, []string{"token", "password"}},
	}
	for _, c := range cases {
		f := c.v.Validate()
		if len(f) != len(c.fields) {
			t.Errorf("%s: fields %v, want %v", c.name, f, c.fields)
		}
		for _, k := range c.fields {
			if f[k] == "" {
				t.Errorf("%s: %s accepted", c.name, k)
			}
		}
	}
	s := SignupRequest{Email: " ada@example.com ", Password: "analytical-engine", DisplayName: " Ada "}
	if s.Validate(); s.Email != "ada@example.com" || s.DisplayName != "Ada" {
		t.Errorf("signup not normalized: %+v", s)
	}
}
