// Package receipttest plays the campus shop and the inbound-email provider
// for the dev stack, the load tools and tests: the shop's DKIM key and its
// TXT record, sample receipts, and signed webhook posts.
package receipttest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"math/rand/v2"
	"mime/quotedprintable"
	"strconv"
	"strings"
	"time"

	"hackdesk/internal/platform/receipts"
)

// Sample is a receipt the dev shop would send. Zero fields take defaults
// when built.
type Sample struct {
	Email         string          // the customer's
	AmountCents   int64           // the membership's price; default 2000
	TermName      string          // the item is "Club Membership - <TermName>", or "Club Membership"
	Extra         []receipts.Item // items bought with the membership; the total is the sum of all
	TransactionID string          // default a random TX-XXXXXXXX
	OrderNumber   string          // default six random digits
	Date          time.Time
	Domain        string // default DevShopDomain
	// Encoding is how the text travels: "plain" (the default),
	// "quoted-printable", "base64", "html" (a text/html part only) or
	// "alternative" (multipart/alternative: quoted-printable text and HTML).
	Encoding string
}

// Build renders the unsigned MIME message, from receipts@<domain>, with
// CRLF line endings. Defaults are drawn afresh at each call; Build panics
// on an unknown Encoding.
func (s Sample) Build() []byte {
	if s.AmountCents == 0 {
		s.AmountCents = 2000
	}
	if s.TransactionID == "" {
		const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
		b := []byte("TX-")
		for range 8 {
			b = append(b, alphabet[rand.IntN(len(alphabet))])
		}
		s.TransactionID = string(b)
	}
	if s.OrderNumber == "" {
		s.OrderNumber = strconv.Itoa(100000 + rand.IntN(900000))
	}
	if s.Date.IsZero() {
		s.Date = time.Now()
	}
	s.Date = s.Date.UTC().Truncate(time.Minute)
	if s.Domain == "" {
		s.Domain = DevShopDomain
	}

	desc := "Club Membership"
	if s.TermName != "" {
		desc += " - " + s.TermName
	}
	items := append([]receipts.Item{{Description: desc, Quantity: 1, UnitCents: s.AmountCents}}, s.Extra...)
	total := int64(0)
	lines := []string{
		"Thank you for shopping at the campus shop.",
		"",
		"Order number: " + s.OrderNumber,
		"Transaction ID: " + s.TransactionID,
		"Date: " + s.Date.Format(receipts.DateLayout),
		"Customer email: " + s.Email,
	}
	for _, it := range items {
		lines = append(lines, fmt.Sprintf("Item: %s    %d x %s", it.Description, it.Quantity, receipts.FormatCents(it.UnitCents)))
		total += int64(it.Quantity) * it.UnitCents
	}
	lines = append(lines,
		"Total paid: "+receipts.FormatCents(total)+" CAD",
		"",
		"Keep this email as your receipt.",
	)
	for i, l := range lines {
		lines[i] = oneLine(l)
	}

	var b bytes.Buffer
	header := func(name, value string) { b.WriteString(name + ": " + oneLine(value) + "\r\n") }
	header("From", "receipts@"+s.Domain)
	header("To", s.Email)
	header("Subject", "Your campus shop receipt (order "+s.OrderNumber+")")
	header("Date", s.Date.Format(time.RFC1123Z))
	header("Message-ID", "<order-"+s.OrderNumber+"@"+s.Domain+">")
	header("MIME-Version", "1.0")
	switch s.Encoding {
	case "", "plain":
		header("Content-Type", "text/plain; charset=utf-8")
		header("Content-Transfer-Encoding", bits(lines))
		b.WriteString("\r\n" + strings.Join(lines, "\r\n") + "\r\n")
	case "quoted-printable":
		header("Content-Type", "text/plain; charset=utf-8")
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n" + qp(strings.Join(lines, "\r\n")+"\r\n"))
	case "base64":
		header("Content-Type", "text/plain; charset=utf-8")
		header("Content-Transfer-Encoding", "base64")
		b.WriteString("\r\n" + base64Lines(strings.Join(lines, "\r\n")+"\r\n"))
	case "html":
		header("Content-Type", "text/html; charset=utf-8")
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n" + qp(htmlBody(lines)))
	case "alternative":
		boundary := "receipt-" + s.OrderNumber
		header("Content-Type", `multipart/alternative; boundary="`+boundary+`"`)
		b.WriteString("\r\n--" + boundary + "\r\n")
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
		b.WriteString(qp(strings.Join(lines, "\r\n") + "\r\n"))
		b.WriteString("--" + boundary + "\r\n")
		b.WriteString("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
		b.WriteString(qp(htmlBody(lines)))
		b.WriteString("--" + boundary + "--\r\n")
	default:
		panic("receipttest: unknown sample encoding " + strconv.Quote(s.Encoding))
	}
	return b.Bytes()
}

// oneLine keeps a value on its line (no header or label injection).
func oneLine(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) }

// bits is the Content-Transfer-Encoding of unencoded text.
func bits(lines []string) string {
	for _, l := range lines {
		for _, c := range []byte(l) {
			if c >= 0x80 {
				return "8bit"
			}
		}
	}
	return "7bit"
}

func qp(text string) string {
	var b bytes.Buffer
	w := quotedprintable.NewWriter(&b)
	// Writing to a bytes.Buffer does not fail.
	_, _ = w.Write([]byte(text))
	_ = w.Close()
	s := b.String()
	if !strings.HasSuffix(s, "\r\n") {
		s += "\r\n"
	}
	return s
}

func base64Lines(text string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(text))
	var b strings.Builder
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	return b.String()
}

func htmlBody(lines []string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\r\n<html><body>\r\n<p>")
	for _, l := range lines {
		if l == "" {
			b.WriteString("</p>\r\n<p>")
			continue
		}
		b.WriteString(html.EscapeString(l) + "<br>\r\n")
	}
	b.WriteString("</p>\r\n</body></html>\r\n")
	return b.String()
}
