package app_test

import (
	"strings"
	"sync"
)

// syncWriter lets the worker's goroutines and the test share a builder.
type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
