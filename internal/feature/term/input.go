package term

import (
	"strings"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// Input is the body of a term create (every field but the windows and
// active required) or patch (every field optional; null clears a window).
type Input struct {
	Name               patch.Field[string] `json:"name"`
	StartsOn           patch.Field[string] `json:"starts_on"`
	EndsOn             patch.Field[string] `json:"ends_on"`
	OnboardingOpensAt  patch.Field[string] `json:"onboarding_opens_at"`
	OnboardingClosesAt patch.Field[string] `json:"onboarding_closes_at"`
	ReturningOpensAt   patch.Field[string] `json:"returning_opens_at"`
	ReturningClosesAt  patch.Field[string] `json:"returning_closes_at"`
	Active             patch.Field[bool]   `json:"active"`

	// Create is set by the caller for a create, before decoding.
	Create bool `json:"-"`
}

// Validate checks each field on its own; the rules between fields are
// checked once the input is applied to the term (Apply).
func (b *Input) Validate() apperr.Fields {
	f := apperr.Fields{}
	dates := map[string]patch.Field[string]{"name": b.Name, "starts_on": b.StartsOn, "ends_on": b.EndsOn}
	if b.Create {
		for name, fl := range dates {
			if !fl.Set || fl.Null {
				f.Add(name, "is required")
			}
		}
	} else {
		for name, fl := range dates {
			if fl.Set && fl.Null {
				f.Add(name, "cannot be null")
			}
		}
		if b.Active.Set && (b.Active.Null || !b.Active.V) {
			f.Add("active", "can only be set to true (activate another term to move the flag)")
		}
	}
	if b.Name.Value() {
		if n := len([]rune(strings.TrimSpace(b.Name.V))); n < 1 || n > 100 {
			f.Add("name", "must be 1 to 100 characters")
		}
	}
	for name, fl := range map[string]patch.Field[string]{"starts_on": b.StartsOn, "ends_on": b.EndsOn} {
		if fl.Value() {
			if _, err := time.Parse(DateLayout, fl.V); err != nil {
				f.Add(name, "must be a date (YYYY-MM-DD)")
			}
		}
	}
	for name, fl := range map[string]patch.Field[string]{
		"onboarding_opens_at": b.OnboardingOpensAt, "onboarding_closes_at": b.OnboardingClosesAt,
		"returning_opens_at": b.ReturningOpensAt, "returning_closes_at": b.ReturningClosesAt} {
		if fl.Value() {
			if _, err := time.Parse(time.RFC3339, fl.V); err != nil {
				f.Add(name, "must be an RFC 3339 date-time")
			}
		}
	}
	return f
}

// activates reports whether the input makes the term the active one.
func (b *Input) activates() bool { return b.Active.Value() && b.Active.V }

func applyDate(dst *time.Time, fl patch.Field[string]) {
	if fl.Value() {
		*dst, _ = time.Parse(DateLayout, fl.V)
	}
}

func applyTime(dst **time.Time, fl patch.Field[string]) {
	if !fl.Set {
		return
	}
	if fl.Null {
		*dst = nil
		return
	}
	t, _ := time.Parse(time.RFC3339, fl.V)
	t = t.Truncate(time.Microsecond)
	*dst = &t
}

// Apply writes the (validated) input onto t and checks the rules between
// fields: the term ends after it starts, and each window is both times or
// neither and opens before it closes. The error is a 400 naming the
// field at fault.
func (b *Input) Apply(t *db.Term) error {
	if b.Name.Set {
		t.Name = strings.TrimSpace(b.Name.V)
	}
	applyDate(&t.StartsOn, b.StartsOn)
	applyDate(&t.EndsOn, b.EndsOn)
	applyTime(&t.OnboardingOpensAt, b.OnboardingOpensAt)
	applyTime(&t.OnboardingClosesAt, b.OnboardingClosesAt)
	applyTime(&t.ReturningOpensAt, b.ReturningOpensAt)
	applyTime(&t.ReturningClosesAt, b.ReturningClosesAt)
	f := apperr.Fields{}
	if !t.EndsOn.After(t.StartsOn) {
		f.Add("ends_on", "must be after starts_on")
	}
	window := func(name string, open, close *time.Time) {
		switch {
		case (open == nil) != (close == nil):
			f.Add(name+"_closes_at", "a window needs both its open and close times")
		case open != nil && !open.Before(*close):
			f.Add(name+"_closes_at", "must be after "+name+"_opens_at")
		}
	}
	window("onboarding", t.OnboardingOpensAt, t.OnboardingClosesAt)
	window("returning", t.ReturningOpensAt, t.ReturningClosesAt)
	return f.Err()
}

// WindowsChanged reports whether any of the four window times differ
// between two versions of a term (to the microsecond the database keeps).
func WindowsChanged(before, after db.Term) bool {
	return windowsOf(before) != windowsOf(after)
}

// windowTimes are a term's four window times, comparable.
type windowTimes [4]int64

func unixMicro(t *time.Time) int64 {
	if t == nil {
		return -1 << 62
	}
	return t.UnixMicro()
}

func windowsOf(t db.Term) windowTimes {
	return windowTimes{unixMicro(t.OnboardingOpensAt), unixMicro(t.OnboardingClosesAt),
		unixMicro(t.ReturningOpensAt), unixMicro(t.ReturningClosesAt)}
}
