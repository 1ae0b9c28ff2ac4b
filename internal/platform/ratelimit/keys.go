package ratelimit

import (
	"net"
	"net/netip"
	"strings"
)

// ClientKey is the one key the per-IP limits count a client under, given
// the address the edge settled on (the request's RemoteAddr): IPv4 as it
// is (an IPv4-mapped IPv6 address as its IPv4) and IPv6 by its /64, the
// block one subscriber is usually given, so a client cannot take a fresh
// bucket for each address of its own network.
func ClientKey(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is4() {
		return addr.String()
	}
	return netip.PrefixFrom(addr, 64).Masked().String()
}

// EmailKey keys a limit by email, however it is spelt.
func EmailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// EmailIPKey keys a limit by email and client (failed logins,
// forgot-password).
func EmailIPKey(email, remoteAddr string) string {
	return EmailKey(email) + "\x00" + ClientKey(remoteAddr)
}
