package main

import (
	"fmt"
	"os"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/redact"
)

const workerArgs = "--temporal HOST:PORT [--namespace NS] [--task-queue Q] [--browsers N | --browser-url ws://…] [--chrome PATH] [--dir .cogflow] [--key-file F] [--tls-cert F --tls-key F] [--tls-ca F] [--tls-server-name S]"

// runWorker serves batches submitted to Temporal: each row in a fresh
// browser, journaled in --dir (see docs/scale.md).
func runWorker(c *cli, args []string) int {
	fs := c.newFlags("worker")
	var t temporalFlags
	t.add(fs, true)
	browsers := fs.Int("browsers", 1, "rows run at once, each in its own fresh Chromium")
	browserURL := fs.String("browser-url", "", "run rows in this remote browser (any CDP endpoint, ws://…) instead of a local Chromium, one row at a time")
	chrome := fs.String("chrome", "", "the Chromium executable (default: $COGFLOW_CHROME, /usr/bin/chromium)")
	root := fs.String("dir", ".cogflow", "where rows are journaled: a folder the submitting machine reads too (docs/scale.md)")
	name := fs.String("name", "", "this worker's name in results and logs (default HOST-PID)")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) > 0 || *browsers < 1 {
		fs.Usage()
		return exitUsage
	}
	if *browserURL != "" {
		*browsers = 1 // one remote browser, one row at a time
	}
	if *name == "" {
		host, _ := os.Hostname()
		*name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	conf, cdiags := config.Load(".")
	if cdiags.HasErrors() {
		conf.Render(c.stderr, cdiags)
		return exitBadInput
	}
	ctx, stop := signalled(c.ctx)
	defer stop()
	cl, sealed, code := c.dialTemporal(ctx, "worker", t)
	if cl == nil {
		return code
	}
	defer cl.Close()
	if !sealed {
		fmt.Fprintf(c.stderr, "cogflow worker: warning: no payload key ($%s): this worker cannot run batches with secret inputs, and its rows' progress reaches the server unencrypted\n", temporalrun.KeyEnv)
	}
	r := &temporalrun.Runner{Client: cl, Dir: *root, Name: *name, Log: c.stderr,
		Driver: driver.Options{RemoteURL: *browserURL, Executable: *chrome},
		Answerers: func(secrets *redact.Set) ([]cogflow.Answerer, error) {
			m, err := cogflow.ModelAnswerer(conf, cogflow.CacheOptions{JournalDir: *root}, secrets)
			if err != nil {
				return nil, err
			}
			return []cogflow.Answerer{m}, nil
		}}
	w := temporalrun.NewWorker(cl, t.queue, *browsers, r)
	if err := w.Start(); err != nil {
		fmt.Fprintf(c.stderr, "cogflow worker: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(c.stderr, "cogflow worker: %s serving task queue %s on %s (namespace %s), %d browser(s), journals in %s\n", *name, t.queue, t.conn.Address, t.conn.Namespace, *browsers, *root)
	<-ctx.Done()
	fmt.Fprintf(c.stderr, "cogflow worker: stopping: rows in flight stop between steps and go to another worker\n")
	w.Stop()
	return exitOK
}
