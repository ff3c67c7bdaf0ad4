// Recording: the registry of demonstration recorders, what
// `cogflow record --driver NAME` finds by name as Open finds a  A
// recorder watches a person work in the browser, on an Android device or on
// the Windows desktop and returns what they did as a trace (runtime/trace),
// the compiler's input. Recorders register in their package's init, so a
// program that imports a driver package can record with it.

package driver

import (
	"context"
	"errors"
	"fmt"

	"github.com/cogflow/cogflow/runtime/trace"
)

// RecordOptions configure a recording, for every recorder; a recorder ignores
// what it has no use for.
type RecordOptions struct {
	// Driver says how to start or reach the browser or device: Headed,
	// Executable, RemoteURL (a running browser, an adb server), Serial.
	Driver Options
	// URL is the page a browser recording starts on; the browser
	// recorder needs one (ErrNoURL).
	URL string
	// App is started before recording and becomes the trace's start: an
	// Android package ("com.example.app" or "com.example.app/.Main"), a
	// Windows program, command or AppUserModelID.
	App string
	// StopChord is the key chord that ends a recording, like
	// "Ctrl+Shift+X"; "none" disables it; empty means the recorder's
	// default. The browser and uia recorders have one.
	StopChord string
	// Warn, when set, hears what the trace may lack: events that could
	// not be recorded, typing no screen read saw. The recording goes on.
	Warn func(msg string)
	// Progress, when set, hears of every event as it is recorded; it must
	// not block. The browser recorder streams its events; the android and
	// uia recorders change an event after adding it (a second tap makes a
	// double tap), so they do not yet.
	Progress func(trace.Event)
}

// Recorder records one demonstration: made by a RecorderFactory from RecordOptions, it
// starts recording with Record and is released with Close.
type Recorder interface {
	// Banner tells the person what is being recorded and how to stop,
	// e.g. "recording https://example.com — press Ctrl+Shift+X, Ctrl-C or
	// close the tab to stop".
	Banner() string
	// Record records until ctx ends, the stop chord is pressed or the
	// browser or device goes away. It always returns the trace recorded so
	// far, valid, with the error that ended the recording early, if any.
	// ctx's end and the stop chord are not errors: a recorder takes the
	// events already on their way before it returns (it drains).
	Record(ctx context.Context) (*trace.Trace, error)
	// Close releases the browser or device the recorder started or
	// attached to.
	Close() error
}

// RecorderFactory starts a recorder: it checks the options and starts or reaches
// the browser or device. A failure to reach it wraps
// ErrUnavailable when the recorder cannot run here.
type RecorderFactory func(ctx context.Context, opts RecordOptions) (Recorder, error)

// ErrNoURL is returned by a recorder that needs a page to start on
// (RecordOptions.URL) and was given none.
var ErrNoURL = errors.New("a page to start on is required")

// recorders are the recorders linked into the program.
var recorders = NewRegistry[RecorderFactory]("recorder")

// RegisterRecorder makes a recorder available by name, the name of its  It
// panics on a duplicate, which is a programming error.
func RegisterRecorder(name string, f RecorderFactory) { recorders.Register(name, f) }

// RecorderNames lists the registered recorders, sorted.
func RecorderNames() []string { return recorders.Names() }

// ErrNoRecorder is wrapped by StartRecorder's error for a name no recorder has.
var ErrNoRecorder = errors.New("no such recorder")

// StartRecorder starts the named recorder.
func StartRecorder(ctx context.Context, name string, opts RecordOptions) (Recorder, error) {
	f, ok := recorders.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w: %q (recorders: %v)", ErrNoRecorder, name, RecorderNames())
	}
	return f(ctx, opts)
}
