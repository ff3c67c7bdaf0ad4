package browser

import (
	"context"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

func init() {
	driver.RegisterRecorder("browser", startRecorder)
}

// sessionRecorder is the browser's driver.Recorder: a driver started for the
// recording and Record on its first tab.
type sessionRecorder struct {
	d    *Driver
	opts driver.RecordOptions
}

// startRecorder starts Chromium (or attaches to opts.Driver.RemoteURL) for
// a recording that starts on opts.URL.
func startRecorder(ctx context.Context, opts driver.RecordOptions) (driver.Recorder, error) {
	if opts.URL == "" {
		return nil, fmt.Errorf("browser: record: %w", driver.ErrNoURL)
	}
	d, err := Start(ctx, opts.Driver)
	if err != nil {
		return nil, err
	}
	return &sessionRecorder{d: d, opts: opts}, nil
}

func (r *sessionRecorder) Banner() string {
	return fmt.Sprintf("recording %s — press %s, Ctrl-C or close the tab to stop", r.opts.URL, stopChordOf(r.opts.StopChord))
}

func (r *sessionRecorder) Record(ctx context.Context) (*trace.Trace, error) {
	o := RecordOptions{StopChord: r.opts.StopChord, Progress: r.opts.Progress}
	if r.opts.Warn != nil {
		o.Warn = func(err error) { r.opts.Warn(err.Error()) }
	}
	return r.d.Record(ctx, r.opts.URL, o)
}

func (r *sessionRecorder) Close() error { return r.d.Close() }

// stopChordOf is the chord that stops a recording, as the banner names it.
func stopChordOf(s string) string {
	if s == "" {
		return DefaultStopChord
	}
	return s
}
