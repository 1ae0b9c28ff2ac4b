package receipts

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

// LookupTXT returns the TXT records of a DNS name.
type LookupTXT func(domain string) ([]string, error)

// ErrDKIM is a message whose DKIM signature does not vouch for its sender.
var ErrDKIM = errors.New("receipt: DKIM verification failed")

// ErrDKIMTemporary is returned by VerifyDKIM when the sender's key could
// not be read for now (a DNS timeout or SERVFAIL): the receipt is neither
// good nor bad yet, and the post should be retried later.
var ErrDKIMTemporary = errors.New("receipt: DKIM key temporarily unavailable")

// maxSignatures caps the signatures checked per message: each costs a DNS
// lookup and a pass over the body.
const maxSignatures = 5

// VerifyDKIM passes only when the message (at most MaxSize bytes) has a
// single From field whose address is at domain, and carries at least one
// DKIM signature that verifies, whose d= is domain (case-insensitive) and
// whose signed header fields (h=) include From and every instance of the
// MIME header fields Parse reads (MIME-Version, Content-Type,
// Content-Transfer-Encoding) that the message has. Those fields decide how
// the signed body is read, so one the signature leaves out could be
// swapped, added or dropped in transit and change the receipt. Keys are
// read with lookup; at most five signatures are checked. Any other outcome
// is an error wrapping ErrDKIM with a short reason: no signature, a bad
// signature, a signature by another domain, From or a MIME field not
// signed, a failed key lookup, or a sender outside domain.
func VerifyDKIM(raw []byte, domain string, lookup LookupTXT) error {
	domain = strings.ToLower(strings.TrimSpace(domain))
	switch {
	case domain == "":
		return fmt.Errorf("%w: no domain to verify against", ErrDKIM)
	case lookup == nil:
		return fmt.Errorf("%w: no TXT lookup", ErrDKIM)
	case len(raw) > MaxSize:
		return fmt.Errorf("%w: message larger than %d bytes", ErrDKIM, MaxSize)
	}
	raw = crlf(raw)
	msg, err := splitMessage(raw)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDKIM, err)
	}
	// The signature must be the sender's own: a receipt "from" the shop
	// signed by some other domain, or signed by the shop but "from"
	// elsewhere, is not the shop's receipt.
	_, fromDomain, err := msg.from()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDKIM, err)
	}
	if fromDomain != domain {
		return fmt.Errorf("%w: sender domain %s is not %s", ErrDKIM, fromDomain, domain)
	}

	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{
		LookupTXT:        lookup,
		MaxVerifications: maxSignatures,
	})
	tooMany := errors.Is(err, dkim.ErrTooManySignatures)
	if err != nil && !tooMany {
		return fmt.Errorf("%w: %v", ErrDKIM, err)
	}
	if len(verifs) == 0 {
		return fmt.Errorf("%w: no signature", ErrDKIM)
	}
	// Report the most telling failure: a signature by domain that failed
	// beats one by another domain.
	var reason string
	for _, v := range verifs {
		ours := strings.EqualFold(v.Domain, domain)
		var r string
		switch {
		case v.Err != nil && ours && dkim.IsTempFail(v.Err):
			return fmt.Errorf("%w: %v", ErrDKIMTemporary, v.Err)
		case v.Err != nil:
			r = fmt.Sprintf("signature by %q: %v", v.Domain, v.Err)
		case !ours:
			r = fmt.Sprintf("signature by another domain (%q)", v.Domain)
		case !signsFrom(v.HeaderKeys):
			r = "From not signed"
		case msg.unsigned(v.HeaderKeys) != "":
			r = msg.unsigned(v.HeaderKeys) + " not signed"
		default:
			return nil
		}
		if reason == "" || ours {
			reason = r
		}
	}
	if tooMany {
		reason += fmt.Sprintf(" (only the first %d signatures checked)", maxSignatures)
	}
	return fmt.Errorf("%w: %s", ErrDKIM, reason)
}

// unsigned returns the first MIME header field Parse reads that has more
// instances in the message than the signature's h= lists (each listing
// signs one instance, from the bottom up), or "".
func (m message) unsigned(keys []string) string {
	for _, name := range mimeFields {
		listed := 0
		for _, k := range keys {
			if strings.EqualFold(strings.TrimSpace(k), name) {
				listed++
			}
		}
		if len(m.values(name)) > listed {
			return name
		}
	}
	return ""
}

func signsFrom(keys []string) bool {
	for _, k := range keys {
		if strings.EqualFold(strings.TrimSpace(k), "From") {
			return true
		}
	}
	return false
}

// SenderDomain returns the lower-cased domain of the message's From
// address. It fails when the message is larger than MaxSize, has no
// header, or has other than one From field holding one address.
func SenderDomain(raw []byte) (string, error) {
	if len(raw) > MaxSize {
		return "", fmt.Errorf("%w: message larger than %d bytes", ErrInvalid, MaxSize)
	}
	msg, err := splitMessage(crlf(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	_, domain, err := msg.from()
	if err != nil {
		return "", &FieldError{Field: "from", Reason: err.Error()}
	}
	return domain, nil
}

// TXTFile reads a file of DNS TXT records, one a line: the DNS name,
// whitespace, then the value, either bare (the rest of the line) or as
// zone-file double-quoted strings, which are joined. Blank lines and lines
// starting with # are skipped; names are case-insensitive and may end in
// a dot. The LookupTXT returned answers from the file alone: an unknown
// name is a *net.DNSError with IsNotFound set, as for NXDOMAIN.
func TXTFile(path string) (LookupTXT, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	records := map[string][]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			name, value = line[:i], line[i+1:]
		}
		value, err := txtValue(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		name = dnsName(name)
		records[name] = append(records[name], value)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func(domain string) ([]string, error) {
		vs, ok := records[dnsName(domain)]
		if !ok {
			return nil, &net.DNSError{Err: "no such host", Name: domain, IsNotFound: true}
		}
		return append([]string(nil), vs...), nil
	}, nil
}

func dnsName(s string) string { return strings.TrimSuffix(strings.ToLower(s), ".") }

// txtValue reads a record's value: bare text, or "quoted" "strings".
func txtValue(s string) (string, error) {
	if s == "" {
		return "", errors.New("no TXT value")
	}
	if s[0] != '"' {
		return s, nil
	}
	var b strings.Builder
	for s != "" {
		if s[0] != '"' {
			return "", errors.New("text between quoted strings")
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return "", errors.New("unterminated quoted string")
		}
		b.WriteString(s[1 : 1+end])
		s = strings.TrimLeft(s[end+2:], " \t")
	}
	return b.String(), nil
}

// DNS looks TXT records up with net.DefaultResolver, each lookup bounded
// by timeout. (The DKIM verifier's lookup takes no context, hence one of
// our own.)
func DNS(timeout time.Duration) LookupTXT {
	return func(domain string) ([]string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return net.DefaultResolver.LookupTXT(ctx, domain)
	}
}

// KeySource is where DKIM keys are read: the records of txtFile when it is
// set (a local stack has no DNS for its shop), else DNS, each lookup
// bounded by 5 s. An unreadable file is an error and no source.
func KeySource(txtFile string) (LookupTXT, error) {
	if txtFile == "" {
		return DNS(5 * time.Second), nil
	}
	return TXTFile(txtFile)
}
