// Package receipts reads the campus shop's purchase receipts: it parses a
// receipt email and checks its DKIM signature and the inbound-email
// webhook's HMAC. Package receipttest plays the shop for the dev stack and
// tests: a signing key, its DNS TXT record and sample receipts.
//
// # Receipt format
//
// A receipt is a MIME message from receipts@<shop domain>, DKIM-signed by
// that domain, whose text (a text/plain part, in 7bit, 8bit,
// quoted-printable or base64; or, when there is only HTML, the text enmime
// converts from it) holds these labelled lines, in any order:
//
//	Order number: 100234
//	Transaction ID: TX-8F3K2L9Q
//	Date: 2026-09-14 13:05
//	Customer email: jane@example.com
//	Item: Club Membership - 2026-2027    1 x $20.00
//	Total paid: $20.00 CAD
//
// Labels are matched case-insensitively and whitespace around labels and
// values is ignored; other lines are ignored. There is at least one Item
// line (description, whitespace, quantity, "x", unit price); every other
// label appears exactly once. The date is UTC. Amounts are dollars with
// an optional "$", optional thousands commas and at most two decimals
// ("$20.00", "20", "$1,020.50"); the total is positive and names its
// currency. The total is not checked against the items (a shop may add tax
// or discounts); callers compare it with what they expect.
//
// Order numbers and transaction IDs are 1–64 characters of letters,
// digits, '.', '_' and '-'.
//
// Parse reads what DKIM verifies: the header fields as a DKIM verifier
// splits them (one From; at most one MIME-Version, Content-Type and
// Content-Transfer-Encoding) and the body after the first empty line.
// VerifyDKIM passes only a signature that covers each of those fields the
// message has, so a header field added or changed in transit cannot change
// how the signed body is read.
//
// Hostile posts stay cheap: a message is at most 1 MiB (MaxSize), its
// header at most 64 KiB with no field folded over more than 100 lines, its
// body at most 100 lines starting with "--" (MIME boundaries), its receipt
// at most 50 items.
package receipts

import (
	"bytes"
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jhillyerd/enmime/v2"
)

// MaxSize is the largest message Parse, VerifyDKIM and SenderDomain read,
// in bytes. A receipt is a few kilobytes; the cap bounds hostile posts.
const MaxSize = 1 << 20

// DateLayout is the layout of a receipt's Date line (UTC).
const DateLayout = "2006-01-02 15:04"

// Item is one purchased line.
type Item struct {
	Description string
	Quantity    int
	UnitCents   int64
}

// Receipt is a parsed receipt.
type Receipt struct {
	From          string // the From address, lower-cased
	ShopDomain    string // the From address's domain, lower-cased
	OrderNumber   string
	TransactionID string
	Date          time.Time // parsed with DateLayout, UTC
	CustomerEmail string    // lower-cased, trimmed
	Items         []Item
	TotalCents    int64
	Currency      string // upper-cased, e.g. "CAD"
}

// ErrInvalid is a message that is not a well-formed receipt. Every error
// Parse returns wraps it.
var ErrInvalid = errors.New("receipt: invalid")

// FieldError is a receipt field that is missing or malformed. Field is one
// of "from", "order_number", "transaction_id", "date", "customer_email",
// "item" and "total". errors.Is(err, ErrInvalid) holds for it.
type FieldError struct{ Field, Reason string }

func (e *FieldError) Error() string { return "receipt: " + e.Field + ": " + e.Reason }

// Unwrap makes a FieldError an ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// Reason says in a few words why Parse refused a receipt ("customer_email
// is missing"), for the admins' list of parked receipts.
func Reason(err error) string {
	var fe *FieldError
	if errors.As(err, &fe) {
		return "unreadable receipt: " + fe.Field + " " + fe.Reason
	}
	return "unreadable receipt: not a readable email"
}

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// labels maps a line's label (lower-case) to the field it fills.
var labels = map[string]string{
	"order number":   "order_number",
	"transaction id": "transaction_id",
	"date":           "date",
	"customer email": "customer_email",
	"item":           "item",
	"total paid":     "total",
}

