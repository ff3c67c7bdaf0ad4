package llm

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Limiter is a token bucket that spaces requests to a model: at most
// Burst at once, then one every 60s/RequestsPerMinute. One Limiter is
// shared by every worker of a batch (cogflow run --parallel), so that N
// browsers do not make N times the requests an endpoint allows. It is
// safe for concurrent use; a nil *Limiter does not limit.
type Limiter struct {
	interval time.Duration
	burst    int

	mu sync.Mutex
	// tat is the theoretical arrival time of the next request (GCRA): the
	// bucket is full when tat <= now, and a request may go at
	// tat - (burst-1)·interval.
	tat time.Time
}

// NewLimiter allows perMinute requests a minute, burst of them at once
// (burst < 1 counts as 1: evenly spaced). perMinute <= 0 means no limit:
// the result is nil.
func NewLimiter(perMinute, burst int) *Limiter {
	if perMinute <= 0 {
		return nil
	}
	return &Limiter{interval: time.Minute / time.Duration(perMinute), burst: max(burst, 1)}
}

// Wait blocks until a request may go, or ctx ends (its error). A request
// that gave up waiting keeps its place spent: the next ones are not
// hurried for it.
func (l *Limiter) Wait(ctx context.Context) error {
	if l == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	now := time.Now()
	if l.tat.Before(now) {
		l.tat = now
	}
	at := l.tat.Add(-time.Duration(l.burst-1) * l.interval)
	l.tat = l.tat.Add(l.interval) // this caller's place, taken now: FIFO by arrival
	l.mu.Unlock()
	wait := at.Sub(now)
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Limited is a Client whose requests wait for a Limiter first.
type Limited struct {
	Client
	L *Limiter
}

// Limit returns c with its requests spaced by l; c itself when l is nil.
// A nil c stays nil (no model configured).
func Limit(c Client, l *Limiter) Client {
	if c == nil || l == nil {
		return c
	}
	return Limited{Client: c, L: l}
}

// Complete waits for the limiter, then asks the client. The time spent
// waiting is not the request's latency.
func (c Limited) Complete(ctx context.Context, r Request) (*Response, error) {
	if err := c.L.Wait(ctx); err != nil {
		return nil, errors.Join(errors.New("llm: waiting for the rate limit (llm { requests_per_minute })"), err)
	}
	return c.Client.Complete(ctx, r)
}
