package llm

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// countingClient answers every request at once and records when each came.
type countingClient struct {
	mu    sync.Mutex
	times []time.Time
}

func (c *countingClient) Complete(ctx context.Context, r Request) (*Response, error) {
	c.mu.Lock()
	c.times = append(c.times, time.Now())
	c.mu.Unlock()
	return &Response{Text: "ok"}, nil
}

// TestLimiterSpacesConcurrentCallers: n workers ask at once through one
// shared limiter; by any time t after the first, at most burst +
// (t-first)/interval requests have gone (a lower bound on each request's
// time, which a loaded machine can only make later, never earlier).
func TestLimiterSpacesConcurrentCallers(t *testing.T) {
	tests := []struct {
		name             string
		perMinute, burst int
		callers          int
	}{
		{name: "evenly spaced", perMinute: 600, burst: 1, callers: 6},      // one per 100ms
		{name: "burst then spaced", perMinute: 1200, burst: 3, callers: 8}, // 3 at once, then one per 50ms
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLimiter(tc.perMinute, tc.burst)
			interval := time.Minute / time.Duration(tc.perMinute)
			inner := &countingClient{}
			c := Limit(inner, l)
			start := time.Now()
			var wg sync.WaitGroup
			for range tc.callers {
				wg.Go(func() {
					if _, err := c.Complete(context.Background(), Request{}); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			times := slices.Clone(inner.times)
			slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
			if len(times) != tc.callers {
				t.Fatalf("%d requests reached the client, want %d", len(times), tc.callers)
			}
			const slack = 5 * time.Millisecond // timer and clock granularity
			for i, at := range times {
				earliest := time.Duration(max(i-(tc.burst-1), 0)) * interval
				if got := at.Sub(start); got < earliest-slack {
					t.Errorf("request %d went after %v, want no sooner than %v", i+1, got, earliest)
				}
			}
			// The first burst goes at once (a generous bound: not a timing
			// claim, only that the bucket starts full).
			if got := times[tc.burst-1].Sub(start); got > interval {
				t.Errorf("the first %d requests took %v: the bucket should start full", tc.burst, got)
			}
		})
	}
}

func TestLimiterGivesUpWithContext(t *testing.T) {
	l := NewLimiter(1, 1) // one a minute
	if err := l.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	inner := &countingClient{}
	_, err := Limit(inner, l).Complete(ctx, Request{})
	if !errors.Is(err, context.DeadlineExceeded) || len(inner.times) != 0 {
		t.Fatalf("a request that cannot wait its turn: %v, %d requests sent", err, len(inner.times))
	}
}

func TestNoLimit(t *testing.T) {
	if l := NewLimiter(0, 5); l != nil {
		t.Fatalf("NewLimiter(0) = %+v, want nil (no limit)", l)
	}
	var l *Limiter
	if err := l.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	inner := &countingClient{}
	if c := Limit(inner, nil); c != Client(inner) {
		t.Errorf("Limit without a limiter wraps the client")
	}
	if c := Limit(nil, NewLimiter(60, 1)); c != nil {
		t.Errorf("Limit of no client = %v, want nil", c)
	}
}
