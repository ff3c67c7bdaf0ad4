package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android"
	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/driver/uia"
	"github.com/cogflow/cogflow/runtime/trace"
)

// recordFlags are cogflow record's flags, for every driver.
type recordFlags struct {
	driver, out, chord      *string
	url, browserURL, chrome *string // browser
	headless                *bool   // browser
	adb, serial             *string // android
	app                     *string // android and uia
}

// runRecord records a demonstration into a trace: in the browser, on an
// Android device or on the Windows desktop. Whatever ends the recording —
// the stop chord, Ctrl-C, closing the tab — the trace of what was
// recorded is written.
func runRecord(c *cli, args []string) int {
	fs := c.newFlags("record")
	f := recordFlags{
		driver:     fs.String("driver", "browser", "the driver to record with: browser, android or uia"),
		out:        fs.String("o", "demo.trace.json", "the trace file to write"),
		chord:      fs.String("stop-chord", browser.DefaultStopChord, `browser, uia: the key chord that ends the recording ("none" to disable)`),
		url:        fs.String("url", "", "browser: the page to start on (required)"),
		headless:   fs.Bool("headless", false, "browser: run Chromium without a window (tests)"),
		browserURL: fs.String("browser-url", "", "browser: record in a running browser (ws://… or http://host:port)"),
		chrome:     fs.String("chrome", "", "browser: the Chromium executable (default: $COGFLOW_CHROME, /usr/bin/chromium)"),
		adb:        fs.String("adb", "", "android: the adb server, HOST:PORT (default 127.0.0.1:5037)"),
		serial:     fs.String("serial", "", "android: the device's serial when several are attached"),
		app:        fs.String("app", "", "android: the app to launch (package or package/.Activity); uia: the program or AppUserModelID to start"),
	}
	if _, code, ok := c.parseArgs(fs, args); !ok {
		return code
	}
	parent := c.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch *f.driver {
	case "browser":
		return c.recordBrowser(ctx, f)
	case "android":
		return c.recordAndroid(ctx, f)
	case "uia":
		fmt.Fprintf(c.stderr, "recording the desktop — press %s or Ctrl-C to stop\n", *f.chord)
		tr, err := uia.Record(ctx, uia.RecordOptions{App: *f.app, StopChord: *f.chord, Warn: func(err error) { c.recordWarning(err.Error()) }})
		return c.finishRecording(*f.out, tr, err)
	}
	fmt.Fprintf(c.stderr, "cogflow record: no recorder for driver %q (browser, android, uia)\n", *f.driver)
	return exitUsage
}

func (c *cli) recordBrowser(ctx context.Context, f recordFlags) int {
	if *f.url == "" {
		fmt.Fprintln(c.stderr, "cogflow record: --url is required")
		return exitUsage
	}
	d, err := browser.Start(ctx, driver.Options{Headed: !*f.headless, RemoteURL: *f.browserURL, Executable: *f.chrome})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
		return exitNoDriver
	}
	defer d.Close()
	fmt.Fprintf(c.stderr, "recording %s — press %s, Ctrl-C or close the tab to stop\n", *f.url, *f.chord)
	tr, err := d.Record(ctx, *f.url, browser.RecordOptions{StopChord: *f.chord, Warn: func(err error) { c.recordWarning(err.Error()) },
		Progress: c.recordProgress})
	return c.finishRecording(*f.out, tr, err)
}

// recordAndroid records on a device; Ctrl-C ends it.
func (c *cli) recordAndroid(ctx context.Context, f recordFlags) int {
	d, err := android.Open(ctx, driver.Options{RemoteURL: *f.adb, Serial: *f.serial})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
		return exitNoDriver
	}
	defer d.Close()
	what := "the device"
	if *f.app != "" {
		what = *f.app
	}
	fmt.Fprintf(c.stderr, "recording %s — press Ctrl-C to stop\n", what)
	tr, err := d.Record(ctx, android.RecordOptions{App: *f.app, Warn: c.recordWarning})
	return c.finishRecording(*f.out, tr, err)
}

// recordProgress shows each event as it is recorded: its kind and where
// it happened (the address, or the target's role and name), never a typed
// text, which may be a password.
func (c *cli) recordProgress(e trace.Event) {
	where := e.URL
	if e.Target != nil {
		where = e.Target.Role
		if e.Target.Name != "" {
			where += fmt.Sprintf(" %q", e.Target.Name)
		}
	}
	fmt.Fprintf(c.stderr, "  %s %s %s\n", e.ID, e.Kind, where)
}

func (c *cli) recordWarning(msg string) {
	fmt.Fprintf(c.stderr, "cogflow record: warning: %s\n", msg)
}

// finishRecording writes the trace recorded, whatever ended the
// recording, and says how it ended.
func (c *cli) finishRecording(out string, tr *trace.Trace, recErr error) int {
	if tr != nil {
		if err := trace.Save(out, tr); err != nil {
			fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(c.stdout, "wrote %s: %d events, %d snapshots\n", out, len(tr.Events), len(tr.Snapshots))
	}
	switch {
	case recErr == nil:
		return exitOK
	case errors.Is(recErr, driver.ErrUnavailable):
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", recErr)
		return exitNoDriver
	}
	fmt.Fprintf(c.stderr, "cogflow record: %v\n", recErr)
	return exitStepFailed
}
