package edge

import (
	"net/netip"
	"strings"
	"testing"

	"hackdesk/internal/platform/config"
)

// fuzzTrusted is the proxy list FuzzClientAddr uses when its own does not
// parse.
const fuzzTrusted = "10.0.0.0/8, 192.168.1.7, 2001:db8::/32"

// FuzzClientAddr checks the X-Forwarded-For walk (ClientAddr):
//   - a peer that is not a trusted proxy (or not an address) is answered
//     unchanged, whatever the header says;
//   - any other answer is a canonical address taken from a hop, every hop
//     to its right being a trusted proxy, and it is trusted itself only
//     when the walk could go no further left;
//   - hops a client adds to the left of the answer never change it.
func FuzzClientAddr(f *testing.F) {
	for _, s := range []struct{ peer, xff, trusted string }{
		{"10.0.0.2:4321", "198.51.100.1", fuzzTrusted},
		{"203.0.113.9:4321", "198.51.100.1", fuzzTrusted},
		{"10.0.0.2:4321", "1.1.1.1, 198.51.100.1, 10.9.9.9, 192.168.1.7", fuzzTrusted},
		{"10.0.0.2:4321", "198.51.100.1, not-an-ip, 10.4.4.4", fuzzTrusted},
		{"10.0.0.2:4321", "198.51.100.1,", fuzzTrusted},
		{"[2001:db8::1]:4321", "[2001:db9::5]:80, 2001:db8::2", fuzzTrusted},
		{"[::ffff:10.0.0.2]:4321", "::ffff:198.51.100.1", fuzzTrusted},
		{"[fe80::1%eth0]:80", "fe80::2%lo", "fe80::/10"},
		{"10.0.0.2", "10.3.3.3, 10.4.4.4", fuzzTrusted},
		{"pipe", "198.51.100.1", fuzzTrusted},
		{"127.0.0.1:1", "127.0.0.1", "0.0.0.0/0,::/0"},
	} {
		f.Add(s.peer, s.xff, s.trusted)
	}
	fallback, err := config.ParseTrustedProxies(fuzzTrusted)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, peer, xff, spec string) {
		trusted, err := config.ParseTrustedProxies(spec)
		if err != nil {
			trusted = fallback
		}
		lines := strings.Split(xff, "\n")
		got := ClientAddr(peer, lines, trusted)

		addr, ok := parseHop(peer)
		if !ok || !isTrusted(addr, trusted) {
			if got != peer {
				t.Fatalf("untrusted peer %q with %q: got %q, want the peer", peer, lines, got)
			}
			return
		}
		if got == peer {
			return
		}
		client, err := netip.ParseAddr(got)
		if err != nil || client.String() != got || client.Zone() != "" || client.Is4In6() {
			t.Fatalf("ClientAddr(%q, %q) = %q, not a canonical address", peer, lines, got)
		}
		var hops []string
		for _, l := range lines {
			hops = append(hops, strings.Split(l, ",")...)
		}
		i := len(hops) - 1
		for ; i >= 0; i-- {
			h, ok := parseHop(strings.TrimSpace(hops[i]))
			if !ok || !isTrusted(h, trusted) {
				break
			}
			if h == client && (i == 0 || !parses(hops[i-1])) {
				break // every hop was trusted: the left-most reachable one is the client
			}
		}
		if i < 0 {
			t.Fatalf("ClientAddr(%q, %q) = %q, which no hop names", peer, lines, got)
		}
		if h, ok := parseHop(strings.TrimSpace(hops[i])); !ok || h != client {
			t.Fatalf("ClientAddr(%q, %q) = %q, but the walk stops at hop %q", peer, lines, got, hops[i])
		}
		if isTrusted(client, trusted) {
			return
		}
		// The answer is the right-most untrusted hop: what the client wrote
		// to its left is ignored.
		forged := append([]string{"6.6.6.6, junk, " + got}, lines...)
		if again := ClientAddr(peer, forged, trusted); again != got {
			t.Fatalf("ClientAddr(%q, %q) = %q, but %q with hops added on the left", peer, lines, got, again)
		}
	})
}

func parses(hop string) bool {
	_, ok := parseHop(strings.TrimSpace(hop))
	return ok
}

// FuzzParseHop: an accepted hop is a valid address without zone, IPv4 not
// written as IPv6, and its printed form reads back to itself.
func FuzzParseHop(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "1.2.3.4:5678", "[2001:db8::1]:5678", "2001:db8::1", "::ffff:1.2.3.4",
		"[fe80::1%eth0]:1", "fe80::1%25eth0", "", ":80", "[::1]", "1.2.3.4:", "01.2.3.4", "unknown"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := parseHop(s)
		if !ok {
			return
		}
		if !a.IsValid() || a.Zone() != "" || a.Is4In6() {
			t.Fatalf("parseHop(%q) = %v, not canonical", s, a)
		}
		if b, ok := parseHop(a.String()); !ok || b != a {
			t.Fatalf("parseHop(%q) = %v, printed and read again = %v, %v", s, a, b, ok)
		}
	})
}
