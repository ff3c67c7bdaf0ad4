package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cogflow/cogflow/compiler/trace"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/browser"
)

// runRecord records a demonstration in the browser into a trace. Whatever
// ends the recording — the stop chord, Ctrl-C, closing the tab — the trace
// of what was recorded is written.
func runRecord(c *cli, args []string) int {
	fs := c.newFlags("record")
	url := fs.String("url", "", "the page to start on (required)")
	out := fs.String("o", "demo.trace.json", "the trace file to write")
	headless := fs.Bool("headless", false, "run Chromium without a window (tests)")
	browserURL := fs.String("browser-url", "", "record in a running browser (ws://… or http://host:port)")
	chrome := fs.String("chrome", "", "the Chromium executable (default: $COGFLOW_CHROME, /usr/bin/chromium)")
	chord := fs.String("stop-chord", browser.DefaultStopChord, `the key chord that ends the recording ("none" to disable)`)
	drv := fs.String("driver", "browser", "the driver to record with: browser or android")
	android := androidRecordFlags(fs)
	if _, code, ok := c.parseArgs(fs, args); !ok {
		return code
	}
	if *drv == "android" {
		return c.recordAndroid(*out, android)
	}
	if *drv != "browser" {
		fmt.Fprintf(c.stderr, "cogflow record: no recorder for driver %q (browser, android)\n", *drv)
		return exitUsage
	}
	if *url == "" {
		fmt.Fprintln(c.stderr, "cogflow record: --url is required")
		return exitUsage
	}
	parent := c.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, err := browser.Start(ctx, driver.Options{Headed: !*headless, RemoteURL: *browserURL, Executable: *chrome})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
		return exitNoDriver
	}
	defer d.Close()
	fmt.Fprintf(c.stderr, "recording %s — press %s, Ctrl-C or close the tab to stop\n", *url, *chord)
	tr, recErr := d.Record(ctx, *url, browser.RecordOptions{StopChord: *chord})
	if tr != nil {
		if err := trace.Save(*out, tr); err != nil {
			fmt.Fprintf(c.stderr, "cogflow record: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(c.stdout, "wrote %s: %d events, %d snapshots\n", *out, len(tr.Events), len(tr.Snapshots))
	}
	if recErr != nil {
		fmt.Fprintf(c.stderr, "cogflow record: %v\n", recErr)
		return exitStepFailed
	}
	return exitOK
}
