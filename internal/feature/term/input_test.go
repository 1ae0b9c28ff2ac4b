package term

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

func decodeInput(t *testing.T, create bool, body string) *Input {
	t.Helper()
	in := &Input{Create: create}
	if err := json.Unmarshal([]byte(body), in); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return in
}

func TestInputValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		create bool
		body   string
		want   []string
	}{
		{true, `{"name":"2026-2027","starts_on":"2026-09-01","ends_on":"2027-08-31"}`, nil},
		{true, `{"name":"T","starts_on":"2026-09-01","ends_on":"2027-08-31","active":true,
			"onboarding_opens_at":"2026-09-01T09:00:00-04:00","onboarding_closes_at":"2026-09-15T17:00:00Z"}`, nil},
		{true, `{}`, []string{"ends_on", "name", "starts_on"}},
		{true, `{"name":null,"starts_on":"2026-09-01","ends_on":"2027-08-31"}`, []string{"name"}},
		{true, `{"name":"  ","starts_on":"1 Sept","ends_on":"2027-08-31"}`, []string{"name", "starts_on"}},
		{true, `{"name":"T","starts_on":"2026-09-01","ends_on":"2027-08-31","returning_opens_at":"tomorrow"}`, []string{"returning_opens_at"}},
		{false, `{}`, nil},
		{false, `{"onboarding_opens_at":null,"onboarding_closes_at":null,"active":true}`, nil},
		{false, `{"name":null,"ends_on":null}`, []string{"ends_on", "name"}},
		{false, `{"active":false}`, []string{"active"}},
		{false, `{"active":null}`, []string{"active"}},
	} {
		got := decodeInput(t, c.create, c.body).Validate()
		if k := slices.Sorted(maps.Keys(got)); !slices.Equal(k, c.want) {
			t.Errorf("create=%v %s: failing %v, want %v", c.create, c.body, got, c.want)
		}
	}
}

func TestInputApplyRules(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time { d, _ := time.Parse(DateLayout, s); return d }
	at := func(s string) *time.Time { v, _ := time.Parse(time.RFC3339, s); return &v }
	stored := db.Term{Name: "T", StartsOn: day("2026-09-01"), EndsOn: day("2027-08-31"),
		OnboardingOpensAt: at("2026-09-01T00:00:00Z"), OnboardingClosesAt: at("2026-09-15T00:00:00Z")}
	for _, c := range []struct {
		body string
		want string // the failing field, "" for none
	}{
		{`{"name":"  Renamed  "}`, ""},
		{`{"ends_on":"2026-09-01"}`, "ends_on"},
		{`{"starts_on":"2027-09-01"}`, "ends_on"},
		{`{"onboarding_closes_at":null}`, "onboarding_closes_at"},
		{`{"onboarding_opens_at":null,"onboarding_closes_at":null}`, ""},
		{`{"onboarding_closes_at":"2026-09-01T00:00:00Z"}`, "onboarding_closes_at"},
		{`{"returning_opens_at":"2026-08-01T00:00:00Z"}`, "returning_closes_at"},
		{`{"returning_opens_at":"2026-08-01T00:00:00Z","returning_closes_at":"2026-08-10T00:00:00Z"}`, ""},
	} {
		tm := stored
		err := decodeInput(t, false, c.body).Apply(&tm)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.want != "" && (err == nil || !containsField(err, c.want)):
			t.Errorf("%s: %v, want a failure on %s", c.body, err, c.want)
		}
	}
	tm := stored
	if err := decodeInput(t, false, `{"name":"  Renamed  "}`).Apply(&tm); err != nil || tm.Name != "Renamed" {
		t.Errorf("name %q, %v", tm.Name, err)
	}
}

// containsField reports whether err is a 400 failing field.
func containsField(err error, field string) bool {
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.Invalid {
		return false
	}
	_, ok = e.Details[field]
	return ok
}

func TestWindowsChanged(t *testing.T) {
	t.Parallel()
	a := time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)
	same := a.In(time.FixedZone("EDT", -4*3600))
	later := a.Add(time.Microsecond)
	sub := a.Add(time.Nanosecond) // below what the database keeps
	for _, c := range []struct {
		name          string
		before, after db.Term
		want          bool
	}{
		{"none", db.Term{}, db.Term{}, false},
		{"same instant, other zone", db.Term{OnboardingOpensAt: &a}, db.Term{OnboardingOpensAt: &same}, false},
		{"below a microsecond", db.Term{ReturningClosesAt: &a}, db.Term{ReturningClosesAt: &sub}, false},
		{"a microsecond later", db.Term{ReturningClosesAt: &a}, db.Term{ReturningClosesAt: &later}, true},
		{"set", db.Term{}, db.Term{OnboardingClosesAt: &a}, true},
		{"cleared", db.Term{ReturningOpensAt: &a}, db.Term{}, true},
		{"name only", db.Term{Name: "a"}, db.Term{Name: "b"}, false},
	} {
		if got := WindowsChanged(c.before, c.after); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
