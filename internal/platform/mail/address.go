package mail

import (
	"net/mail"
	"strings"
	"unicode/utf8"
)

// MaxAddress is the longest email address, in characters (as the schema's
// CHECKs and api/openapi.yaml count).
const MaxAddress = 254

// NormalizeAddress checks a bare email address and returns it trimmed, or
// the reason it is refused ("is required", "must be an email address").
func NormalizeAddress(raw string) (string, string) {
	e := strings.TrimSpace(raw)
	if e == "" {
		return "", "is required"
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || a.Name != "" || utf8.RuneCountInString(e) > MaxAddress {
		return "", "must be an email address"
	}
	return e, ""
}
