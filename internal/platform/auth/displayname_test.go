package auth

import (
	"strings"
	"testing"
)

func TestCheckDisplayName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in, want string
		ok             bool
	}{
		{"Plain", "Grace Hopper", "Grace Hopper", true},
		{"Trimmed", "  Ada \n", "Ada", true},
		{"Accents", "Zoë Ångström", "Zoë Ångström", true},
		{"CJK", "李小龙", "李小龙", true},
		{"Emoji", "Ada 🚀", "Ada 🚀", true},
		{"Max", strings.Repeat("é", 100), strings.Repeat("é", 100), true},
		{"Empty", "", "", false},
		{"Blank", " \t ", "", false},
		{"TooLong", strings.Repeat("a", 101), "", false},
		{"CRLF", "Eve\r\nBcc: all@example.com", "", false},
		{"LF", "Eve\nAdmin", "", false},
		{"Tab", "Eve\tAdmin", "", false},
		{"NUL", "Eve\x00", "", false},
		{"DEL", "Eve\x7f", "", false},
		{"C1", "Eve\u0085x", "", false},
		{"RLO", "Eve \u202Egpj.exe", "", false},
		{"LRI", "Eve \u2066x\u2069", "", false},
		{"ZeroWidthSpace", "Ad\u200Bmin", "", false},
		{"BOM", "\uFEFFAdmin", "", false},
		{"LineSeparator", "Eve\u2028Admin", "", false},
		{"NotUTF8", "Eve\xff", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, why := CheckDisplayName(c.in)
			if (why == "") != c.ok || got != c.want {
				t.Errorf("CheckDisplayName(%q) = %q, %q; want %q, ok %v", c.in, got, why, c.want, c.ok)
			}
		})
	}
}
