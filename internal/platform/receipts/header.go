package receipts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"strings"
)

// message is a raw message split the way go-msgauth's DKIM verifier splits
// it: header fields (each with its continuation lines and CRLFs) up to the
// first empty line, then the body.
type message struct {
	fields []string
	body   []byte
}

// crlf turns bare LFs into CRLFs. Mail travels with CRLF line endings, so
// that is what the shop signed; a provider or a test may hand us LFs.
func crlf(raw []byte) []byte {
	bare := false
	for i, c := range raw {
		if c == '\n' && (i == 0 || raw[i-1] != '\r') {
			bare = true
			break
		}
	}
	if !bare {
		return raw
	}
	out := make([]byte, 0, len(raw)+len(raw)/32)
	for i, c := range raw {
		if c == '\n' && (i == 0 || raw[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// Limits on the header, checked before a DKIM verifier reads it: the
// verifier joins a field's lines one by one (quadratic in its folds), and a
// receipt's header is a few kilobytes.
const (
	maxHeader = 64 << 10 // bytes
	maxFolds  = 100      // continuation lines in one field
)

var errNoBody = errors.New("no empty line after the header")

// splitMessage splits a CRLF message into header fields and body.
func splitMessage(b []byte) (message, error) {
	var m message
	start, folds := -1, 0 // the current field's first byte, its continuation lines
	for pos := 0; pos < len(b); {
		if pos > maxHeader {
			return message{}, fmt.Errorf("header larger than %d bytes", maxHeader)
		}
		n := bytes.Index(b[pos:], []byte("\r\n"))
		if n < 0 {
			break
		}
		next := pos + n + 2
		switch {
		case n == 0: // the empty line
			if start >= 0 {
				m.fields = append(m.fields, string(b[start:pos]))
			}
			m.body = b[next:]
			return m, nil
		case start >= 0 && (b[pos] == ' ' || b[pos] == '\t'):
			if folds++; folds > maxFolds {
				return message{}, fmt.Errorf("a header field folded over more than %d lines", maxFolds)
			}
		default:
			if start >= 0 {
				m.fields = append(m.fields, string(b[start:pos]))
			}
			start, folds = pos, 0
		}
		pos = next
	}
	return message{}, errNoBody
}

// values returns the unfolded, trimmed values of the header fields called
// name (case-insensitive; whitespace around the name ignored, as DKIM
// verifiers do).
func (m message) values(name string) []string {
	var vs []string
	for _, kv := range m.fields {
		k, v, _ := strings.Cut(kv, ":")
		if strings.EqualFold(strings.TrimSpace(k), name) {
			vs = append(vs, strings.TrimSpace(strings.ReplaceAll(v, "\r\n", "")))
		}
	}
	return vs
}

// addressParser ignores the charset of encoded display names: only the
// address matters here.
var addressParser = mail.AddressParser{WordDecoder: &mime.WordDecoder{
	CharsetReader: func(_ string, input io.Reader) (io.Reader, error) { return input, nil },
}}

// from returns the lower-cased address and domain of the message's single
// From field holding a single address.
func (m message) from() (addr, domain string, err error) {
	vs := m.values("From")
	switch len(vs) {
	case 0:
		return "", "", errors.New("no From header field")
	case 1:
	default:
		// DKIM signs the last From field and mail readers show the first:
		// with two, the signed sender may not be the one we read.
		return "", "", fmt.Errorf("%d From header fields", len(vs))
	}
	list, err := addressParser.ParseList(vs[0])
	if err != nil || len(list) != 1 {
		return "", "", fmt.Errorf("want a single address, got %q", clip(vs[0]))
	}
	addr = strings.ToLower(list[0].Address)
	domain = addr[strings.LastIndexByte(addr, '@')+1:]
	if !IsHostName(domain) {
		return "", "", fmt.Errorf("domain %q is not a host name", clip(domain))
	}
	return addr, domain, nil
}

// IsHostName reports whether s is a lower-case DNS host name.
func IsHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-':
			default:
				return false
			}
		}
	}
	return true
}
