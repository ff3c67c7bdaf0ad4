package trace

import "testing"

func TestModifierKey(t *testing.T) {
	for key, want := range map[string]bool{
		"Control": true, "Shift": true, "Alt": true, "Meta": true, "AltGraph": true, "CapsLock": true,
		"a": false, "Enter": false, "": false, "control": false, "Ctrl": false,
	} {
		if got := ModifierKey(key); got != want {
			t.Errorf("ModifierKey(%q) = %v, want %v", key, got, want)
		}
	}
}
