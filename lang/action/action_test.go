package action

import "testing"

func TestModifierOf(t *testing.T) {
	for _, c := range []struct {
		word string
		want Modifier
	}{
		{"ctrl", Ctrl}, {"Control", Ctrl}, {"CTRL", Ctrl},
		{"Alt", Alt}, {"option", Alt},
		{"Shift", Shift},
		{"Meta", Meta}, {"cmd", Meta}, {"Command", Meta}, {"super", Meta}, {"Win", Meta},
		{"hyper", ""}, {"", ""}, {"Ctrl+", ""},
	} {
		if got := ModifierOf(c.word); got != c.want {
			t.Errorf("ModifierOf(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	seen := map[Name]bool{}
	for _, n := range All() {
		if seen[n] {
			t.Errorf("%s listed twice", n)
		}
		seen[n] = true
		if !n.Known() {
			t.Errorf("%s is listed but not Known", n)
		}
	}
	if Name("hover").Known() {
		t.Error(`"hover" is Known`)
	}
	if got := Join([]Name{Click, Type}, ", "); got != "click, type" {
		t.Errorf("Join = %q", got)
	}
}
