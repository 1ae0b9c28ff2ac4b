package ratelimit

// KeyOf is the counter row's key of client key k under l, for tests that
// write a counter row themselves.
func KeyOf(l *Limiter, k string) string { return l.key(k) }
