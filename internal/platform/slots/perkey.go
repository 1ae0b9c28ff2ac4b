package slots

import "sync"

// PerKey bounds how many callers hold a place under one key (an account)
// at once, in this process. A caller over the bound is turned away at
// once rather than queued: the places are for work a client starts itself
// (an upload), and a client that starts more than its share is told to
// wait for its own.
type PerKey struct {
	max  int
	mu   sync.Mutex
	held map[string]int
}

// NewPerKey makes a bound of n places per key (at least one).
func NewPerKey(n int) *PerKey {
	return &PerKey{max: max(n, 1), held: map[string]int{}}
}

// TryAcquire takes a place under key. It reports false, taking nothing,
// when key holds every place already; otherwise the returned function
// gives the place back (calling it again does nothing).
func (p *PerKey) TryAcquire(key string) (release func(), ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held[key] >= p.max {
		return nil, false
	}
	p.held[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.held[key]--; p.held[key] <= 0 {
				delete(p.held, key) // no entry left behind per key ever seen
			}
		})
	}, true
}
