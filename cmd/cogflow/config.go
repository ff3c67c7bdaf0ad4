package main

import (
	"fmt"

	"github.com/cogflow/cogflow/runtime/config"
)

func runConfigCmd(c *cli, args []string) int {
	fs := c.newFlags("config")
	dir := fs.String("dir", ".", "the project folder whose "+config.FileName+" is read")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) != 0 {
		fmt.Fprintf(c.stderr, "cogflow config: unexpected argument %q (use --dir DIR for the project folder)\n", rest[0])
		return exitUsage
	}
	cfg, diags := config.Load(*dir)
	if len(diags) > 0 {
		cfg.Render(c.stderr, diags)
	}
	if diags.HasErrors() {
		return exitBadInput
	}
	cfg.Print(c.stdout)
	return exitOK
}
