package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cogflow/cogflow/compiler/trace"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android"
)

// androidFlags are record's flags for --driver android.
type androidFlags struct {
	adb, serial, app *string
}

func androidRecordFlags(fs *flag.FlagSet) androidFlags {
	return androidFlags{
		adb:    fs.String("adb", "", "android: the adb server, HOST:PORT (default 127.0.0.1:5037)"),
		serial: fs.String("serial", "", "android: the device's serial when several are attached"),
		app:    fs.String("app", "", "android: launch this app (package or package/.Activity) and record from there"),
	}
}

// recordAndroid records a demonstration on an Android device into a
// trace. Ctrl-C ends it; the trace of what was recorded is written
// whatever ended the recording.
func (c *cli) recordAndroid(out string, f androidFlags) int {
	parent := c.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
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
	warn := func(msg string) { fmt.Fprintf(c.stderr, "cogflow record: warning: %s\n", msg) }
	tr, recErr := d.Record(ctx, android.RecordOptions{App: *f.app, Warn: warn})
	if tr != nil {
		if err := trace.Save(out, tr); err != nil {
			fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(c.stdout, "wrote %s: %d events, %d snapshots\n", out, len(tr.Events), len(tr.Snapshots))
	}
	if recErr != nil {
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", recErr)
		return exitStepFailed
	}
	return exitOK
}
