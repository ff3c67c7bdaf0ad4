package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// runImport converts a Chrome DevTools Recorder recording into a trace.
func runImport(c *cli, args []string) int {
	fs := c.newFlags("import")
	out := fs.String("o", "", "the trace file to write (default: the recording's name with .trace.json)")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow import: give exactly one recording")
		return exitUsage
	}
	f, err := os.Open(files[0])
	if err != nil {
		return c.readError("import", err)
	}
	defer f.Close()
	tr, warnings, err := trace.FromDevTools(f)
	if err != nil {
		trace.Diagnostics(err, files[0]).Render(c.stderr, nil)
		return exitBadInput
	}
	for _, w := range warnings {
		w.Diagnostic(files[0]).Render(c.stderr, nil)
	}
	dst := *out
	if dst == "" {
		dst = strings.TrimSuffix(files[0], ".json") + ".trace.json"
	}
	if err := trace.Save(dst, tr); err != nil {
		fmt.Fprintf(c.stderr, "cogflow import: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(c.stdout, "wrote %s: %d events, %d steps not converted\n", dst, len(tr.Events), len(warnings))
	return exitOK
}
