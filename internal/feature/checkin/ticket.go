package checkin

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// Ticket is an attending applicant's ticket: the signed link its QR code
// holds, and when they were checked in.
type Ticket struct {
	ApplicationID uuid.UUID  `json:"-"`
	URL           string     `json:"url"`
	CheckedInAt   *time.Time `json:"checked_in_at"`
}

// OwnTicket is the ticket of the profile's current-edition application,
// or ErrNoTicket when they are not attending.
func OwnTicket(ctx context.Context, q *db.Queries, publicURL string, s signerLike, profile uuid.UUID) (Ticket, error) {
	row, err := q.TicketOwn(ctx, profile)
	if errors.Is(err, db.ErrNotFound) || (err == nil && (row.Rsvp == nil || *row.Rsvp != "attending")) {
		return Ticket{}, ErrNoTicket
	}
	if err != nil {
		return Ticket{}, err
	}
	return Ticket{ApplicationID: row.ID, URL: ticketURL(publicURL, s, row.ID), CheckedInAt: row.CheckedInAt}, nil
}

// signerLike is what signs a ticket (signing.Signer).
type signerLike interface{ Sign(string) string }

func ticketURL(publicURL string, s signerLike, id uuid.UUID) string {
	return strings.TrimRight(publicURL, "/") + "/checkin/" + id.String() + "?sig=" + s.Sign(id.String())
}

// ErrNoEventDates is the 404 of a calendar entry for an edition without
// its event's dates.
var ErrNoEventDates = errNoDates{}

type errNoDates struct{}

func (errNoDates) Error() string { return "checkin: the edition has no event dates" }

// ICS is the RFC 5545 calendar of edition h's event: one VEVENT with a
// stable UID, the dates in UTC, the venue and the site's link; lines end
// in CRLF and are folded at 75 octets, text escaped.
func ICS(h db.Hackathon, publicURL string, stamp time.Time) (string, error) {
	if h.StartsAt == nil || h.EndsAt == nil {
		return "", ErrNoEventDates
	}
	const f = "20060102T150405Z"
	base := strings.TrimRight(publicURL, "/")
	host := strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://")
	if i := strings.IndexAny(host, "/:"); i >= 0 {
		host = host[:i]
	}
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//hackdesk//event day//EN",
		"CALSCALE:GREGORIAN",
		"METHOD:PUBLISH",
		"BEGIN:VEVENT",
		"UID:hackathon-" + h.ID.String() + "@" + host,
		"DTSTAMP:" + stamp.UTC().Format(f),
		"DTSTART:" + h.StartsAt.UTC().Format(f),
		"DTEND:" + h.EndsAt.UTC().Format(f),
		"SUMMARY:" + icsText(h.Name),
		"URL:" + base + "/apply/submitted",
	}
	if h.Venue != nil {
		lines = append(lines, "LOCATION:"+icsText(*h.Venue))
	}
	lines = append(lines, "END:VEVENT", "END:VCALENDAR")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(fold(l))
	}
	return b.String(), nil
}

// icsText escapes a TEXT value (RFC 5545 §3.3.11).
func icsText(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace(s)
}

// fold ends a content line with CRLF, folded so that no line is longer
// than 75 octets, never inside a UTF-8 sequence (RFC 5545 §3.1).
func fold(line string) string {
	var b strings.Builder
	n := 0
	for _, r := range line {
		size := len(string(r))
		if n+size > 75 {
			b.WriteString("\r\n ")
			n = 1
		}
		b.WriteRune(r)
		n += size
	}
	b.WriteString("\r\n")
	return b.String()
}

// AttendanceHeader is the first row of the attendance CSV.
var AttendanceHeader = []string{"name", "email", "tshirt_size", "dietary_restrictions", "team", "checked_in_at"}

// attendancePage is how many rows the export reads at a time.
const attendancePage = 500

// CSVCell neutralises a cell a spreadsheet would read as a formula: one
// starting with = + - @, a tab or a carriage return gets a leading quote.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// WriteAttendance streams edition id's attendance list to w a page at a
// time (constant memory however many attend), every cell neutralised
// against formulas; wrote is called once per person written (the access
// log's rows). It stops at the first failed write (the client went away).
func WriteAttendance(ctx context.Context, q *db.Queries, w io.Writer, id uuid.UUID, wrote func(uuid.UUID)) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(AttendanceHeader); err != nil {
		return err
	}
	after := uuid.Nil
	for {
		rows, err := q.AttendanceRows(ctx, db.AttendanceRowsParams{HackathonID: id, After: after, Lim: attendancePage})
		if err != nil {
			return err
		}
		for _, r := range rows {
			rec := []string{r.Name, r.Email, deref(r.TshirtSize), deref(r.DietaryRestrictions), r.Team, ""}
			if r.CheckedInAt != nil {
				rec[5] = r.CheckedInAt.UTC().Format(time.RFC3339)
			}
			for i := range rec {
				rec[i] = CSVCell(rec[i])
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
			if wrote != nil {
				wrote(r.ID)
			}
			after = r.ID
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		if len(rows) < attendancePage {
			return nil
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