// singleFields are the fields read once, in the order their absence is
// reported.
var singleFields = []string{"order_number", "transaction_id", "date", "customer_email", "total"}

// Parse reads a raw RFC 5322 message (at most MaxSize bytes). A missing,
// repeated or malformed field is a *FieldError naming it; a message that
// is too large, that enmime cannot read or reads only in part (a broken
// transfer encoding), that has no text, or that repeats a MIME header
// field is an error wrapping ErrInvalid. Parse does not check DKIM:
// call VerifyDKIM first.
func Parse(raw []byte) (Receipt, error) {
	if len(raw) > MaxSize {
		return Receipt{}, fmt.Errorf("%w: message larger than %d bytes", ErrInvalid, MaxSize)
	}
	msg, err := splitMessage(crlf(raw))
	if err != nil {
		return Receipt{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	from, domain, err := msg.from()
	if err != nil {
		return Receipt{}, &FieldError{Field: "from", Reason: err.Error()}
	}
	text, err := msg.text()
	if err != nil {
		return Receipt{}, err
	}
	r, err := parseText(text)
	if err != nil {
		return Receipt{}, err
	}
	r.From, r.ShopDomain = from, domain
	return r, nil
}

// mimeFields are the header fields, besides From, that Parse reads: they
// decide how the body is decoded. VerifyDKIM requires the signature to
// cover each one present.
var mimeFields = []string{"MIME-Version", "Content-Type", "Content-Transfer-Encoding"}

// text returns the message's text as enmime reads it from the MIME header
// fields and the body alone.
func (m message) text() (string, error) {
	var b bytes.Buffer
	for _, name := range mimeFields {
		values := m.values(name)
		if len(values) > 1 {
			return "", fmt.Errorf("%w: %d %s header fields", ErrInvalid, len(values), name)
		}
		if len(values) == 1 {
			b.WriteString(name + ": " + values[0] + "\r\n")
		}
	}
	b.WriteString("\r\n")
	b.Write(m.body)
	// enmime slows down quadratically with the number of MIME parts;
	// each part starts on a line beginning with "--", so counting those
	// bounds the parts (a receipt has a handful).
	if n := bytes.Count(m.body, []byte("\n--")); n > maxParts {
		return "", fmt.Errorf("%w: more than %d MIME boundary lines", ErrInvalid, maxParts)
	}
	env, err := enmime.ReadEnvelope(&b)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	for _, e := range env.Errors {
		// enmime reads on past a broken encoding, skipping what it cannot
		// decode; a receipt read that way is not what the shop wrote.
		if e.Severe || e.Name == enmime.ErrorMalformedBase64 || e.Name == enmime.ErrorContentEncoding {
			return "", fmt.Errorf("%w: %v", ErrInvalid, e)
		}
	}
	if strings.TrimSpace(env.Text) == "" {
		return "", fmt.Errorf("%w: no text", ErrInvalid)
	}
	return env.Text, nil
}

// parseText reads the labelled lines of a receipt's text.
func parseText(text string) (Receipt, error) {
	var r Receipt
	seen := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		label, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		field, ok := labels[strings.ToLower(strings.TrimSpace(label))]
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if field == "item" {
			if len(r.Items) == maxItems {
				return Receipt{}, fieldErr("item", "more than %d items", maxItems)
			}
			it, err := parseItem(value)
			if err != nil {
				return Receipt{}, err
			}
			r.Items = append(r.Items, it)
			continue
		}
		if _, dup := seen[field]; dup {
			// A second line could come from text the customer typed
			// (a note, a name); refuse rather than guess.
			return Receipt{}, fieldErr(field, "appears more than once")
		}
		seen[field] = value
	}
	for _, field := range singleFields {
		if _, ok := seen[field]; !ok {
			return Receipt{}, fieldErr(field, "missing")
		}
	}
	if len(r.Items) == 0 {
		return Receipt{}, fieldErr("item", "missing")
	}

	var err error
	if r.OrderNumber, err = parseID("order_number", seen["order_number"]); err != nil {
		return Receipt{}, err
	}
	if r.TransactionID, err = parseID("transaction_id", seen["transaction_id"]); err != nil {
		return Receipt{}, err
	}
	if r.Date, err = time.Parse(DateLayout, seen["date"]); err != nil {
		return Receipt{}, fieldErr("date", "want YYYY-MM-DD HH:MM, got %q", clip(seen["date"]))
	}
	if r.CustomerEmail, err = parseEmail(seen["customer_email"]); err != nil {
		return Receipt{}, err
	}
	if r.TotalCents, r.Currency, err = parseTotal(seen["total"]); err != nil {
		return Receipt{}, err
	}
	return r, nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

func parseID(field, v string) (string, error) {
	if !idPattern.MatchString(v) {
		return "", fieldErr(field, "want 1-64 letters, digits, '.', '_' or '-', got %q", clip(v))
	}
	return v, nil
}

func parseEmail(v string) (string, error) {
	a, err := mail.ParseAddress(v)
	if err != nil {
		return "", fieldErr("customer_email", "not a single email address: %q", clip(v))
	}
	return strings.ToLower(a.Address), nil
}

// itemPattern is "<description> <quantity> x <unit price>".
var itemPattern = regexp.MustCompile(`^(.*\S)\s+(\d{1,6})\s*[xX]\s*(\S+)$`)

// Bounds on what one receipt may hold: it travels whole in a workflow's
// input.
const (
	maxQuantity = 10_000 // of one item
	maxItems    = 50
	maxParts    = 100 // lines that may start a MIME part
)

func parseItem(v string) (Item, error) {
	m := itemPattern.FindStringSubmatch(v)
	if m == nil {
		return Item{}, fieldErr("item", "want \"<description> <quantity> x <price>\", got %q", clip(v))
	}
	desc := strings.TrimSpace(m[1])
	if len(desc) > 200 {
		return Item{}, fieldErr("item", "description longer than 200 bytes")
	}
	qty, _ := strconv.Atoi(m[2]) // at most 6 digits: cannot fail
	if qty < 1 || qty > maxQuantity {
		return Item{}, fieldErr("item", "quantity %d outside 1-%d", qty, maxQuantity)
	}
	unit, err := parseCents(m[3])
	if err != nil {
		return Item{}, fieldErr("item", "price: %v", err)
	}
	return Item{Description: desc, Quantity: qty, UnitCents: unit}, nil
}

// totalPattern is "<amount> <currency>".
var totalPattern = regexp.MustCompile(`^(\S+)\s+([A-Za-z]{3})$`)

func parseTotal(v string) (int64, string, error) {
	m := totalPattern.FindStringSubmatch(v)
	if m == nil {
		return 0, "", fieldErr("total", "want \"<amount> <currency>\", got %q", clip(v))
	}
	cents, err := parseCents(m[1])
	if err != nil {
		return 0, "", fieldErr("total", "%v", err)
	}
	if cents == 0 {
		return 0, "", fieldErr("total", "is zero")
	}
	return cents, strings.ToUpper(m[2]), nil
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// MembershipFor reports whether an item names "membership" and termName
// (case-insensitive substrings). An empty termName matches nothing.
func (r Receipt) MembershipFor(termName string) bool {
	term := strings.ToLower(strings.TrimSpace(termName))
	if term == "" {
		return false
	}
	for _, it := range r.Items {
		d := strings.ToLower(it.Description)
		if strings.Contains(d, "membership") && strings.Contains(d, term) {
			return true
		}
	}
	return false
}

// MembershipTerm returns the term named by the first membership item: the
// text after its last " - " ("2026-2027" from "Club Membership -
// 2026-2027"). It is "" when no item names "membership" or that item has
// no " - ".
func (r Receipt) MembershipTerm() string {
	for _, it := range r.Items {
		if !strings.Contains(strings.ToLower(it.Description), "membership") {
			continue
		}
		i := strings.LastIndex(it.Description, " - ")
		if i < 0 {
			return ""
		}
		return strings.TrimSpace(it.Description[i+3:])
	}
	return ""
}
