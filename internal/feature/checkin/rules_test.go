package checkin

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/signing"
)

func TestCountsOf(t *testing.T) {
	t.Parallel()
	rows := []db.CateringCountsRow{{Kind: "tshirt", Value: "M", Attending: 3, CheckedIn: 1}, {Kind: "tshirt", Value: "", Attending: 1}}
	for i := 0; i < 12; i++ {
		rows = append(rows, db.CateringCountsRow{Kind: "diet", Value: string(rune('a' + i)), Attending: int64(20 - i), CheckedIn: 1})
	}
	rows = append(rows, db.CateringCountsRow{Kind: "diet", Value: "", Attending: 9})
	c := countsOf(rows, 4)
	if c.CheckedIn != 4 || c.Catering.TshirtSizes["M"] != 3 || c.Catering.TshirtSizes[NoSize] != 1 || c.CateringCheckedIn.TshirtSizes["M"] != 1 {
		t.Fatalf("sizes %+v", c)
	}
	if len(c.Catering.Dietary) != TopDiets+1 || c.Catering.Dietary[Other] != 10+9 || c.Catering.Dietary["a"] != 20 || c.CateringCheckedIn.Dietary[Other] != 2 {
		t.Fatalf("diets %v / %v", c.Catering.Dietary, c.CateringCheckedIn.Dietary)
	}
	if _, ok := c.Catering.Dietary[""]; ok {
		t.Fatal("no restriction given was counted")
	}
}

func TestICS(t *testing.T) {
	t.Parallel()
	start := time.Date(2027, 3, 1, 14, 0, 0, 0, time.UTC)
	end := start.Add(36 * time.Hour)
	venue := strings.Repeat("Hall; B, ", 20)
	h := db.Hackathon{ID: uuid.New(), Name: "Hack, the; North", StartsAt: &start, EndsAt: &end, Venue: &venue}
	out, err := ICS(h, "https://h.test/", start)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "BEGIN:VCALENDAR\r\n") || !strings.Contains(out, "DTSTART:20270301T140000Z\r\n") ||
		!strings.Contains(out, "SUMMARY:Hack\\, the\\; North\r\n") || !strings.HasSuffix(out, "END:VCALENDAR\r\n") {
		t.Fatalf("calendar:\n%s", out)
	}
	for _, l := range strings.Split(out, "\r\n") {
		if len(l) > 75 {
			t.Fatalf("line of %d octets: %q", len(l), l)
		}
	}
	if _, err := ICS(db.Hackathon{}, "https://h.test", start); err != ErrNoEventDates {
		t.Fatalf("no dates: %v", err)
	}
}

func TestTicketSignature(t *testing.T) {
	t.Parallel()
	s := Signer(make([]byte, 32))
	id := uuid.New()
	sig := s.Sign(id.String())
	// The first character carries six whole bits of the signature (the last one's
	// low bits may be padding), so changing it always changes the signature.
	first := "A"
	if sig[0] == 'A' {
		first = "B"
	}
	ok, bad, padded := sig, first+sig[1:], sig+"="
	if CheckSignature(s, id.String(), &ok) != nil || CheckSignature(s, id.String()) != nil {
		t.Fatal("a good signature (or none) was refused")
	}
	for _, b := range []string{bad, padded, ""} {
		if CheckSignature(s, id.String(), &b) == nil {
			t.Fatalf("signature %q verified", b)
		}
	}
	other := signing.New(make([]byte, 32), signing.PurposeMembershipQR).Sign(id.String())
	if CheckSignature(s, id.String(), &other) == nil {
		t.Fatal("a membership signature opened a ticket")
	}
	if u := TicketURL("https://h.test/", s, id); u != "https://h.test/checkin/"+id.String()+"?sig="+sig {
		t.Fatalf("url %q", u)
	}
}

func TestCSVCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"=1+1": "'=1+1", "+x": "'+x", "-x": "'-x", "@x": "'@x", "\tx": "'\tx", "Ada": "Ada", "": ""} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q", in, got)
		}
	}
}
