package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestHelpTexts reads every command's --help the way a new user would:
// the usage line names every option, and no option shows a stray word as
// its argument (Go's flag package takes a back-quoted word of the
// description as the argument's name, so "confirm `confirm` steps" showed
// as "-yes confirm").
func TestHelpTexts(t *testing.T) {
	flagLine := regexp.MustCompile(`^  -([a-z0-9-]+)(?: (.+))?$`)
	for _, cmd := range commands {
		t.Run(cmd.name, func(t *testing.T) {
			r := runCLI(t, "", cmd.name, "--help")
			if r.code != exitOK {
				t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
			}
			lines := strings.Split(r.stdout, "\n")
			usage := lines[0]
			if !strings.HasPrefix(usage, "Usage: cogflow "+cmd.name) || strings.TrimSpace(usage) != usage {
				t.Errorf("usage line %q", usage)
			}
			for _, line := range lines {
				m := flagLine.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				name, arg := m[1], m[2]
				if !argNameOK(arg) {
					t.Errorf("-%s shows %q as its argument's name", name, arg)
				}
				mention := regexp.MustCompile(`(^|[\s\[|])--?` + regexp.QuoteMeta(name) + `([\s\]|=]|$)`)
				if !mention.MatchString(usage) {
					t.Errorf("the usage line leaves out --%s: %q", name, usage)
				}
			}
		})
	}
}

// argNameOK accepts the flag package's type names and placeholders such
// as N, HOST:PORT or name=VAR: one word, in capitals or with an "=".
func argNameOK(arg string) bool {
	switch arg {
	case "", "string", "int", "uint", "float", "duration", "value":
		return true
	}
	return !strings.ContainsAny(arg, " \t") && (strings.Contains(arg, "=") || strings.ToUpper(arg) == arg)
}

func TestArgNameOK(t *testing.T) {
	for _, tt := range []struct {
		arg  string
		want bool
	}{
		{"string", true}, {"N|VAR=N", true}, {"HOST:PORT", true}, {"name=value", true},
		{"confirm", false}, {"for VAR", false}, {"make eval", false},
	} {
		if got := argNameOK(tt.arg); got != tt.want {
			t.Errorf("argNameOK(%q) = %v, want %v", tt.arg, got, tt.want)
		}
	}
}
