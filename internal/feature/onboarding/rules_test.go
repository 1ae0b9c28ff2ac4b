package onboarding

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

func TestKindNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind                    Kind
		valid                   bool
		title, formName, pathIs string
	}{
		{Onboarding, true, "Onboarding", "The onboarding form", "/onboarding"},
		{Returning, true, "The returning-exec form", "The returning-exec form", "/onboarding/returning"},
		{"other", false, "Onboarding", "The onboarding form", "/onboarding"},
	}
	for _, c := range cases {
		if c.kind.Valid() != c.valid || c.kind.Title() != c.title || c.kind.FormName() != c.formName || c.kind.Path() != c.pathIs {
			t.Errorf("%q: valid %v title %q form %q path %q", c.kind, c.kind.Valid(), c.kind.Title(), c.kind.FormName(), c.kind.Path())
		}
	}
}

func TestParseKind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want Kind
		bad  bool
	}{
		{"", Onboarding, false},
		{"onboarding", Onboarding, false},
		{"returning", Returning, false},
		{"Returning", "", true},
		{"all", "", true},
	}
	for _, c := range cases {
		got, err := ParseKind(c.in)
		if c.bad {
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.Invalid || e.Details["kind"] != "must be onboarding or returning" {
				t.Errorf("ParseKind(%q) error %v, want a kind validation error", c.in, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseKind(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestDatesOf(t *testing.T) {
	t.Parallel()
	a, b, c, d := time.Unix(1, 0), time.Unix(2, 0), time.Unix(3, 0), time.Unix(4, 0)
	dates := DatesOf(db.Term{OnboardingOpensAt: &a, OnboardingClosesAt: &b, ReturningOpensAt: &c, ReturningClosesAt: &d})
	if o, cl := dates.Of(Onboarding); o != &a || cl != &b {
		t.Errorf("onboarding window %v %v", o, cl)
	}
	if o, cl := dates.Of(Returning); o != &c || cl != &d {
		t.Errorf("returning window %v %v", o, cl)
	}
	if o, cl := DatesOf(db.Term{}).Of(Returning); o != nil || cl != nil {
		t.Errorf("unscheduled window %v %v", o, cl)
	}
}

func TestDropped(t *testing.T) {
	t.Parallel()
	jpg, png, jpg2 := "k.jpg", "k.png", "k.jpg"
	cases := []struct {
		name     string
		old, now *string
		want     *string
	}{
		{"none before", nil, &jpg, nil},
		{"none at all", nil, nil, nil},
		{"same key", &jpg, &jpg2, nil},
		{"replaced", &jpg, &png, &jpg},
		{"removed", &png, nil, &png},
	}
	for _, c := range cases {
		got := Dropped(c.old, c.now)
		if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
			t.Errorf("%s: Dropped = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCheckHeadshot(t *testing.T) {
	t.Parallel()
	if img, err := CheckHeadshot([]byte{0xFF, 0xD8, 0xFF, 0xE0}); err != nil || img.ContentType != "image/jpeg" {
		t.Errorf("jpeg: %v %v", img, err)
	}
	if _, err := CheckHeadshot([]byte("GIF89a")); !errors.Is(err, ErrHeadshotType) {
		t.Errorf("gif: %v, want ErrHeadshotType", err)
	}
}

func TestEmailKeys(t *testing.T) {
	t.Parallel()
	term, p := uuid.MustParse("11111111-1111-1111-1111-111111111111"), uuid.MustParse("22222222-2222-2222-2222-222222222222")
	n := Notice{TermID: term, Kind: Returning, ClosesAt: time.Unix(1700000000, 0)}
	if got := AnnounceKey(n, p); got != "term-window:"+term.String()+":returning:open:"+p.String() {
		t.Error(got)
	}
	if got := ReminderKey(n, p); got != "term-window:"+term.String()+":returning:remind:1700000000:"+p.String() {
		t.Error(got)
	}
}

func TestExportFilename(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"2026-2027":     "2026-2027-onboarding.csv",
		"Fall 2026":     "Fall_2026-onboarding.csv",
		`a"b/c\d`:       "a_b_c_d-onboarding.csv",
		"Été":           "_t_-onboarding.csv",
		"x\r\nContent:": "x__Content_-onboarding.csv",
	}
	for in, want := range cases {
		if got := ExportFilename(in, Onboarding, "csv"); got != want {
			t.Errorf("ExportFilename(%q) = %q, want %q", in, got, want)
		}
	}
}

// row is a review list row with the given name, key and subteam.
func row(name string, key *string, subteam string) db.ExecFormSubmissionListRow {
	at := time.Date(2026, 9, 2, 10, 0, 0, 0, time.FixedZone("X", -3*3600))
	return db.ExecFormSubmissionListRow{ID: uuid.New(), ProfileID: uuid.New(), Kind: "onboarding", DisplayName: name,
		Email: "a@example.com", Role: "VP", TermType: "fall", HeadshotKey: key, HeadshotConsent: key != nil,
		ChatHandle: "@ada", PhotoHandle: "-ada", DsCompetency: "none", SubmittedAt: at, UpdatedAt: at.Add(time.Hour), Subteam: subteam}
}

func TestCSVRow(t *testing.T) {
	t.Parallel()
	key := "headshots/t/onboarding/p.jpg"
	r := row("=HYPERLINK(1)", &key, "web")
	got := CSVRow(r)
	want := []string{r.ProfileID.String(), "'=HYPERLINK(1)", "a@example.com", "VP", "web", "fall", "'@ada", "'-ada", "none",
		key, "true", "2026-09-02T13:00:00Z", "2026-09-02T14:00:00Z"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("CSVRow = %q\nwant     %q", got, want)
	}
	if len(got) != len(CSVHeader) {
		t.Errorf("%d cells for %d columns", len(got), len(CSVHeader))
	}
	if got := CSVRow(row("Ada", nil, "")); got[9] != "" || got[10] != "false" || got[4] != "" {
		t.Errorf("no headshot: %q", got)
	}
}

func TestWriteCSV(t *testing.T) {
	t.Parallel()
	rows := make([]db.ExecFormSubmissionListRow, 150) // past one flush
	for i := range rows {
		rows[i] = row("Ada", nil, "web")
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 151 || strings.Join(recs[0], ",") != strings.Join(CSVHeader, ",") || recs[150][0] != rows[149].ProfileID.String() {
		t.Fatalf("%d records, header %q", len(recs), recs[0])
	}
}
