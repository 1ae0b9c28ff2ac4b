package hackathon

import (
	"net/url"
	"strings"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// Limits of an edition's fields (the schema's CHECKs say the same).
const (
	MaxName     = 100
	MaxCapacity = 100000
	// MaxEventText bounds the venue and the waiver and feedback links.
	MaxEventText = 300
)

// isWebURL reports whether s is an absolute http(s) link with a host, of
// at most MaxEventText characters.
func isWebURL(s string) bool {
	if len([]rune(s)) > MaxEventText || strings.TrimSpace(s) != s {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

// applyText writes an optional text field: null (or blank) clears it.
func applyText(dst **string, fl patch.Field[string]) {
	if !fl.Set {
		return
	}
	v := strings.TrimSpace(fl.V)
	if fl.Null || v == "" {
		*dst = nil
		return
	}
	*dst = &v
}

// Input is the body of an edition's create (name and
// applications_open_at required) or patch (every field optional; null
// clears the close, the event dates and the capacity).
type Input struct {
	Name                patch.Field[string] `json:"name"`
	ApplicationsOpenAt  patch.Field[string] `json:"applications_open_at"`
	ApplicationsCloseAt patch.Field[string] `json:"applications_close_at"`
	StartsAt            patch.Field[string] `json:"starts_at"`
	EndsAt              patch.Field[string] `json:"ends_at"`
	Capacity            patch.Field[int32]  `json:"capacity"`
	Announce            patch.Field[bool]   `json:"announce"`
	Current             patch.Field[bool]   `json:"current"`
	Venue               patch.Field[string] `json:"venue"`
	WaiverURL           patch.Field[string] `json:"waiver_url"`
	FeedbackURL         patch.Field[string] `json:"feedback_url"`

	// Create is set by the caller for a create, before decoding.
	Create bool `json:"-"`
}

// times are the input's date-time fields by name.
func (b *Input) times() map[string]patch.Field[string] {
	return map[string]patch.Field[string]{
		"applications_open_at": b.ApplicationsOpenAt, "applications_close_at": b.ApplicationsCloseAt,
		"starts_at": b.StartsAt, "ends_at": b.EndsAt,
	}
}

// Validate checks each field on its own; the order of the dates is checked
// once the input is applied to the edition (Apply).
func (b *Input) Validate() apperr.Fields {
	f := apperr.Fields{}
	if b.Create {
		if !b.Name.Value() {
			f.Add("name", "is required")
		}
		if !b.ApplicationsOpenAt.Value() {
			f.Add("applications_open_at", "is required")
		}
	} else {
		for name, fl := range map[string]bool{"name": b.Name.Set && b.Name.Null,
			"applications_open_at": b.ApplicationsOpenAt.Set && b.ApplicationsOpenAt.Null} {
			if fl {
				f.Add(name, "cannot be null")
			}
		}
	}
	if b.Announce.Set && b.Announce.Null {
		f.Add("announce", "cannot be null")
	}
	if b.Current.Set && (b.Current.Null || (!b.Current.V && !b.Create)) {
		f.Add("current", "can only be set to true (make another edition current to move the flag)")
	}
	if b.Name.Value() {
		if n := len([]rune(strings.TrimSpace(b.Name.V))); n < 1 || n > MaxName {
			f.Add("name", "must be 1 to 100 characters")
		}
	}
	for name, fl := range b.times() {
		if fl.Value() {
			if _, err := time.Parse(time.RFC3339, fl.V); err != nil {
				f.Add(name, "must be an RFC 3339 date-time")
			}
		}
	}
	if b.Venue.Value() {
		if n := len([]rune(strings.TrimSpace(b.Venue.V))); n < 1 || n > MaxEventText {
			f.Add("venue", "must be 1 to 300 characters")
		}
	}
	for name, fl := range map[string]patch.Field[string]{"waiver_url": b.WaiverURL, "feedback_url": b.FeedbackURL} {
		if fl.Value() && !isWebURL(fl.V) {
			f.Add(name, "must be an http or https link of at most 300 characters")
		}
	}
	if b.Capacity.Value() && (b.Capacity.V < 1 || b.Capacity.V > MaxCapacity) {
		f.Add("capacity", "must be from 1 to 100000")
	}
	return f
}

// makesCurrent reports whether the input makes the edition the current one.
func (b *Input) makesCurrent() bool { return b.Current.Value() && b.Current.V }

func applyTime(dst **time.Time, fl patch.Field[string]) {
	if !fl.Set {
		return
	}
	if fl.Null {
		*dst = nil
		return
	}
	t, _ := time.Parse(time.RFC3339, fl.V)
	t = t.Truncate(time.Microsecond) // what PostgreSQL keeps
	*dst = &t
}

// Apply writes the (validated) input onto h and checks the order of the
// dates that are set: open < close <= starts < ends. The error is a 400
// naming the later field of the first pair out of order.
func (b *Input) Apply(h *db.Hackathon) error {
	if b.Name.Set {
		h.Name = strings.TrimSpace(b.Name.V)
	}
	if b.ApplicationsOpenAt.Value() {
		var opens *time.Time
		applyTime(&opens, b.ApplicationsOpenAt)
		h.ApplicationsOpenAt = *opens
	}
	applyTime(&h.ApplicationsCloseAt, b.ApplicationsCloseAt)
	applyTime(&h.StartsAt, b.StartsAt)
	applyTime(&h.EndsAt, b.EndsAt)
	if b.Capacity.Set {
		h.Capacity = nil
		if !b.Capacity.Null {
			c := b.Capacity.V
			h.Capacity = &c
		}
	}
	if b.Announce.Value() {
		h.Announce = b.Announce.V
	}
	applyText(&h.Venue, b.Venue)
	applyText(&h.WaiverUrl, b.WaiverURL)
	applyText(&h.FeedbackUrl, b.FeedbackURL)
	return CheckOrder(*h).Err()
}

// CheckOrder checks the order of h's dates: the close after the opening,
// the event's start not before the close (and after the opening), its end
// after every other date. Unset dates are skipped.
func CheckOrder(h db.Hackathon) apperr.Fields {
	f := apperr.Fields{}
	dates := []struct {
		name string
		at   *time.Time
	}{
		{"applications_open_at", &h.ApplicationsOpenAt},
		{"applications_close_at", h.ApplicationsCloseAt},
		{"starts_at", h.StartsAt},
		{"ends_at", h.EndsAt},
	}
	for i, later := range dates {
		if later.at == nil {
			continue
		}
		for _, earlier := range dates[:i] {
			if earlier.at == nil {
				continue
			}
			// Only the event may start the moment applications close.
			mayEqual := later.name == "starts_at" && earlier.name == "applications_close_at"
			if later.at.Before(*earlier.at) || (!mayEqual && later.at.Equal(*earlier.at)) {
				f.Add(later.name, "must be after "+earlier.name)
			}
		}
	}
	return f
}
