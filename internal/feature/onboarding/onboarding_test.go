package onboarding

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

func ptr[T any](v T) *T { return &v }

func TestWindowAt(t *testing.T) {
	t.Parallel()
	opens := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	closes := time.Date(2026, 9, 15, 18, 30, 0, 0, time.UTC)
	cases := []struct {
		name    string
		kind    Kind
		o, c    *time.Time
		now     time.Time
		open    bool
		message string
	}{
		{"not scheduled", Onboarding, nil, nil, opens, false, "Onboarding for 2026-2027 is not scheduled yet"},
		{"not yet", Onboarding, &opens, &closes, opens.Add(-time.Second), false, "Onboarding for 2026-2027 opens 1 September 2026 12:00 UTC"},
		{"at open", Onboarding, &opens, &closes, opens, true, ""},
		{"during", Onboarding, &opens, &closes, opens.Add(48 * time.Hour), true, ""},
		{"last instant", Onboarding, &opens, &closes, closes.Add(-time.Microsecond), true, ""},
		{"at close", Onboarding, &opens, &closes, closes, false, "Onboarding for 2026-2027 closed on 15 September 2026 18:30 UTC"},
		{"after", Onboarding, &opens, &closes, closes.Add(time.Hour), false, "Onboarding for 2026-2027 closed on 15 September 2026 18:30 UTC"},
		{"returning not yet", Returning, &opens, &closes, opens.Add(-time.Hour), false, "The returning-exec form for 2026-2027 opens 1 September 2026 12:00 UTC"},
		{"other zone shown in UTC", Onboarding, ptr(opens.In(time.FixedZone("X", -5*3600))), &closes, opens.Add(-time.Hour), false, "Onboarding for 2026-2027 opens 1 September 2026 12:00 UTC"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := WindowAt(c.kind, "2026-2027", c.o, c.c, c.now)
			if w.Open != c.open || w.Message != c.message {
				t.Errorf("got open=%v %q, want open=%v %q", w.Open, w.Message, c.open, c.message)
			}
		})
	}
}

func TestEligible(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind           Kind
		inTerm, inPrev bool
		want           bool
	}{
		{Onboarding, true, false, true},
		{Onboarding, false, true, false},
		{Onboarding, true, true, true},
		{Onboarding, false, false, false},
		{Returning, true, false, false},
		{Returning, false, true, true},
		{Returning, true, true, true},
		{Returning, false, false, false},
	}
	for _, c := range cases {
		if got := Eligible(c.kind, c.inTerm, c.inPrev); got != c.want {
			t.Errorf("Eligible(%s, %v, %v) = %v", c.kind, c.inTerm, c.inPrev, got)
		}
	}
}

func TestRoleOptions(t *testing.T) {
	t.Parallel()
	if got := RoleOptions(nil); strings.Join(got, ",") != "President,VP,Exec" {
		t.Errorf("no positions: %v", got)
	}
	if got := RoleOptions([]string{"VP Design", "Designer", "VP Design"}); strings.Join(got, ",") != "VP Design,Designer" {
		t.Errorf("positions: %v", got)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	term, me := uuid.New(), uuid.New()
	own := HeadshotKeys(term, Onboarding, me)
	good := Submission{DisplayName: "Ada", Email: "ada@example.com", Role: "VP", TermType: "fall", DsCompetency: "none"}
	cases := []struct {
		name  string
		edit  func(*Submission)
		field string
	}{
		{"valid", func(*Submission) {}, ""},
		{"valid with headshot", func(s *Submission) { s.HeadshotKey, s.HeadshotConsent = &own[1], true }, ""},
		{"empty name", func(s *Submission) { s.DisplayName = "" }, "display_name"},
		{"long name", func(s *Submission) { s.DisplayName = strings.Repeat("é", 101) }, "display_name"},
		{"bad email", func(s *Submission) { s.Email = "nope" }, "email"},
		{"email with name", func(s *Submission) { s.Email = "Ada <ada@example.com>" }, "email"},
		{"unknown role", func(s *Submission) { s.Role = "King" }, "role"},
		{"term type", func(s *Submission) { s.TermType = "spring" }, "term_type"},
		{"competency", func(s *Submission) { s.DsCompetency = "expert" }, "ds_competency"},
		{"chat handle", func(s *Submission) { s.ChatHandle = strings.Repeat("a", 101) }, "chat_handle"},
		{"photo handle", func(s *Submission) { s.PhotoHandle = strings.Repeat("a", 101) }, "photo_handle"},
		{"someone else's key", func(s *Submission) {
			k := HeadshotKey(term, Onboarding, uuid.New(), "jpg")
			s.HeadshotKey, s.HeadshotConsent = &k, true
		}, "headshot_key"},
		{"headshot without consent", func(s *Submission) { s.HeadshotKey = &own[0] }, "headshot_consent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := good
			c.edit(&s)
			f := Validate(s, DefaultRoles, own)
			if c.field == "" && len(f) != 0 {
				t.Fatalf("unexpected %v", f)
			}
			if c.field != "" && (len(f) != 1 || f[c.field] == "") {
				t.Fatalf("want only %s, got %v", c.field, f)
			}
		})
	}
}

func TestDetectImage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		data []byte
		ext  string
		ok   bool
	}{
		{[]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0}, "jpg", true},
		{[]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0}, "png", true},
		{[]byte("GIF89a"), "", false},
		{[]byte("%PDF-1.7"), "", false},
		{[]byte{0x89, 'P', 'N'}, "", false},
		{nil, "", false},
	}
	for _, c := range cases {
		img, ok := DetectImage(c.data)
		if ok != c.ok || img.Ext != c.ext {
			t.Errorf("DetectImage(%x) = %v %v", c.data, img, ok)
		}
	}
}

func TestHeadshotKey(t *testing.T) {
	t.Parallel()
	term, me := uuid.MustParse("11111111-1111-1111-1111-111111111111"), uuid.MustParse("22222222-2222-2222-2222-222222222222")
	if got := HeadshotKey(term, Returning, me, "png"); got != "headshots/11111111-1111-1111-1111-111111111111/returning/22222222-2222-2222-2222-222222222222.png" {
		t.Error(got)
	}
}

func TestCSVCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"": "", "Ada": "Ada", "=cmd|' /C calc'!A0": "'=cmd|' /C calc'!A0", "+1": "'+1", "-2": "'-2",
		"@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx", "a=b": "a=b", "Zoë": "Zoë",
	} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestZipName(t *testing.T) {
	t.Parallel()
	id := uuid.MustParse("22222222-2222-2222-2222-222222222222")
	cases := map[string]string{
		"Ada Lovelace":   "Ada Lovelace-" + id.String() + ".jpg",
		"../../etc/pw":   "_.._etc_pw-" + id.String() + ".jpg",
		"Zoë Ñandú":      "Zoë Ñandú-" + id.String() + ".jpg",
		"..hidden":       "hidden-" + id.String() + ".jpg",
		"/":              "_-" + id.String() + ".jpg",
		"":               "headshot-" + id.String() + ".jpg",
		"a\\b:c*d?\"<>|": "a_b_c_d_-" + id.String() + ".jpg",
	}
	for in, want := range cases {
		if got := ZipName(in, id, "headshots/t/onboarding/x.jpg"); got != want {
			t.Errorf("ZipName(%q) = %q, want %q", in, got, want)
		}
	}
}
