package main

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/diag"
)

func runCheck(c *cli, args []string) int {
	fs := c.newFlags("check")
	quiet := fs.Bool("q", false, "print errors only, no warnings")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fs.Usage()
		return exitUsage
	}
	status := exitOK
	var errors, warnings int
	for _, path := range files {
		l, err := load(path)
		if err != nil {
			c.readError("check", err)
			status = exitUsage
			continue
		}
		if *quiet {
			kept := l.diags[:0]
			for _, d := range l.diags {
				if d.Severity == diag.Error {
					kept = append(kept, d)
				}
			}
			l.diags = kept
		}
		c.report(l)
		for _, d := range l.diags {
			if d.Severity == diag.Error {
				errors++
			} else {
				warnings++
			}
		}
	}
	if errors+warnings > 0 {
		fmt.Fprintf(c.stderr, "%s, %s\n", plural(errors, "error"), plural(warnings, "warning"))
	}
	if errors > 0 && status == exitOK {
		status = exitBadInput
	}
	return status
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
