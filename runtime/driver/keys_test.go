package driver

import (
	"strings"
	"testing"
)

func TestSplitChord(t *testing.T) {
	for _, tt := range []struct {
		in, mods, key, err string
	}{
		{in: "Enter", key: "Enter"},
		{in: "a", key: "a"},
		{in: "Ctrl+Shift+T", mods: "Ctrl Shift", key: "T"},
		{in: "Ctrl + c", mods: "Ctrl", key: "c"},
		{in: "+", key: "+"},
		{in: "Ctrl++", mods: "Ctrl", key: "+"},
		{in: "Ctrl+Alt++", mods: "Ctrl Alt", key: "+"},
		{in: "", err: "empty key"},
		{in: "  ", err: "empty key"},
		{in: "Ctrl++a", err: "empty modifier"},
		{in: "Ctrl+ ", err: "no key"},
	} {
		mods, key, err := SplitChord(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("SplitChord(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(mods, " ") != tt.mods || key != tt.key {
			t.Errorf("SplitChord(%q) = %q, %q, %v; want %q, %q", tt.in, mods, key, err, tt.mods, tt.key)
		}
	}
}
