package driver

import (
	"fmt"
	"strings"
)

// SplitChord splits a key chord as the language writes it — "Ctrl+Shift+T",
// "Enter", "a", "Ctrl++" (Ctrl and the plus key) or "+" — into its
// modifiers and its key, trimmed but otherwise as written; each driver
// maps the names to its own key codes.
func SplitChord(s string) (mods []string, key string, err error) {
	if strings.TrimSpace(s) == "" {
		return nil, "", fmt.Errorf("empty key")
	}
	var parts []string
	if strings.HasSuffix(s, "+") { // "+" or "Ctrl++"
		key = "+"
		if prefix := strings.TrimSuffix(strings.TrimSuffix(s, "+"), "+"); prefix != "" {
			parts = strings.Split(prefix, "+")
		}
	} else {
		all := strings.Split(s, "+")
		key, parts = strings.TrimSpace(all[len(all)-1]), all[:len(all)-1]
	}
	for _, m := range parts {
		if m = strings.TrimSpace(m); m == "" {
			return nil, "", fmt.Errorf("empty modifier in key %q", s)
		}
		mods = append(mods, m)
	}
	if key == "" {
		return nil, "", fmt.Errorf("no key after the modifiers in %q", s)
	}
	return mods, key, nil
}
