package main

import (
	"fmt"
	"slices"
	"strings"
)

// effect checks, on the page reports of one replay, what the test a
// recording comes from asserts (@puppeteer/replay's test/runner.test.ts).
type effect func(ss []snapshot) bool

// any is true when one report satisfies f.
func anySnap(f func(s snapshot) bool) effect {
	return func(ss []snapshot) bool { return slices.ContainsFunc(ss, f) }
}

func clicked(page string, what ...string) effect {
	return func(ss []snapshot) bool {
		for _, s := range ss {
			if !strings.Contains(s.Href, page) || len(s.Clicks) < len(what) {
				continue
			}
			ok := true
			for i, w := range what {
				ok = ok && strings.HasPrefix(s.Clicks[i], w)
			}
			if ok {
				return true
			}
		}
		return false
	}
}

func field(page, id, want string) effect {
	return anySnap(func(s snapshot) bool { return strings.Contains(s.Href, page) && s.Fields[id] == want })
}

func fields(page string, want map[string]string) effect {
	return anySnap(func(s snapshot) bool {
		if !strings.Contains(s.Href, page) {
			return false
		}
		for k, v := range want {
			if s.Fields[k] != v {
				return false
			}
		}
		return true
	})
}

// effects maps a recording's name prefix to its check; nil means reaching
// the end is the check (empty flows, tests of replay's own API).
var effects = map[string]effect{
	"pr03": anySnap(func(s snapshot) bool { return strings.HasSuffix(s.Href, "/empty.html") }),
	"pr04": anySnap(func(s snapshot) bool { return fmt.Sprint(s.Buttons) == "[0 1 2 3 4]" }),
	// Both clicks land on the SVG: the path, then the svg (at its centre,
	// where cogflow aims, that is the path again).
	"pr05": anySnap(func(s snapshot) bool {
		return strings.Contains(s.Href, "svg.html") && len(s.Clicks) == 2 && s.Clicks[0] == "path" &&
			(s.Clicks[1] == "svg" || s.Clicks[1] == "path")
	}),
	"pr06": clicked("invisible-parent.html", "button.child"),
	"pr08": field("checkbox.html", "checkbox", "true"),
	"pr09": fields("input.html", map[string]string{"one": "1", "two": "2"}),
	"pr10": field("select.html", "select", "O2"),
	"pr11": field("select.html", "select", "O2"),
	"pr12": field("input.html", "color", "#333333"),
	"pr13": field("input.html", "prefilled", "cba"),
	"pr14": field("input.html", "partially-prefilled", "abcdef"),
	"pr15": anySnap(func(s snapshot) bool { return s.W == 800 && s.H == 600 }),
	"pr16": anySnap(func(s snapshot) bool { return s.Overflow != nil && *s.Overflow == 40 && s.SX == 40 && s.SY == 40 }),
	"pr17": anySnap(func(s snapshot) bool { return slices.Contains(s.Texts, "clicked") }),
	"pr18": anySnap(func(s snapshot) bool { return strings.Contains(s.Href, "form.html") && s.Active == "name" }),
	"pr19": anySnap(func(s snapshot) bool { return strings.Contains(s.Href, "main.html") && s.Active == "input" }),
	"pr20": anySnap(func(s snapshot) bool { return s.Custom >= 1 }),
	"pr21": anySnap(func(s snapshot) bool { return s.Custom >= 2 }),
	"pr22": anySnap(func(s snapshot) bool { return s.Custom >= 1 }),
	"pr23": anySnap(func(s snapshot) bool { return s.Custom >= 1 }),
	"pr24": anySnap(func(s snapshot) bool { return s.Custom == 2 }),
	"pr25": clicked("popup.html", "button"),
	"pr29": anySnap(func(s snapshot) bool {
		return strings.HasPrefix(s.Href, "http://oopifdomain:") && strings.HasSuffix(s.Href, "/iframe2.html")
	}),
	"pr30":            anySnap(func(s snapshot) bool { return strings.HasSuffix(s.Href, "/iframe2.html") }),
	"pr31":            anySnap(func(s snapshot) bool { return slices.Contains(s.Texts, "Hovered") }),
	"pr_ex_recording": nil,
}

// expectedFailure is the message a recording meant to fail must fail with.
var expectedFailure = map[string]string{
	"pr07":            "no element matches",
	"pr_ex_recording": "net::",
	"pr_res_replay":   "net::",
}

func prefix(name string) string {
	if strings.HasPrefix(name, "pr_") {
		return strings.TrimSuffix(strings.TrimSuffix(name, "-fail"), "")
	}
	if i := strings.IndexByte(name, '_'); i > 0 {
		return name[:i]
	}
	return name
}

// judge fills in the effect column and whether the outcome is the
// expected one.
func judge(r row, name string, srv *server) row {
	p := prefix(name)
	if strings.HasPrefix(name, "pr_res_replay") {
		p = "pr_res_replay"
	}
	if want, ok := expectedFailure[p]; ok {
		r.effect = "—"
		r.ok = !r.end && strings.Contains(r.step, want)
		if !r.end && !r.ok {
			r.step += "  [expected an error with " + fmt.Sprintf("%q", want) + "]"
		}
		return r
	}
	check := effects[p]
	if check == nil {
		r.effect = "—"
		r.ok = r.end
		return r
	}
	if check(srv.snapshots()) {
		r.effect = "y"
	} else {
		r.effect = "n"
	}
	r.ok = r.end && r.effect == "y"
	return r
}
