package runtime

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// score is the yes/no view of anchoring for code that counts matches (a
// wait for a number of elements): at least minScore exactly when the
// element satisfies every attribute.
func TestScoreCountsSatisfying(t *testing.T) {
	save := &driver.Element{Role: "button", Name: "Save", ID: "save", Visible: true}
	draft := &driver.Element{Role: "button", Name: "Save draft", ID: "save-draft", Visible: true}
	hidden := &driver.Element{Role: "button", Name: "Save", Visible: false}
	tests := []struct {
		l    *Locator
		el   *driver.Element
		want bool
	}{
		{&Locator{Role: "button", Attrs: map[string]string{"name": "Save"}, Index: -1}, save, true},
		{&Locator{Role: "button", Attrs: map[string]string{"name": "Save"}, Index: -1}, draft, false},
		{&Locator{Role: "button", Attrs: map[string]string{"name": "save"}, Index: -1}, hidden, true},
		{&Locator{Role: "button", Attrs: map[string]string{"id": "save-now", "name": "Save"}, Index: -1}, save, false},
		{&Locator{Role: "link", Attrs: map[string]string{"name": "Save"}, Index: -1}, save, false},
		{&Locator{Role: "element", Attrs: map[string]string{}, Index: -1}, save, false},
	}
	for _, tt := range tests {
		if got := score(tt.l, tt.el) >= minScore; got != tt.want {
			t.Errorf("score(%s, %s) >= minScore is %v, want %v", tt.l, describe(tt.el), got, tt.want)
		}
	}
}

// A close button drawn as "x" and named "Close" by its toolkit: a
// description by either name finds it, a button really named "x" wins
// over one named "Close", and two close buttons are ambiguous.
func TestCloseGlyphAndWord(t *testing.T) {
	closeBtn := &driver.Element{Ref: "c", Role: "button", Name: "Close", Visible: true}
	xBtn := &driver.Element{Ref: "x", Role: "button", Name: "×", Visible: true}
	plainX := &driver.Element{Ref: "px", Role: "button", Name: "x", Visible: true}
	ok := &driver.Element{Ref: "ok", Role: "button", Name: "OK", Visible: true}
	exit := &driver.Element{Ref: "exit", Role: "button", Name: "Exit", Visible: true}
	tests := []struct {
		name       string
		candidates []*driver.Element
		want       string // the chosen Ref, "" for an error
	}{
		{"x", []*driver.Element{ok, closeBtn}, "c"},
		{"Close", []*driver.Element{ok, xBtn}, "x"},
		{"✕", []*driver.Element{closeBtn, ok}, "c"},
		{"x", []*driver.Element{closeBtn, plainX}, "px"},
		{"x", []*driver.Element{closeBtn, xBtn}, ""}, // both say "close": ambiguous
		{"x", []*driver.Element{ok, xBtn}, "x"},
		{"x", []*driver.Element{ok, exit}, ""},
		{"OK", []*driver.Element{closeBtn}, ""},
	}
	for _, tt := range tests {
		l := &Locator{Role: "button", Attrs: map[string]string{"name": tt.name}, Index: -1}
		got, err := Choose(l, tt.candidates)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("button(name: %q) among %d chose %s, want an error", tt.name, len(tt.candidates), describe(got))
		case tt.want != "" && (err != nil || got.Ref != tt.want):
			t.Errorf("button(name: %q): got %v, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}
