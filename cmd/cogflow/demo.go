package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/internal/readlimit"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
)

// demoSignals returns the context that ends `demo serve` and `demo
// android`: Ctrl-C or SIGTERM. Tests replace it to stop the server
// themselves.
var demoSignals = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// demoArgs is the synopsis of `cogflow demo`, demoSummary its line in
// `cogflow help`, and demoHelpText what `cogflow help demo` says about each
// subcommand.
const (
	demoSummary  = "serve the demo site or a simulated Android phone the examples run against, or run one"
	demoArgs     = "serve|run [FILE]|android [--addr HOST:PORT] [--layout original|moved]"
	demoHelpText = `Subcommands:
  serve       serve the demo site until Ctrl-C; it prints the cogflow run
              line that points an example at it (--input site=URL);
              --layout moved serves the site after a redesign (the notes
              page's Save behind a "More" menu), to try cogflow run --heal on
  run [FILE]  serve the demo site in this process, run FILE against it in
              headless Chromium (default: ` + demoWorkflow + `),
              and show the run and what it changed on the site; the
              workflow's input site, if it has one, is set to the site's URL
  android     serve a simulated Android phone with a contacts app as an adb
              server until Ctrl-C; it prints the cogflow run line for
              ` + androidExample + ` and logs the contacts added
`
)

// siteInput is the input of the examples that holds the demo site's
// address ("http://127.0.0.1:8088" by default), so that they run against
// a demo site on any port.
const siteInput = "site"

// demoWorkflow is what `demo run` runs without a file: an LLM-free
// iterative task over the reading list.
const demoWorkflow = "examples/demo_uppercase_titles.cog"

// healExample is the example that the moved layout breaks and --heal
// repairs: it clicks the notes page's Save.
const healExample = "examples/notes_save.cog"

// demoAddrs are the addresses the subcommands listen on without --addr.
var demoAddrs = map[string]string{"serve": "127.0.0.1:8088", "run": "127.0.0.1:8088", "android": androidDemoAddr}

// runDemo picks the subcommand and its address.
func runDemo(c *cli, args []string) int {
	fs := c.newFlags("demo")
	addr := fs.String("addr", "", "listen on `HOST:PORT` (port 0 picks a free port); default 127.0.0.1:8088, for android "+androidDemoAddr)
	layout := fs.String("layout", site.LayoutOriginal, "serve and run: the site's layout, `NAME`: original or moved (moved: the notes page's Save behind a \"More\" menu)")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	sub := ""
	if len(rest) > 0 {
		sub = rest[0]
	}
	listen := *addr
	if listen == "" {
		listen = demoAddrs[sub]
	}
	s, err := site.NewLayout(*layout)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: --layout: %v\n", err)
		return exitUsage
	}
	switch {
	case sub == "run":
		return c.demoRun(s, listen, rest[1:])
	case sub == "android" && len(rest) == 1:
		return c.demoAndroid(listen)
	case sub != "serve" || len(rest) != 1:
		fmt.Fprintln(c.stderr, "cogflow demo: use cogflow demo serve [--addr HOST:PORT], cogflow demo run [FILE] [--addr HOST:PORT] or cogflow demo android [--addr HOST:PORT]")
		return exitUsage
	}
	return c.demoServe(s, listen)
}

// demoServe serves the demo site s at addr until Ctrl-C.
func (c *cli) demoServe(s *site.Site, addr string) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: %v\n", err)
		return exitUsage
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ctx, stop := demoSignals()
	defer stop()

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(c.stderr, "cogflow demo: serving the demo site at %s (Ctrl-C stops)\n", siteURL(ln.Addr()))
	if s.Layout() != site.LayoutOriginal {
		fmt.Fprintf(c.stderr, "cogflow demo: layout %s: the notes page's Save is behind the \"More\" menu; try cogflow run %s --heal --input %s=%s\n",
			s.Layout(), healExample, siteInput, siteInputValue(ln.Addr()))
	}
	fmt.Fprintf(c.stderr, "cogflow demo: run an example against it: cogflow run %s --input %s=%s\n",
		demoWorkflow, siteInput, siteInputValue(ln.Addr()))

	select {
	case err := <-served:
		fmt.Fprintf(c.stderr, "cogflow demo: %v\n", err)
		return exitUsage
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: shutting down: %v\n", err)
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(c.stderr, "cogflow demo: %v\n", err)
	}
	return exitOK
}

// siteURL is the address to open in a browser: a server listening on every
// interface (":8088") is reached through localhost.
func siteURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// siteInputValue is the value of the examples' input site for a server
// at a: its URL without the trailing slash, since the examples append
// "/page" to it.
func siteInputValue(a net.Addr) string { return strings.TrimSuffix(siteURL(a), "/") }

// declaresSite reports whether a task of the workflow file declares the
// input site, which demo run then sets to the address it serves at. A file
// that cannot be read or parsed says no: the run reports why.
func declaresSite(file string) bool {
	src, err := readlimit.File(file, "a workflow", maxWorkflowSize)
	if err != nil {
		return false
	}
	f, _ := syntax.Parse(file, src)
	if f == nil {
		return false
	}
	for _, d := range f.Decls {
		t, ok := d.(*ast.Task)
		if !ok || t.Body == nil {
			continue
		}
		for _, st := range t.Body.Stmts {
			if in, ok := st.(*ast.InputDecl); ok && in.Name.Name == siteInput {
				return true
			}
		}
	}
	return false
}

// demoRun serves the demo site in this process, runs a workflow against it
// in headless Chromium, and shows the run and what it changed on the site.
func (c *cli) demoRun(s *site.Site, addr string, args []string) int {
	file := demoWorkflow
	if len(args) > 0 {
		file = args[0]
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: %v (is a demo server already running?)\n", err)
		return exitUsage
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	before := s.State()
	inputs := inputFlags{}
	fmt.Fprintf(c.stdout, "demo site at %s; running %s", siteURL(ln.Addr()), file)
	if declaresSite(file) {
		inputs[siteInput] = siteInputValue(ln.Addr())
		fmt.Fprintf(c.stdout, " with --input %s=%s\n\n", siteInput, inputs[siteInput])
	} else {
		fmt.Fprintf(c.stdout, "\n(it has no input %s: it goes to the addresses it names)\n\n", siteInput)
	}
	code := c.run(runConfig{file: file, inputs: inputs, yes: true, root: ".cogflow"})
	fmt.Fprintln(c.stdout, "\nwhat changed on the site:")
	changes := site.Diff(before, s.State())
	if len(changes) == 0 {
		fmt.Fprintln(c.stdout, "  nothing")
	}
	for _, ch := range changes {
		fmt.Fprintf(c.stdout, "  %s\n", ch)
	}
	return code
}
