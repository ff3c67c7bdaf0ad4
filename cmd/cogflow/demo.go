package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cogflow/cogflow/examples/site"
)

// demoSignals returns the context that ends `demo serve`: Ctrl-C or
// SIGTERM. Tests replace it to stop the server themselves.
var demoSignals = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// demoArgs is the synopsis of `cogflow demo`, and demoHelpText what
// `cogflow help demo` says about each subcommand.
const (
	demoArgs     = "serve|run [FILE] [--addr HOST:PORT]"
	demoHelpText = `Subcommands:
  serve       serve the demo site until Ctrl-C
  run [FILE]  serve the demo site in this process, run FILE against it in
              headless Chromium (default: ` + demoWorkflow + `),
              and show the run and what it changed on the site
`
)

// demoWorkflow is what `demo run` runs without a file: an LLM-free
// iterative task over the reading list.
const demoWorkflow = "examples/demo_uppercase_titles.cog"

func runDemo(c *cli, args []string) int {
	fs := c.newFlags("demo")
	addr := fs.String("addr", "127.0.0.1:8088", "listen on `HOST:PORT` (port 0 picks a free port)")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(rest) >= 1 && rest[0] == "run":
		return c.demoRun(*addr, rest[1:])
	case len(rest) != 1 || rest[0] != "serve":
		fmt.Fprintln(c.stderr, "cogflow demo: use cogflow demo serve [--addr HOST:PORT] or cogflow demo run [FILE] [--addr HOST:PORT]")
		return exitUsage
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: %v\n", err)
		return exitUsage
	}
	srv := &http.Server{
		Handler:           site.New().Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ctx, stop := demoSignals()
	defer stop()

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(c.stderr, "cogflow demo: serving the demo site at %s (Ctrl-C stops)\n", siteURL(ln.Addr()))

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

// demoRun serves the demo site in this process, runs a workflow against it
// in headless Chromium, and shows the run and what it changed on the site.
func (c *cli) demoRun(addr string, args []string) int {
	file := demoWorkflow
	if len(args) > 0 {
		file = args[0]
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: %v (is a demo server already running?)\n", err)
		return exitUsage
	}
	s := site.New()
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	before := s.State()
	fmt.Fprintf(c.stdout, "demo site at %s; running %s\n\n", siteURL(ln.Addr()), file)
	code := c.run(runConfig{file: file, inputs: inputFlags{}, yes: true, root: ".cogflow"})
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
