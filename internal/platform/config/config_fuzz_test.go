package config

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseTrustedProxies: a refused list names TRUSTED_PROXIES; an
// accepted one holds one canonical prefix (valid, masked, no zone, IPv4 not
// written as IPv6) per non-blank item, each containing the address its item
// named, and the printed prefixes parse back to the same list.
func FuzzParseTrustedProxies(f *testing.F) {
	for _, s := range []string{
		"", " , ,", "10.0.0.0/8, 192.168.1.7, 2001:db8::/32,::1", "10.1.2.3/8", "::ffff:10.1.2.3,::ffff:10.0.0.0/104",
		"::ffff:10.0.0.0/95", "proxy.internal", "10.0.0.0/33", "10.0.0.1:80", "fe80::1%eth0", "fe80::1%eth0/64",
		"0.0.0.0/0", "::/0", "1.2.3.4/032", "01.2.3.4", "1.2.3.4/-1", "[::1]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, err := ParseTrustedProxies(v)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "TRUSTED_PROXIES: ") {
				t.Fatalf("ParseTrustedProxies(%q) error %q does not name TRUSTED_PROXIES", v, err)
			}
			return
		}
		var items []string
		for _, it := range strings.Split(v, ",") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, it)
			}
		}
		if len(got) != len(items) {
			t.Fatalf("ParseTrustedProxies(%q) = %v for %d items", v, got, len(items))
		}
		printed := make([]string, len(got))
		for i, p := range got {
			if !p.IsValid() || p != p.Masked() || p.Addr().Zone() != "" || (p.Addr().Is4In6() && p.Bits() >= 96) {
				t.Fatalf("ParseTrustedProxies(%q)[%d] = %v is not canonical", v, i, p)
			}
			// The item's own address is trusted, as the client address
			// walk (api.clientAddr) sees it: unmapped.
			a, bits := itemAddr(items[i])
			if mapped := a.Is4In6() && bits < 96; !mapped && !p.Contains(a.Unmap()) {
				t.Fatalf("ParseTrustedProxies(%q): %v does not contain %v from %q", v, p, a, items[i])
			}
			printed[i] = p.String()
		}
		again, err := ParseTrustedProxies(strings.Join(printed, ","))
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("ParseTrustedProxies(%q) = %v, printed and parsed again = %v (%v)", v, got, again, err)
		}
	})
}

// itemAddr is the address an accepted item names and its prefix length.
func itemAddr(item string) (netip.Addr, int) {
	if p, err := netip.ParsePrefix(item); err == nil {
		return p.Addr(), p.Bits()
	}
	a, _ := netip.ParseAddr(item)
	return a, a.BitLen()
}
