package api

import (
	"testing"
	"time"
)

func TestSessionCacheBounds(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	c := newSessionCache(900 * time.Millisecond)
	c.now = func() time.Time { return now }
	k := [32]byte{1}
	c.put(k, Principal{Role: "admin"}, now, now.Add(time.Hour))
	if p, ok := c.get(k); !ok || p.Role != "admin" {
		t.Fatalf("fresh entry: %v %v", p, ok)
	}
	p, _ := c.get(k)
	p.Role = "member" // a copy: the cache is not changed through it
	if q, _ := c.get(k); q.Role != "admin" {
		t.Fatal("get handed out the cached principal itself")
	}
	now = now.Add(900 * time.Millisecond)
	if _, ok := c.get(k); ok {
		t.Fatal("entry served at its ttl")
	}
	// A session that ends before the ttl is not served past its end.
	c.put(k, Principal{}, now, now.Add(100*time.Millisecond))
	now = now.Add(100 * time.Millisecond)
	if _, ok := c.get(k); ok {
		t.Fatal("entry served past the session's end")
	}
	c.put(k, Principal{}, now, now.Add(time.Hour))
	c.clear()
	if _, ok := c.get(k); ok {
		t.Fatal("entry served after clear")
	}
	// Off: nothing is kept, and the nil cache's methods are safe.
	off := newSessionCache(-1)
	off.put(k, Principal{}, now, now.Add(time.Hour))
	off.clear()
	if _, ok := off.get(k); ok {
		t.Fatal("a cache that is off served an entry")
	}
}

func TestSessionCacheCapped(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	c := newSessionCache(time.Second)
	c.now = func() time.Time { return now }
	for i := range sessionCacheMax + 10 {
		var k [32]byte
		k[0], k[1], k[2] = byte(i), byte(i>>8), byte(i>>16)
		c.put(k, Principal{}, now, now.Add(time.Hour))
	}
	if n := len(c.entries); n > sessionCacheMax {
		t.Fatalf("%d entries, cap %d", n, sessionCacheMax)
	}
}
