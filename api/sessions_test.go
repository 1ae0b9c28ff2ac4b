package api

import (
	"testing"
	"time"
)

func TestSessionExpiry(t *testing.T) {
	login := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	stored := login.Add(sessionAbsolute) // what login writes
	h := time.Hour
	cases := []struct {
		name     string
		role     string
		lastSeen time.Duration // after login
		stored   time.Time
		want     time.Duration // after login
	}{
		{"member fresh: idle from login", "member", 0, stored, 7 * 24 * h},
		{"member used lately: idle from last use", "member", 10 * 24 * h, stored, 17 * 24 * h},
		{"member near the end: absolute", "member", 29 * 24 * h, stored, 30 * 24 * h},
		{"admin fresh: 12 h idle", "admin", 0, stored, 12 * h},
		{"admin used lately", "admin", 3 * 24 * h, stored, 3*24*h + 12*h},
		{"admin near the end: 7 days absolute", "admin", 6*24*h + 20*h, stored, 7 * 24 * h},
		{"superadmin like admin", "superadmin", 0, stored, 12 * h},
		{"a stored limit earlier than the role's wins", "member", 0, login.Add(24 * h), 24 * h},
		// A member's 10-day-old session promoted to admin is past the
		// admin's absolute limit.
		{"promoted: the stricter limit at once", "admin", 10 * 24 * h, stored, 7 * 24 * h},
	}
	for _, c := range cases {
		got := sessionExpiry(c.role, login, login.Add(c.lastSeen), c.stored)
		if want := login.Add(c.want); !got.Equal(want) {
			t.Errorf("%s: expiry at login+%v, want login+%v", c.name, got.Sub(login), c.want)
		}
	}
}
