package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/redact"
)

const workerArgs = "--temporal HOST:PORT [--namespace NS] [--task-queue Q] [--browsers N | --browser-url ws://…] [--chrome PATH] [--dir .cogflow] [--name NAME] " + temporalConnArgs

// temporalConnArgs are the connection flags' synopsis (temporal.go).
const temporalConnArgs = "[--key-file F] [--tls-cert F --tls-key F] [--tls-ca F] [--tls-server-name S]"

// runWorker serves batches submitted to Temporal: each row in a fresh
// browser, journaled in --dir (see docs/scale.md).
func runWorker(c *cli, args []string) int {
	fs := c.newFlags("worker")
	var t temporalFlags
	t.add(fs, true)
	browsers := fs.Int("browsers", 1, "rows run at once, each in a fresh browser context (an incognito profile) of the worker's one Chromium")
	browserURL := fs.String("browser-url", "", "run rows in this remote browser (any CDP endpoint, ws://…) instead of a local Chromium, each in a fresh browser context")
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
	pool := &workerBrowser{opts: driver.Options{RemoteURL: *browserURL, Executable: *chrome}}
	defer pool.close()
	chat, err := chatClient(conf)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow worker: %v\n", err)
		return exitBadInput
	}
	r := &temporalrun.Runner{Client: cl, Dir: *root, Name: *name, Log: c.stderr, OpenDriver: pool.open,
		Answerers: func(secrets *redact.Set) ([]cogflow.Answerer, error) {
			var via llm.Client // nil: no model configured, answers from the cache only
			if chat != nil {
				via = &temporalrun.ModelClient{Client: cl, Queue: t.queue, Timeout: conf.LLM.Timeout}
			}
			return []cogflow.Answerer{cogflow.ModelAnswererWith(conf, cogflow.CacheOptions{JournalDir: *root}, secrets, via)}, nil
		}}
	w := temporalrun.NewWorker(cl, t.queue, *browsers, r)
	if err := w.Start(); err != nil {
		fmt.Fprintf(c.stderr, "cogflow worker: %v\n", err)
		return exitUsage
	}
	if chat != nil {
		mw := temporalrun.NewModelWorker(cl, t.queue, chat)
		if err := mw.Start(); err != nil {
			w.Stop()
			fmt.Fprintf(c.stderr, "cogflow worker: %v\n", err)
			return exitUsage
		}
		defer mw.Stop() // after the rows: they may wait for model calls while stopping
	}
	fmt.Fprintf(c.stderr, "cogflow worker: %s serving task queue %s on %s (namespace %s), %d browser(s), journals in %s\n", *name, t.queue, t.conn.Address, t.conn.Namespace, *browsers, *root)
	<-ctx.Done()
	fmt.Fprintf(c.stderr, "cogflow worker: stopping: rows in flight stop between steps and go to another worker\n")
	w.Stop()
	return exitOK
}

// workerBrowser is a worker's one Chromium (or remote browser), started
// with its first browser row; each row gets a fresh browser context of
// it, so rows share no cookies, storage or tabs. A browser that went away
// is started again for the next row. Other drivers open per row.
type workerBrowser struct {
	opts   driver.Options
	mu     sync.Mutex
	shared *browser.Shared
}

func (w *workerBrowser) open(ctx context.Context, name string) (driver.Driver, error) {
	if name != "browser" {
		return driver.Open(ctx, name, w.opts)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for try := 0; ; try++ {
		if w.shared == nil {
			s, err := browser.StartShared(ctx, w.opts)
			if err != nil {
				return nil, err
			}
			w.shared = s
		}
		d, err := w.shared.Open(ctx)
		if err == nil || try > 0 {
			return d, err
		}
		_ = w.shared.Close() // gone: start it again
		w.shared = nil
	}
}

func (w *workerBrowser) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shared != nil {
		_ = w.shared.Close()
	}
}

// chatClient is the client the chat activities ask: the configuration's,
// without its own retries, since the engine retries each model call
// (docs/scale.md). nil without a model configured.
func chatClient(conf *config.Config) (llm.Client, error) {
	noRetry := *conf
	noRetry.LLM.MaxRetries = 0
	return llm.FromConfig(&noRetry)
}
