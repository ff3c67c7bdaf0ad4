package adbtest

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// commands are the programs of the simulated device. toybox utilities are
// here; Android's own tools are in android.go.
var commands map[string]command

func init() {
	commands = map[string]command{
		"echo": cmdEcho, "cat": cmdCat, "rm": cmdRm, "grep": cmdGrep, "sleep": cmdSleep,
		"true": func(*proc, []string) int { return 0 }, "false": func(*proc, []string) int { return 1 },
		"getprop": cmdGetprop, "wm": cmdWm, "dumpsys": cmdDumpsys, "pm": cmdPm,
		"uiautomator": cmdUiautomator, "input": cmdInput, "am": cmdAm, "monkey": cmdMonkey,
		"screencap": cmdScreencap, "getevent": cmdGetevent, "settings": cmdSettings, "ime": cmdIme,
		"content": cmdContent,
	}
}

func cmdEcho(p *proc, args []string) int {
	nl := "\n"
	args = args[1:]
	if len(args) > 0 && args[0] == "-n" {
		nl, args = "", args[1:]
	}
	fmt.Fprint(p.stdout, strings.Join(args, " ")+nl)
	return 0
}

func cmdCat(p *proc, args []string) int {
	if len(args) == 1 {
		p.stdout.Write(p.stdin)
		return 0
	}
	status := 0
	for _, f := range args[1:] {
		b, ok := p.dev.readFile(f)
		if !ok {
			fmt.Fprintf(p.stderr, "cat: %s: No such file or directory\n", f)
			status = 1
			continue
		}
		p.stdout.Write(b)
	}
	return status
}

func cmdRm(p *proc, args []string) int {
	force, status := false, 0
	for _, f := range args[1:] {
		if strings.HasPrefix(f, "-") && len(f) > 1 {
			force = force || strings.Contains(f, "f")
			continue
		}
		if !p.dev.removeFile(f) && !force {
			fmt.Fprintf(p.stderr, "rm: %s: No such file or directory\n", f)
			status = 1
		}
	}
	return status
}

// cmdGrep supports -i -v -q -E -F with one pattern, reading files or stdin;
// patterns are Go regular expressions, close enough for what clients grep.
func cmdGrep(p *proc, args []string) int {
	var ignoreCase, invert, quiet, fixed bool
	var pattern string
	var files []string
	for i, a := range args[1:] {
		if !strings.HasPrefix(a, "-") || a == "-" {
			pattern, files = a, args[i+2:]
			break
		}
		ignoreCase = ignoreCase || strings.Contains(a, "i")
		invert = invert || strings.Contains(a, "v")
		quiet = quiet || strings.Contains(a, "q")
		fixed = fixed || strings.Contains(a, "F")
	}
	if pattern == "" {
		fmt.Fprintln(p.stderr, "usage: grep [-ivqEF] PATTERN [FILE...]")
		return 2
	}
	if fixed {
		pattern = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		fmt.Fprintf(p.stderr, "grep: bad regex '%s'\n", pattern)
		return 2
	}
	input := p.stdin
	for _, f := range files {
		b, _ := p.dev.readFile(f)
		input = append(input, b...)
	}
	found := false
	sc := bufio.NewScanner(bytes.NewReader(input))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if re.MatchString(sc.Text()) != invert {
			found = true
			if !quiet {
				fmt.Fprintln(p.stdout, sc.Text())
			}
		}
	}
	if !found {
		return 1
	}
	return 0
}

func cmdSleep(p *proc, args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(p.stderr, "sleep: Need 1 argument")
		return 1
	}
	secs, err := strconv.ParseFloat(args[1], 64)
	if err != nil || secs < 0 {
		fmt.Fprintf(p.stderr, "sleep: invalid number '%s'\n", args[1])
		return 1
	}
	t := time.NewTimer(time.Duration(secs * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-p.hangup:
		return 130
	}
}

func cmdGetprop(p *proc, args []string) int {
	props := p.dev.properties()
	if len(args) > 1 {
		fmt.Fprintln(p.stdout, props[args[1]])
		return 0
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(p.stdout, "[%s]: [%s]\n", k, props[k])
	}
	return 0
}

func cmdWm(p *proc, args []string) int {
	switch strings.Join(args[1:], " ") {
	case "size":
		fmt.Fprintf(p.stdout, "Physical size: %dx%d\n", ScreenWidth, ScreenHeight)
	case "density":
		fmt.Fprintln(p.stdout, "Physical density: 420")
	default:
		fmt.Fprintln(p.stderr, "usage: wm [size|density]  (simulated)")
		return 1
	}
	return 0
}

// cmdDumpsys answers `dumpsys window` (mCurrentFocus, mFocusedApp) and
// `dumpsys activity activities` (mResumedActivity, topResumedActivity) with
// the lines clients grep for; the rest of the real output is left out.
func cmdDumpsys(p *proc, args []string) int {
	act := p.dev.app.Activity()
	pkg, cls, _ := strings.Cut(act, "/")
	full := cls
	if strings.HasPrefix(cls, ".") {
		full = pkg + cls
	}
	service := ""
	if len(args) > 1 {
		service = args[1]
	}
	switch service {
	case "window":
		fmt.Fprintf(p.stdout, "WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
		fmt.Fprintf(p.stdout, "  mCurrentFocus=Window{5e2a1c9 u0 %s/%s}\n", pkg, full)
		fmt.Fprintf(p.stdout, "  mFocusedApp=ActivityRecord{c1d5e8a u0 %s t42}\n", act)
	case "activity":
		fmt.Fprintf(p.stdout, "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n")
		fmt.Fprintf(p.stdout, "  Task display areas in top down Z order:\n")
		fmt.Fprintf(p.stdout, "    mResumedActivity: ActivityRecord{c1d5e8a u0 %s t42}\n", act)
		fmt.Fprintf(p.stdout, "  topResumedActivity=ActivityRecord{c1d5e8a u0 %s t42}\n", act)
	default:
		fmt.Fprintf(p.stderr, "Can't find service: %s\n", service)
		return 1
	}
	return 0
}

func cmdPm(p *proc, args []string) int {
	if len(args) < 3 || args[1] != "list" || args[2] != "packages" {
		fmt.Fprintln(p.stderr, "usage: pm list packages [FILTER]  (simulated)")
		return 1
	}
	for _, pkg := range packages {
		if len(args) < 4 || strings.Contains(pkg, args[len(args)-1]) {
			fmt.Fprintf(p.stdout, "package:%s\n", pkg)
		}
	}
	return 0
}
