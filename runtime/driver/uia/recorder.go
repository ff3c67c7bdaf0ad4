package uia

import (
	"context"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

func init() {
	driver.RegisterRecorder("uia", startRecorder)
}

// sessionRecorder is the desktop's driver.Recorder: Record opens its own
// UI Automation session and hooks, so there is nothing to start before it
// or to release after it.
type sessionRecorder struct {
	opts driver.RecordOptions
}

// startRecorder checks nothing: off Windows, Record fails with
// driver.ErrUnavailable.
func startRecorder(_ context.Context, opts driver.RecordOptions) (driver.Recorder, error) {
	return &sessionRecorder{opts: opts}, nil
}

func (r *sessionRecorder) Banner() string {
	chord := r.opts.StopChord
	if chord == "" {
		chord = DefaultStopChord
	}
	return fmt.Sprintf("recording the desktop — press %s or Ctrl-C to stop", chord)
}

func (r *sessionRecorder) Record(ctx context.Context) (*trace.Trace, error) {
	o := RecordOptions{App: r.opts.App, StopChord: r.opts.StopChord}
	if r.opts.Warn != nil {
		o.Warn = func(err error) { r.opts.Warn(err.Error()) }
	}
	return Record(ctx, o)
}

func (r *sessionRecorder) Close() error { return nil }
