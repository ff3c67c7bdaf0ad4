package adb

import "strings"

// QuoteShell quotes arg as one word for the device's shell (mksh/toybox sh),
// because shell: and exec: hand the command line to `sh -c` and an argument
// with spaces, quotes or $ would otherwise be split or expanded. Words made
// only of safe characters are returned unchanged so command lines stay
// readable in logs; everything else is wrapped in single quotes, with each
// embedded ' written as '\”.
func QuoteShell(arg string) string {
	if arg == "" {
		return "''"
	}
	safe := true
	for _, r := range arg {
		if !isSafeShellRune(r) {
			safe = false
			break
		}
	}
	if safe {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

// isSafeShellRune reports characters that no POSIX shell treats specially.
func isSafeShellRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("_@%+=:,./-", r)
}
