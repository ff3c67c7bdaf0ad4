package adbtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Android's own command-line tools, reduced to what a GUI driver uses.

// dumpDone is uiautomator's success line, misspelling included: clients
// look for it to know the dump is complete.
const dumpDone = "UI hierchary dumped to: "

func cmdUiautomator(p *proc, args []string) int {
	if len(args) < 2 || args[1] != "dump" {
		fmt.Fprintln(p.stderr, "Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\ndump: creates an XML dump of current UI hierarchy")
		return 1
	}
	file := "/sdcard/window_dump.xml"
	for _, a := range args[2:] {
		if !strings.HasPrefix(a, "-") {
			file = a
		}
	}
	if p.dev.takeDumpFailure() {
		fmt.Fprintln(p.stderr, "ERROR: could not get idle state.")
		return 1
	}
	xml := p.dev.app.Dump()
	if file == "/dev/tty" || file == "/proc/self/fd/1" || file == "/dev/stdout" {
		fmt.Fprint(p.stdout, xml)
	} else {
		p.dev.writeFile(file, []byte(xml), false)
	}
	fmt.Fprintln(p.stdout, dumpDone+file)
	return 0
}

// inputSources are the optional first argument of `input`.
var inputSources = map[string]bool{"keyboard": true, "mouse": true, "touchscreen": true, "touchpad": true,
	"touchnavigation": true, "stylus": true, "trackball": true, "joystick": true, "gamepad": true, "dpad": true}

func cmdInput(p *proc, args []string) int {
	args = args[1:]
	if len(args) > 0 && inputSources[args[0]] {
		args = args[1:]
	}
	if len(args) == 0 {
		return inputUsage(p, "")
	}
	switch args[0] {
	case "tap":
		xy, ok := parseCoords(args[1:], 2)
		if !ok {
			return inputUsage(p, "tap")
		}
		p.dev.app.Tap(xy[0], xy[1])
	case "swipe":
		xy, ok := parseCoords(args[1:], 4)
		if !ok {
			return inputUsage(p, "swipe")
		}
		p.dev.app.Swipe(xy[0], xy[1], xy[2], xy[3])
	case "text":
		if len(args) < 2 {
			return inputUsage(p, "text")
		}
		return inputText(p, args[1])
	case "keyevent", "keycombination":
		var codes []int
		for _, k := range args[1:] {
			if strings.HasPrefix(k, "--") {
				continue
			}
			code, ok := parseKeycode(k)
			if !ok {
				fmt.Fprintf(p.stderr, "Error: Unknown keycode: %s\n", k)
				return 1
			}
			codes = append(codes, code)
		}
		if args[0] == "keycombination" {
			p.dev.app.KeyCombination(codes)
			break
		}
		for _, c := range codes {
			p.dev.app.Key(c)
		}
	default:
		fmt.Fprintf(p.stderr, "Error: Unknown command: %s\n", args[0])
		return inputUsage(p, "")
	}
	return 0
}

func inputUsage(p *proc, cmd string) int {
	if cmd != "" {
		fmt.Fprintf(p.stderr, "Error: Invalid arguments for command: %s\n", cmd)
	}
	fmt.Fprintln(p.stderr, "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\nThe commands and default sources are:\n"+
		"      text <string> (Default: touchscreen)\n      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n"+
		"      tap <x> <y> (Default: touchscreen)\n      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)")
	return 1
}

// parseCoords reads n numbers (input accepts decimals) and ignores a
// trailing duration.
func parseCoords(args []string, n int) ([]int, bool) {
	if len(args) < n || len(args) > n+1 {
		return nil, false
	}
	out := make([]int, 0, n+1)
	for _, a := range args {
		f, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, int(f))
	}
	return out[:n], true
}

// inputText types text as Android's `input text` does: only the first
// argument, "%s" stands for a space, and characters outside the virtual
// keyboard's map (non-ASCII) make it fail with the NullPointerException a
// real device prints, typing nothing.
func inputText(p *proc, text string) int {
	text = strings.ReplaceAll(text, "%s", " ")
	for _, r := range text {
		if r >= utf8.RuneSelf || r < ' ' && r != '\n' && r != '\t' {
			fmt.Fprint(p.stderr, "Exception occurred while executing 'text':\n"+
				"java.lang.NullPointerException: Attempt to get length of null array\n"+
				"\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:317)\n"+
				"\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:302)\n")
			return 255
		}
	}
	p.dev.app.TypeText(text)
	return 0
}

