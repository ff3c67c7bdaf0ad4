package android

import (
	"context"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

func init() {
	driver.RegisterRecorder("android", startRecorder)
}

// sessionRecorder is Android's driver.Recorder: a driver on the device
// and Record on it.
type sessionRecorder struct {
	d    *Driver
	opts driver.RecordOptions
}

// startRecorder reaches the device through the adb server of
// opts.Driver (RemoteURL, Serial).
func startRecorder(ctx context.Context, opts driver.RecordOptions) (driver.Recorder, error) {
	d, err := Open(ctx, opts.Driver)
	if err != nil {
		return nil, err
	}
	return &sessionRecorder{d: d, opts: opts}, nil
}

func (r *sessionRecorder) Banner() string {
	what := "the device"
	if r.opts.App != "" {
		what = r.opts.App
	}
	return fmt.Sprintf("recording %s — press Ctrl-C to stop", what)
}

func (r *sessionRecorder) Record(ctx context.Context) (*trace.Trace, error) {
	return r.d.Record(ctx, RecordOptions{App: r.opts.App, Warn: r.opts.Warn})
}

func (r *sessionRecorder) Close() error { return r.d.Close() }
