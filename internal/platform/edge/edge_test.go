package edge

import (
	"net/http"
	"strings"
	"testing"

	"hackdesk/internal/platform/config"
)

func TestClientAddr(t *testing.T) {
	t.Parallel()
	trusted, err := config.ParseTrustedProxies("10.0.0.0/8, 192.168.1.7, 2001:db8::/32")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		peer string
		xff  []string
		want string
	}{
		{"UntrustedPeerKeepsAddress", "203.0.113.9:4321", []string{"198.51.100.1"}, "203.0.113.9:4321"},
		{"UntrustedLoopback", "127.0.0.1:4321", []string{"198.51.100.1"}, "127.0.0.1:4321"},
		{"TrustedPeerWithoutHeader", "10.0.0.2:4321", nil, "10.0.0.2:4321"},
		{"TrustedPeerOneHop", "10.0.0.2:4321", []string{"198.51.100.1"}, "198.51.100.1"},
		{"RightMostUntrustedWins", "10.0.0.2:4321", []string{"1.1.1.1, 2.2.2.2, 198.51.100.1"}, "198.51.100.1"},
		{"TrustedHopsSkipped", "10.0.0.2:4321", []string{"1.1.1.1, 198.51.100.1, 10.9.9.9, 192.168.1.7"}, "198.51.100.1"},
		{"SeveralHeaderLines", "10.0.0.2:4321", []string{"1.1.1.1", "198.51.100.1, 10.1.1.1"}, "198.51.100.1"},
		{"AllTrustedTakesLeftMost", "10.0.0.2:4321", []string{"10.3.3.3, 10.4.4.4"}, "10.3.3.3"},
		{"GarbageStopsTheWalk", "10.0.0.2:4321", []string{"198.51.100.1, not-an-ip, 10.4.4.4"}, "10.4.4.4"},
		{"GarbageRightMostKeepsPeer", "10.0.0.2:4321", []string{"198.51.100.1, unknown"}, "10.0.0.2:4321"},
		{"EmptyHopStopsTheWalk", "10.0.0.2:4321", []string{"198.51.100.1,"}, "10.0.0.2:4321"},
		{"HopWithPort", "10.0.0.2:4321", []string{"198.51.100.1:9999"}, "198.51.100.1"},
		{"IPv6Hop", "10.0.0.2:4321", []string{"[2001:db9::5]:80"}, "2001:db9::5"},
		{"IPv6TrustedPeer", "[2001:db8::1]:4321", []string{"2001:db9::5, 2001:db8::2"}, "2001:db9::5"},
		{"MappedHop", "10.0.0.2:4321", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"MappedTrustedPeer", "[::ffff:10.0.0.2]:4321", []string{"198.51.100.1"}, "198.51.100.1"},
		{"PeerWithoutPort", "10.0.0.2", []string{"198.51.100.1"}, "198.51.100.1"},
		{"UnparsablePeer", "pipe", []string{"198.51.100.1"}, "pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := ClientAddr(tc.peer, tc.xff, trusted); got != tc.want {
				t.Errorf("ClientAddr(%q, %q) = %q, want %q", tc.peer, tc.xff, got, tc.want)
			}
		})
	}
}

func TestSafeRequestID(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"trace-42":              true,
		"a":                     true,
		"A.b_c-9":               true,
		strings.Repeat("x", 64): true,
		strings.Repeat("x", 65): false,
		"":                      false,
		"has space":             false,
		"line\nbreak":           false,
		"<script>":              false,
		"host/abc-000001":       false,
		"é":                     false,
	} {
		if got := SafeRequestID(id); got != want {
			t.Errorf("SafeRequestID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestCanonicalOrigin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://hackdesk.test":          "http://hackdesk.test",
		"HTTPS://Hackdesk.Example:443/": "https://hackdesk.example",
		"http://127.0.0.1:8080/app":     "http://127.0.0.1:8080",
		"http://[::1]:8080":             "http://[::1]:8080",
		"http://example.org:80":         "http://example.org",
		"null":                          "",
		"":                              "",
		"ftp://example.org":             "",
		"http://u:p@example.org":        "",
	} {
		if got := CanonicalOrigin(in); got != want {
			t.Errorf("CanonicalOrigin(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCrossSite(t *testing.T) {
	t.Parallel()
	origin := CanonicalOrigin("https://hackdesk.example")
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   bool
	}{
		{"NoHeaders", nil, false},
		{"SameOrigin", map[string]string{"Sec-Fetch-Site": "same-origin"}, false},
		{"None", map[string]string{"Sec-Fetch-Site": "none"}, false},
		{"CrossSite", map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
		{"SameSite", map[string]string{"Sec-Fetch-Site": "same-site"}, true},
		{"UnknownValue", map[string]string{"Sec-Fetch-Site": "whatever"}, true},
		{"OwnOrigin", map[string]string{"Origin": "https://hackdesk.example"}, false},
		{"OwnOriginDefaultPort", map[string]string{"Origin": "https://hackdesk.example:443"}, false},
		{"ForeignOrigin", map[string]string{"Origin": "https://evil.example"}, true},
		{"SiblingOrigin", map[string]string{"Origin": "https://app.hackdesk.example"}, true},
		{"HTTPOrigin", map[string]string{"Origin": "http://hackdesk.example"}, true},
		{"NullOrigin", map[string]string{"Origin": "null"}, true},
		{"SameOriginButForeignOrigin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"}, true},
		{"SameOriginAndOwnOrigin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "https://hackdesk.example"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			if got := CrossSite(h, origin); got != tc.want {
				t.Errorf("CrossSite = %v, want %v", got, tc.want)
			}
		})
	}
}
