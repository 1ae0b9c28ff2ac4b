package ratelimit_test

import (
	"testing"

	"hackdesk/internal/platform/ratelimit"
)

// TestClientKey: the per-IP limits count an IPv4 client by its address and
// an IPv6 client by its /64, the block one subscriber is usually given,
// so a client cannot take a fresh bucket per address of its own network.
func TestClientKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ remote, want string }{
		{"198.51.100.7:4242", "198.51.100.7"},
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"},
		{"[2001:DB8:1:2:ffff::9]:1", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:443", "2001:db8:1:3::/64"},
		{"[::ffff:198.51.100.7]:80", "198.51.100.7"},
		{"[fe80::1%eth0]:80", "fe80::/64"},
		{"[::1]:80", "::/64"},
		{"not-an-address", "not-an-address"},
	} {
		if got := ratelimit.ClientKey(c.remote); got != c.want {
			t.Errorf("ClientKey(%q) = %q, want %q", c.remote, got, c.want)
		}
	}
}

// TestEmailKeys: an email is counted however it is spelt, and with the
// client's key when the limit is per email and client.
func TestEmailKeys(t *testing.T) {
	t.Parallel()
	if got := ratelimit.EmailKey("  Ada@Example.COM "); got != "ada@example.com" {
		t.Errorf("EmailKey = %q", got)
	}
	for _, c := range []struct{ email, remote, want string }{
		{"Ada@example.com", "198.51.100.7:1", "ada@example.com\x00198.51.100.7"},
		{"ada@example.com ", "[2001:db8:1:2::9]:443", "ada@example.com\x002001:db8:1:2::/64"},
	} {
		if got := ratelimit.EmailIPKey(c.email, c.remote); got != c.want {
			t.Errorf("EmailIPKey(%q, %q) = %q, want %q", c.email, c.remote, got, c.want)
		}
	}
}
