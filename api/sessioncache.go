package api

import (
	"sync"
	"time"
)

// SessionCacheTTL bounds how long one API process answers from a session
// it read from PostgreSQL before reading it again. Every replica keeps its
// own cache and none is told of another's changes, so this is also how late
// a sign-out, a revoked session, a demotion or a deleted account can be
// honoured by the other replicas: under one second. The process that makes
// such a change forgets its cached sessions at once.
const SessionCacheTTL = 900 * time.Millisecond

// sessionCacheMax caps the entries one process keeps (a flood of distinct
// valid tokens cannot grow it without bound); when full, expired entries
// go, and if none has, the whole cache does.
const sessionCacheMax = 20_000

// sessionCache maps a session token's hash to the principal read for it,
// for at most ttl from the moment before the read began. Only successful
// look-ups are kept: an unknown or refused token is read every time.
type sessionCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[[32]byte]sessionEntry
}

type sessionEntry struct {
	p Principal
	// until is when the entry stops being served: the read's start plus
	// ttl, or earlier when the session itself ends by then.
	until time.Time
}

func newSessionCache(ttl time.Duration) *sessionCache {
	if ttl <= 0 {
		return nil
	}
	return &sessionCache{ttl: ttl, now: time.Now, entries: map[[32]byte]sessionEntry{}}
}

// get returns a copy of the cached principal for key, if still fresh.
func (c *sessionCache) get(key [32]byte) (*Principal, bool) {
	if c == nil {
		return nil, false
	}
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[key]
	if ok && !now.Before(e.until) {
		delete(c.entries, key)
		ok = false
	}
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	p := e.p
	return &p, true
}

// put keeps p for key until readAt+ttl, or until sessionEnd when that is
// sooner. readAt is taken before the read, so the entry never outlives
// the state it saw by more than ttl.
func (c *sessionCache) put(key [32]byte, p Principal, readAt, sessionEnd time.Time) {
	if c == nil {
		return
	}
	until := readAt.Add(c.ttl)
	if sessionEnd.Before(until) {
		until = sessionEnd
	}
	if !readAt.Before(until) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= sessionCacheMax {
		now := c.now()
		for k, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= sessionCacheMax {
			c.entries = map[[32]byte]sessionEntry{}
		}
	}
	c.entries[key] = sessionEntry{p: p, until: until}
}

// clear forgets every cached session: called by this process after any
// change to sessions, roles or accounts, so that it honours the change at
// once (the other replicas within the ttl).
func (c *sessionCache) clear() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.entries = map[[32]byte]sessionEntry{}
	c.mu.Unlock()
}