// cmdAm supports `am start [-W] [-S] [-a ACTION] [-d DATA] [-c CATEGORY]
// [-n COMPONENT | -p PACKAGE] [--es KEY VALUE]…` (intents.go resolves
// it), the home intent (`-a android.intent.action.MAIN -c
// android.intent.category.HOME`), `am force-stop PKG` and `am broadcast`
// (for ADBKeyBoard, see ime.go).
func cmdAm(p *proc, args []string) int {
	if len(args) >= 3 && args[1] == "force-stop" {
		if args[2] == ContactsPackage {
			p.dev.app.ForceStop()
		}
		return 0
	}
	if len(args) >= 2 && args[1] == "broadcast" {
		return amBroadcast(p, args[2:])
	}
	if len(args) < 2 || args[1] != "start" {
		fmt.Fprintln(p.stderr, "usage: am start [-W] [-S] [-a ACTION] [-d DATA] [-n COMPONENT | -p PACKAGE] [--es K V] | am force-stop <PACKAGE> | am broadcast -a ACTION [--es K V]  (simulated)")
		return 1
	}
	in, wait, ok := parseAmStart(args[2:])
	if !ok {
		fmt.Fprintln(p.stderr, "Error: bad arguments for am start (simulated)")
		return 1
	}
	if in.action == actMain && slices.Contains(in.categories, "android.intent.category.HOME") {
		fmt.Fprintln(p.stdout, "Starting: "+in.String())
		p.dev.app.Key(keyHome)
		return 0
	}
	fmt.Fprintln(p.stdout, "Starting: "+in.String())
	res := p.dev.app.startIntent(in)
	switch {
	case res.noClass:
		cmp := fullName(in.component)
		fmt.Fprintf(p.stderr, "Error type 3\nError: Activity class {%s} does not exist.\n", cmp)
		return 1
	case res.activity == "":
		fmt.Fprintf(p.stderr, "Error: Activity not started, unable to resolve %s\n",
			strings.TrimSuffix(in.String(), " }")+" flg=0x10000000 }")
		return 1
	}
	if wait {
		fmt.Fprintf(p.stdout, "Status: ok\nLaunchState: COLD\nActivity: %s\nTotalTime: 212\nWaitTime: 215\nComplete\n", res.activity)
	}
	return 0
}

// parseAmStart reads am start's options; ok is false for an option that
// lacks its value.
func parseAmStart(args []string) (in amIntent, wait, ok bool) {
	in.extras = map[string]string{}
	for i := 0; i < len(args); i++ {
		need := func(n int) bool { return i+n < len(args) }
		switch args[i] {
		case "-W":
			wait = true
		case "-S", "-D", "-N":
		case "-a", "-d", "-n", "-p", "-c", "-t", "-f", "-R", "--user":
			if !need(1) {
				return in, wait, false
			}
			v := args[i+1]
			switch args[i] {
			case "-a":
				in.action = v
			case "-d":
				in.data = v
			case "-n":
				in.component = v
			case "-p":
				in.pkg = v
			case "-c":
				in.categories = append(in.categories, v)
			}
			i++
		case "-e", "--es", "--ei", "--ez", "--el", "--ef", "--eu":
			if !need(2) {
				return in, wait, false
			}
			in.extras[args[i+1]] = args[i+2]
			i += 2
		default:
			if strings.HasPrefix(args[i], "--activity-") || strings.HasPrefix(args[i], "--grant-") {
				continue // intent flags: no effect on the simulated apps
			}
			return in, wait, false
		}
	}
	return in, wait, true
}

// cmdMonkey supports the launcher idiom `monkey -p PKG -c
// android.intent.category.LAUNCHER 1`, which starts an app by package
// without knowing its activity.
func cmdMonkey(p *proc, args []string) int {
	pkg := ""
	for i := 1; i+1 < len(args); i++ {
		if args[i] == "-p" {
			pkg = args[i+1]
		}
	}
	if pkg != ContactsPackage {
		fmt.Fprintln(p.stdout, "** No activities found to run, monkey aborted.")
		return 252
	}
	p.dev.app.Launch()
	fmt.Fprintln(p.stdout, "Events injected: 1")
	fmt.Fprintln(p.stdout, "## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, 14ms not connected)")
	return 0
}

// cmdScreencap writes a PNG with -p or a .png file name, else the raw
// format: width, height, pixel format (1 = RGBA_8888) and colour space as
// little-endian 32-bit words, then the pixels.
func cmdScreencap(p *proc, args []string) int {
	asPNG, file := false, ""
	for _, a := range args[1:] {
		switch {
		case a == "-p":
			asPNG = true
		case strings.HasPrefix(a, "-"):
		default:
			file = a
			asPNG = asPNG || strings.HasSuffix(a, ".png")
		}
	}
	img := p.dev.app.screenshot()
	var out []byte
	if asPNG {
		out = encodePNG(img)
	} else {
		out = rawScreencap(img)
	}
	if file != "" {
		p.dev.writeFile(file, out, false)
		return 0
	}
	p.stdout.Write(out)
	return 0
}

// cmdGetevent supports -p (capabilities), -l (labels), -t (timestamps)
// and -q (no device list), combined as in -lp or -lt. Without -p it
// streams the gestures the test plays until the client hangs up.
func cmdGetevent(p *proc, args []string) int {
	var flags string
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			fmt.Fprintf(p.stderr, "getevent: simulated device has no %s\n", a)
			return 1
		}
		flags += a[1:]
	}
	labels := strings.Contains(flags, "l")
	if strings.Contains(flags, "p") {
		fmt.Fprint(p.stdout, deviceHeader(true, labels))
		return 0
	}
	// Subscribe before the header: a client that has read the header
	// knows that gestures played from now on reach it.
	stamps := strings.Contains(flags, "t")
	sub := p.dev.events.subscribe()
	defer p.dev.events.unsubscribe(sub)
	if !strings.Contains(flags, "q") {
		fmt.Fprint(p.stdout, deviceHeader(false, labels))
	}
	for {
		select {
		case gesture := <-sub.ch:
			var b strings.Builder
			for _, e := range gesture {
				b.WriteString(e.format(e.ts, labels, stamps))
			}
			if _, err := fmt.Fprint(p.stdout, b.String()); err != nil {
				return 1
			}
		case <-p.hangup:
			return 0
		}
	}
}
