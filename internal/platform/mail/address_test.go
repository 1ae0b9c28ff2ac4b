package mail

import (
	"strings"
	"testing"
)

func TestNormalizeAddress(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want, why string }{
		{"ada@example.com", "ada@example.com", ""},
		{"  Ada@Example.com ", "Ada@Example.com", ""},
		{"", "", "is required"},
		{"   ", "", "is required"},
		{"not-an-email", "", "must be an email address"},
		{"Ada <ada@example.com>", "", "must be an email address"},
		{"a@b", "a@b", ""},
		{strings.Repeat("a", 243) + "@example.com", "", "must be an email address"}, // 255 characters
		{strings.Repeat("a", 242) + "@example.com", strings.Repeat("a", 242) + "@example.com", ""},
	}
	for _, c := range cases {
		got, why := NormalizeAddress(c.in)
		if got != c.want || why != c.why {
			t.Errorf("NormalizeAddress(%q) = %q, %q; want %q, %q", c.in, got, why, c.want, c.why)
		}
	}
}
