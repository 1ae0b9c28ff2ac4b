package hackathon

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

func tp(t time.Time) *time.Time { return &t }

var (
	opens  = time.Date(2027, 1, 10, 17, 0, 0, 0, time.UTC)
	closes = time.Date(2027, 2, 1, 5, 0, 0, 0, time.UTC)
	starts = time.Date(2027, 2, 20, 14, 0, 0, 0, time.UTC)
	ends   = time.Date(2027, 2, 22, 14, 0, 0, 0, time.UTC)
)

func TestPhaseAt(t *testing.T) {
	t.Parallel()
	full := db.Hackathon{Name: "H", ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes, StartsAt: &starts, EndsAt: &ends}
	bare := db.Hackathon{Name: "H", ApplicationsOpenAt: opens}
	for _, c := range []struct {
		name string
		h    db.Hackathon
		at   time.Time
		want Phase
	}{
		{"BeforeOpening", full, opens.Add(-time.Second), Upcoming},
		{"AtOpening", full, opens, Open},
		{"JustBeforeClose", full, closes.Add(-time.Nanosecond), Open},
		{"AtClose", full, closes, Closed},
		{"AtStart", full, starts, Running},
		{"AtEnd", full, ends, Over},
		{"NoCloseOpenForGood", bare, ends.AddDate(5, 0, 0), Open},
		{"NoEventDatesClosed", db.Hackathon{ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes}, ends, Closed},
		{"EndOnlyOver", db.Hackathon{ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes, EndsAt: &ends}, ends, Over},
	} {
		if got := PhaseAt(c.h, c.at); got != c.want {
			t.Errorf("%s: PhaseAt = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestWindowAt(t *testing.T) {
	t.Parallel()
	h := db.Hackathon{Name: "HackMUN 2027", ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes}
	for _, c := range []struct {
		name    string
		h       db.Hackathon
		at      time.Time
		open    bool
		message string
	}{
		{"Before", h, opens.Add(-time.Hour), false, "Applications for HackMUN 2027 open 10 January 2027 17:00 UTC"},
		{"AtOpening", h, opens, true, ""},
		{"OneSecondBeforeClose", h, closes.Add(-time.Second), true, ""},
		{"AtClose", h, closes, false, "Applications for HackMUN 2027 closed on 1 February 2027 05:00 UTC"},
		{"OneSecondAfterClose", h, closes.Add(time.Second), false, "Applications for HackMUN 2027 closed on 1 February 2027 05:00 UTC"},
		{"NoClose", db.Hackathon{Name: "Hackathon", ApplicationsOpenAt: opens}, closes.AddDate(3, 0, 0), true, ""},
		{"InAnotherZone", h, closes.In(time.FixedZone("NST", -(3*3600 + 1800))), false,
			"Applications for HackMUN 2027 closed on 1 February 2027 05:00 UTC"},
	} {
		w := WindowAt(c.h, c.at)
		if w.Open != c.open || w.Message != c.message {
			t.Errorf("%s: %+v, want open %v %q", c.name, w, c.open, c.message)
		}
		err := w.Err()
		e, _ := apperr.As(err)
		switch {
		case c.open && err != nil:
			t.Errorf("%s: open window errs %v", c.name, err)
		case !c.open && (e == nil || e.Code != apperr.Forbidden || e.Title != "Applications are closed" || e.Message != c.message):
			t.Errorf("%s: closed window's error %v", c.name, err)
		}
	}
}

func TestCheckOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		h    db.Hackathon
		want apperr.Fields
	}{
		{"AllInOrder", db.Hackathon{ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes, StartsAt: &starts, EndsAt: &ends}, apperr.Fields{}},
		{"OpeningOnly", db.Hackathon{ApplicationsOpenAt: opens}, apperr.Fields{}},
		{"StartsAtTheClose", db.Hackathon{ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes, StartsAt: &closes}, apperr.Fields{}},
		{"CloseBeforeOpening", db.Hackathon{ApplicationsOpenAt: closes, ApplicationsCloseAt: &opens},
			apperr.Fields{"applications_close_at": "must be after applications_open_at"}},
		{"CloseAtOpening", db.Hackathon{ApplicationsOpenAt: opens, ApplicationsCloseAt: &opens},
			apperr.Fields{"applications_close_at": "must be after applications_open_at"}},
		{"StartsBeforeClose", db.Hackathon{ApplicationsOpenAt: opens, ApplicationsCloseAt: &starts, StartsAt: &closes},
			apperr.Fields{"starts_at": "must be after applications_close_at"}},
		{"EndsAtStart", db.Hackathon{ApplicationsOpenAt: opens, StartsAt: &starts, EndsAt: &starts},
			apperr.Fields{"ends_at": "must be after starts_at"}},
		{"EndsBeforeOpeningWithoutOthers", db.Hackathon{ApplicationsOpenAt: ends, EndsAt: &opens},
			apperr.Fields{"ends_at": "must be after applications_open_at"}},
	} {
		if got := CheckOrder(c.h); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// decodeInput reads a body as the handler would (without Validate).
func decodeInput(t *testing.T, create bool, body string) *Input {
	t.Helper()
	in := &Input{Create: create}
	if err := json.Unmarshal([]byte(body), in); err != nil {
		t.Fatal(err)
	}
	return in
}

func TestInputValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		create bool
		body   string
		want   apperr.Fields
	}{
		{"CreateMinimal", true, `{"name":"HackMUN 2027","applications_open_at":"2027-01-10T17:00:00Z"}`, apperr.Fields{}},
		{"CreateNeedsNameAndOpening", true, `{}`, apperr.Fields{"name": "is required", "applications_open_at": "is required"}},
		{"CreateMayStartCurrent", true, `{"name":"H","applications_open_at":"2027-01-10T17:00:00Z","current":true}`, apperr.Fields{}},
		{"PatchEmpty", false, `{}`, apperr.Fields{}},
		{"PatchNullName", false, `{"name":null,"applications_open_at":null}`,
			apperr.Fields{"name": "cannot be null", "applications_open_at": "cannot be null"}},
		{"PatchCurrentFalse", false, `{"current":false}`,
			apperr.Fields{"current": "can only be set to true (make another edition current to move the flag)"}},
		{"BlankName", false, `{"name":"   "}`, apperr.Fields{"name": "must be 1 to 100 characters"}},
		{"LongName", false, `{"name":"` + strings.Repeat("x", 101) + `"}`, apperr.Fields{"name": "must be 1 to 100 characters"}},
		{"BadTime", false, `{"applications_close_at":"tomorrow"}`, apperr.Fields{"applications_close_at": "must be an RFC 3339 date-time"}},
		{"ClearClose", false, `{"applications_close_at":null,"capacity":null}`, apperr.Fields{}},
		{"CapacityZero", false, `{"capacity":0}`, apperr.Fields{"capacity": "must be from 1 to 100000"}},
		{"AnnounceNull", false, `{"announce":null}`, apperr.Fields{"announce": "cannot be null"}},
	} {
		if got := decodeInput(t, c.create, c.body).Validate(); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestInputApply(t *testing.T) {
	t.Parallel()
	h := db.Hackathon{Name: "Old", ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes, Capacity: new(int32)}
	in := decodeInput(t, false, `{"name":" New ","applications_close_at":null,"starts_at":"2027-02-20T14:00:00.123456789Z","capacity":null,"announce":true}`)
	if f := in.Validate(); len(f) != 0 {
		t.Fatal(f)
	}
	if err := in.Apply(&h); err != nil {
		t.Fatal(err)
	}
	if h.Name != "New" || h.ApplicationsCloseAt != nil || h.Capacity != nil || !h.Announce ||
		h.StartsAt == nil || !h.StartsAt.Equal(starts.Add(123456*time.Microsecond)) {
		t.Fatalf("applied %+v", h)
	}
	bad := decodeInput(t, false, `{"ends_at":"2027-01-01T00:00:00Z"}`)
	err := bad.Apply(&h)
	if e, ok := apperr.As(err); !ok || e.Details["ends_at"] != "must be after applications_open_at" {
		t.Fatalf("ends before the opening: %v", err)
	}
}

func TestWindowChanged(t *testing.T) {
	t.Parallel()
	base := db.Hackathon{Name: "H", ApplicationsOpenAt: opens, ApplicationsCloseAt: &closes, Capacity: new(int32)}
	same := base
	same.Name, same.Capacity, same.StartsAt = "Renamed", nil, &starts
	if WindowChanged(base, same) {
		t.Error("a new name, capacity or event date changed the window")
	}
	for name, change := range map[string]func(*db.Hackathon){
		"Opening":      func(h *db.Hackathon) { h.ApplicationsOpenAt = opens.Add(time.Microsecond) },
		"Close":        func(h *db.Hackathon) { h.ApplicationsCloseAt = tp(closes.Add(time.Hour)) },
		"CloseCleared": func(h *db.Hackathon) { h.ApplicationsCloseAt = nil },
		"Announce":     func(h *db.Hackathon) { h.Announce = true },
	} {
		after := base
		change(&after)
		if !WindowChanged(base, after) {
			t.Errorf("%s: not seen as a change", name)
		}
	}
}

func TestOverCapacity(t *testing.T) {
	t.Parallel()
	e, ok := apperr.As(OverCapacity(41, 40))
	if !ok || e.Code != apperr.Conflict || e.Title != "Over capacity" || e.Message != "41 offers and attending would pass the capacity of 40" {
		t.Fatalf("%+v", e)
	}
}
