package browser

import (
	"context"
	"fmt"
	"sync"

	"github.com/go-rod/rod"

	"github.com/cogflow/cogflow/runtime/driver"
)

// Shared is one Chromium that several drivers use at once, each in a
// browser context of its own (Target.createBrowserContext: an incognito
// profile with its own cookies, storage and cache), so that the rows of a
// batch run side by side in one browser process without seeing each
// other's state. It is launched like Start's browser, or is the browser at
// Options.RemoteURL (then Close leaves it running).
type Shared struct {
	opts   driver.Options
	url    string // the browser's DevTools URL
	proc   *process
	ctl    *rod.Browser // a connection of its own, to ask the browser to exit
	cancel context.CancelFunc
	once   sync.Once
	err    error
}

// StartShared launches Chromium (or resolves Options.RemoteURL) for Open.
func StartShared(ctx context.Context, opts driver.Options) (*Shared, error) {
	s := &Shared{opts: opts}
	if opts.RemoteURL != "" {
		u, err := remoteURL(ctx, opts.RemoteURL)
		if err != nil {
			return nil, err
		}
		s.url = u
		return s, nil
	}
	p, err := launch(ctx, opts)
	if err != nil {
		return nil, err
	}
	s.proc, s.url = p, p.url
	connCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	b := rod.New().Context(connCtx).ControlURL(p.url).NoDefaultDevice()
	if err := connect(ctx, b); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("browser: connecting to %s: %w", p.url, err)
	}
	s.ctl = b
	return s, nil
}

// Open starts a driver in a fresh browser context of the shared browser.
// Its Close disposes of the context (its tabs, cookies and storage) and
// leaves the browser to the others. It is safe for concurrent use.
func (s *Shared) Open(ctx context.Context) (*Driver, error) {
	o := s.opts
	o.RemoteURL = s.url
	return Start(ctx, o)
}

// Close ends a browser StartShared launched (the drivers Open gave should
// be closed first) and removes its profile; a remote browser stays.
func (s *Shared) Close() error {
	s.once.Do(func() {
		if s.proc != nil {
			s.err = s.proc.stop(s.ctl)
		}
		if s.cancel != nil {
			s.cancel()
		}
	})
	return s.err
}
