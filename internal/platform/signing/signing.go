// Package signing makes and checks the signed links the service hands out
// (the membership QR code, one-click unsubscribe). Each purpose gets its
// own key, derived from SIGNING_KEY, so a signature made for one purpose is
// worthless for another.
package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// The purposes keys are derived for.
const (
	PurposeMembershipQR = "membership-qr"
	PurposeUnsubscribe  = "unsubscribe"
	PurposeEventTicket  = "event-ticket"
)

// MinKeyLen is the shortest SIGNING_KEY accepted, in bytes.
const MinKeyLen = 32

// ErrBadSignature is returned by Verify and Open for a signature that does
// not match, and by Open for a malformed token.
var ErrBadSignature = errors.New("signing: bad signature")

// Signer signs messages for one purpose.
type Signer struct{ key []byte }

// New derives the key for purpose from master (SIGNING_KEY, decoded):
// HMAC-SHA256(master, "hackdesk/" + purpose).
func New(master []byte, purpose string) Signer {
	m := hmac.New(sha256.New, master)
	m.Write([]byte("hackdesk/" + purpose))
	return Signer{key: m.Sum(nil)}
}

// Sign returns the base64url (unpadded) HMAC-SHA256 of msg.
func (s Signer) Sign(msg string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Verify reports, in constant time, whether sig is the signature of msg
// exactly as Sign spells it: unpadded base64url with its spare bits zero.
// Padding, the standard alphabet or other spare bits are refused, so one
// signature has one spelling (a link cannot be varied and still verify).
func (s Signer) Verify(msg, sig string) error {
	if !hmac.Equal([]byte(sig), []byte(s.Sign(msg))) {
		return ErrBadSignature
	}
	return nil
}

// Seal returns a token carrying msg and its signature: base64url(msg) "."
// signature. msg is readable by whoever holds the token; it must not be
// secret.
func (s Signer) Seal(msg string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(msg)) + "." + s.Sign(msg)
}

// Open returns the message of a token made by Seal, or ErrBadSignature.
func (s Signer) Open(token string) (string, error) {
	enc, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 4096 {
		return "", ErrBadSignature
	}
	msg, err := base64.RawURLEncoding.DecodeString(enc)
	// One spelling per message: the decoder skips line breaks and ignores
	// spare bits, so the encoding must be exactly what Seal writes.
	if err != nil || base64.RawURLEncoding.EncodeToString(msg) != enc {
		return "", ErrBadSignature
	}
	if err := s.Verify(string(msg), sig); err != nil {
		return "", err
	}
	return string(msg), nil
}

// DecodeKey decodes SIGNING_KEY (standard or URL base64, padded or not)
// and checks its length.
func DecodeKey(v string) ([]byte, error) {
	v = strings.TrimSpace(v)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(v); err == nil {
			if len(b) < MinKeyLen {
				return nil, errors.New("too short: it must decode to at least 32 bytes")
			}
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}
