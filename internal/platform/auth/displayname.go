package auth

import (
	"strings"
	"unicode/utf8"

	"hackdesk/internal/platform/freetext"
)

// MaxDisplayName is the longest display name, in characters.
const MaxDisplayName = 100

// CheckDisplayName trims a display name a person chooses (sign-up, the
// profile, `hackdesk users create`) and returns it, or the reason it is
// unacceptable: empty, longer than MaxDisplayName characters, not UTF-8,
// or holding a control or format character (freetext.Line: Unicode Cc or
// Cf, CR, LF, tab, bidi overrides and isolates, zero-width characters) or
// a line or paragraph separator. A name is shown in emails, lists and
// exports, where such characters break lines or reorder the text around
// them.
func CheckDisplayName(raw string) (name, why string) {
	name = strings.TrimSpace(raw)
	switch {
	case name == "":
		return "", "is required"
	case !utf8.ValidString(name):
		return "", "must be UTF-8 text"
	case utf8.RuneCountInString(name) > MaxDisplayName:
		return "", "must be at most 100 characters"
	}
	if why := freetext.Line(name); why != "" {
		return "", why
	}
	return name, ""
}
