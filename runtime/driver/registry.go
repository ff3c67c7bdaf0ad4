package driver

import (
	"sort"
	"sync"
)

// Registry maps names to the factories of one kind of plug-in — drivers
// here, recorders by RegisterRecorder (recorder.go) — filled by the plug-ins'
// init functions and read by the command line. It is safe for concurrent
// use.
type Registry[F any] struct {
	kind string
	mu   sync.Mutex
	m    map[string]F
}

// NewRegistry returns an empty registry of the plug-ins called kind
// ("driver", "recorder"), which starts its panic messages.
func NewRegistry[F any](kind string) *Registry[F] {
	return &Registry[F]{kind: kind, m: map[string]F{}}
}

// Register makes f available by name. It panics on a duplicate, which is a
// programming error.
func (r *Registry[F]) Register(name string, f F) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.m[name]; dup {
		panic(r.kind + ": Register called twice for " + name)
	}
	r.m[name] = f
}

// Names lists the registered names, sorted.
func (r *Registry[F]) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.m))
	for n := range r.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the factory registered as name.
func (r *Registry[F]) Lookup(name string) (F, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.m[name]
	return f, ok
}
