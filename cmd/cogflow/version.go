package main

import (
	"fmt"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=…"; without
// it the module version (or "devel") is shown.
var version = ""

func runVersion(c *cli, args []string) int {
	fs := c.newFlags("version")
	if _, code, ok := c.parseArgs(fs, args); !ok {
		return code
	}
	v := version
	if v == "" {
		v = "devel"
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
	}
	fmt.Fprintf(c.stdout, "cogflow %s\n", v)
	return exitOK
}
