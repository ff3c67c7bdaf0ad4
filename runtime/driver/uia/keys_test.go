package uia

import (
	"reflect"
	"testing"
)

func TestParseChord(t *testing.T) {
	tests := []struct {
		in   string
		want Chord
	}{
		{"Enter", Chord{Key: vkReturn}},
		{"ctrl+s", Chord{Mods: []uint16{vkControl}, Key: 'S'}},
		{"Ctrl+Shift+T", Chord{Mods: []uint16{vkControl, vkShift}, Key: 'T'}},
		{"Alt+F4", Chord{Mods: []uint16{vkMenu}, Key: vkF1 + 3}},
		{"F12", Chord{Key: vkF1 + 11}},
		{"Ctrl++", Chord{Mods: []uint16{vkControl}, Rune: '+'}},
		{"+", Chord{Rune: '+'}},
		{"a", Chord{Key: 'A'}},
		{"7", Chord{Key: '7'}},
		{"é", Chord{Rune: 'é'}},
		{"Win+E", Chord{Mods: []uint16{vkLWin}, Key: 'E'}},
		{"Ctrl+Control+ArrowDown", Chord{Mods: []uint16{vkControl}, Key: vkDown}},
		{"Shift+Tab", Chord{Mods: []uint16{vkShift}, Key: vkTab}},
		{" Space ", Chord{Key: vkSpace}},
	}
	for _, tt := range tests {
		got, err := ParseChord(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseChord(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "  ", "Hyper+A", "Ctrl+Enterr", "F25", "f1x", "Ctrl+ab"} {
		if c, err := ParseChord(bad); err == nil {
			t.Errorf("ParseChord(%q) = %+v, want an error", bad, c)
		}
	}
}

func TestKeyName(t *testing.T) {
	tests := []struct {
		vk    uint16
		shift bool
		want  string
	}{
		{vkReturn, false, "Enter"}, {'A', false, "a"}, {'A', true, "A"}, {'5', false, "5"},
		{vkF1 + 4, false, "F5"}, {vkLControl, false, "Control"}, {vkDown, false, "ArrowDown"},
		{0xBA, false, ""}, // OEM_1: layout-dependent, the recorder keeps the typed text
	}
	for _, tt := range tests {
		if got := KeyName(tt.vk, tt.shift); got != tt.want {
			t.Errorf("KeyName(%#x, %v) = %q, want %q", tt.vk, tt.shift, got, tt.want)
		}
	}
	if !isModifier(vkRMenu) || isModifier('A') {
		t.Error("isModifier")
	}
	// Every name the driver spells itself parses.
	for _, s := range []string{"Ctrl+A", "Ctrl+C", "Ctrl+X", "Ctrl+V", "Ctrl+S", "Delete", "Enter"} {
		mustChord(s)
	}
}
