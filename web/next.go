package web

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDecodes is how many rounds of percent-decoding SafeNext looks
// through, as the pages' safeNext does.
const maxDecodes = 3

// SafeNext is the rule for the `next` parameter of the sign-in pages,
// shared with the front end (web/src/lib/utilities/next.ts implements the
// same rule, and both are table-tested on the same cases). It returns raw
// when raw is a path on this site, with its query (so a QR page keeps its
// ?sig=), percent-encoded or not ("%2Fapply" is "/apply"); anything else
// becomes "/": an absolute URL, a protocol-relative "//" or "/\" prefix
// (also when it appears only after percent-decoding, up to three rounds),
// and any control character (browsers drop tabs and newlines from a URL,
// which turns "/\t/host" into "//host"). A value that is not valid UTF-8
// or not valid percent-encoding is "/" too.
func SafeNext(raw string) string {
	value := strings.TrimFunc(raw, jsSpace)
	if !utf8.ValidString(value) {
		return "/"
	}
	// A next that is itself encoded ("%2Fapply%3Fx%3D1") is decoded.
	for i := 0; i < maxDecodes && len(value) >= 3 && strings.EqualFold(value[:3], "%2f"); i++ {
		var ok bool
		if value, ok = decodeComponent(value); !ok {
			return "/"
		}
	}
	if !strings.HasPrefix(value, "/") || hostlike(value) {
		return "/"
	}
	decoded := value
	for range maxDecodes {
		next, ok := decodeComponent(decoded)
		if !ok || hostlike(next) {
			return "/"
		}
		if next == decoded {
			break
		}
		decoded = next
	}
	return value
}

// decodeComponent percent-decodes s as JavaScript's decodeURIComponent
// does: '+' stays, a '%' must start two hex digits, and the result must be
// valid UTF-8.
func decodeComponent(s string) (string, bool) {
	out, err := url.PathUnescape(s)
	if err != nil || !utf8.ValidString(out) {
		return "", false
	}
	return out, true
}

// hostlike reports whether a browser would read path as leaving the site:
// a "//" or "/\" (or "\\", "\/") start, or a control character anywhere.
func hostlike(path string) bool {
	if len(path) >= 2 && isSlash(path[0]) && isSlash(path[1]) {
		return true
	}
	return strings.IndexFunc(path, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0
}

func isSlash(c byte) bool { return c == '/' || c == '\\' }

// jsSpace reports whether JavaScript's String.prototype.trim removes r:
// white space (Unicode Zs, tab, vertical tab, form feed, no-break space,
// BOM) and line terminators.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u2028', '\u2029', '\ufeff':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}
