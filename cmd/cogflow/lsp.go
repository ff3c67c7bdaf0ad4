package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cogflow/cogflow/internal/lsp"
)

func runLSP(c *cli, args []string) int {
	fs := c.newFlags("lsp")
	fs.Bool("stdio", true, "speak the protocol on stdin and stdout (the only transport; editors pass it)")
	if _, code, ok := c.parseArgs(fs, args); !ok {
		return code
	}
	exe, _ := os.Executable()
	s := lsp.NewServer(lsp.Options{Version: versionString(), Log: c.stderr, Executable: exe})
	ctx := c.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	err := s.Serve(ctx, c.stdin, c.stdout)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, lsp.ErrExitWithoutShutdown), errors.Is(err, io.ErrUnexpectedEOF):
		return 1
	}
	fmt.Fprintf(c.stderr, "cogflow lsp: %v\n", err)
	return 1
}
