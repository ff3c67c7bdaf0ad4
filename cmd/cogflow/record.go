package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/trace"
)

// recordFlags are cogflow record's flags, for every driver.
type recordFlags struct {
	driver, out, chord      *string
	url, browserURL, chrome *string // browser
	headless                *bool   // browser
	adb, serial             *string // android
	app                     *string // android and uia
	noAPIFirst              *bool
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
		noAPIFirst: fs.Bool("no-api-first", false, "browser: leave the forms' facts out of the trace, so that compiling it keeps the UI steps (no api-first rewrite)"),
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
	return c.record(ctx, f)
}

// record records with the recorder of the driver named by --driver.
func (c *cli) record(ctx context.Context, f recordFlags) int {
	r, err := driver.StartRecorder(ctx, *f.driver, driver.RecordOptions{
		// --adb and --browser-url name the remote of one driver each, as
		// in cogflow run.
		Driver:    driver.Options{Headed: !*f.headless, RemoteURL: cmp.Or(*f.adb, *f.browserURL), Executable: *f.chrome, Serial: *f.serial},
		URL:       *f.url,
		App:       *f.app,
		StopChord: *f.chord,
		Warn:      c.recordWarning,
		Progress:  c.recordProgress,
	})
	switch {
	case errors.Is(err, driver.ErrNoRecorder):
		fmt.Fprintf(c.stderr, "cogflow record: no recorder for driver %q (browser, android, uia)\n", *f.driver)
		return exitUsage
	case errors.Is(err, driver.ErrNoURL):
		fmt.Fprintln(c.stderr, "cogflow record: --url is required")
		return exitUsage
	case err != nil:
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
		return exitNoDriver
	}
	defer r.Close()
	fmt.Fprintln(c.stderr, r.Banner())
	tr, err := r.Record(ctx)
	if *f.noAPIFirst {
		dropFormFacts(tr)
	}
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

// dropFormFacts removes the forms' facts from a trace's snapshots: they
// are the compiler's only proof for an api-first rewrite of a form, so a
// trace without them compiles to the UI steps.
func dropFormFacts(tr *trace.Trace) {
	if tr == nil {
		return
	}
	for _, s := range tr.Snapshots {
		for i := range s.Elements {
			s.Elements[i].Form = nil
		}
	}
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
