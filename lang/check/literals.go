package check

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/suggest"
)

// Validation of literal arguments whose text has a grammar of its own.

// namedKeys are the non-character keys drivers know, in their canonical
// spelling; matching is case-insensitive.
var namedKeys = []string{
	"Enter", "Tab", "Escape", "Backspace", "Delete", "Insert", "Space",
	"ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
	"Back", "Menu", "Search", "VolumeUp", "VolumeDown", "Power", "AppSwitch",
}

// checkKey validates a key chord like "Ctrl+Shift+T": modifiers joined by
// '+', then one character or named key.
func checkKey(s string) string {
	if s == "" {
		return "empty key name"
	}
	parts := strings.Split(s, "+")
	if strings.HasSuffix(s, "++") || s == "+" {
		parts = append(parts[:len(parts)-2], "+") // the '+' key itself
	}
	for _, mod := range parts[:len(parts)-1] {
		if action.ModifierOf(mod) == "" {
			return fmt.Sprintf("unknown modifier %q in key %q; modifiers are Ctrl, Alt, Shift, Meta", mod, s)
		}
	}
	last := parts[len(parts)-1]
	if len([]rune(last)) == 1 {
		return ""
	}
	for _, k := range namedKeys {
		if strings.EqualFold(k, last) {
			return ""
		}
	}
	msg := fmt.Sprintf("unknown key %q", last)
	if near := suggest.Closest(last, namedKeys, 3); len(near) > 0 {
		msg += "; did you mean " + orList(near) + "?"
	}
	return msg
}

var directions = []string{"up", "down", "left", "right"}

func checkDirection(s string) string {
	for _, d := range directions {
		if s == d {
			return ""
		}
	}
	return fmt.Sprintf("unknown direction %q; use %s", s, orList(directions))
}

// checkURL wants an absolute URL: a run replays it on a fresh browser where
// a relative one means nothing.
func checkURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Sprintf("invalid URL %q: %v", s, strings.TrimPrefix(err.Error(), "parse "+fmt.Sprintf("%q", s)+": "))
	}
	if u.Scheme == "" {
		return fmt.Sprintf("URL %q has no scheme; write it in full, like http://example.com/", s)
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return fmt.Sprintf("URL %q has no host", s)
	}
	return ""
}

// orList renders ["a","b","c"] as `a, b or c` with each name quoted by
// backticks-free plain text, for messages.
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// MouseButtons are the values of click's button: option. A replayed
// recording clicks with the button it recorded: a page may tell them apart.
var MouseButtons = []string{"left", "middle", "right", "back", "forward"}

func checkButton(s string) string {
	for _, b := range MouseButtons {
		if s == b {
			return ""
		}
	}
	return fmt.Sprintf("unknown mouse button %q; use %s", s, orList(quoteAll(MouseButtons)))
}
