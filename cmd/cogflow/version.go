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
	fmt.Fprintf(c.stdout, "cogflow %s\n", versionString())
	return exitOK
}

// versionString is the version `cogflow version` prints.
func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
