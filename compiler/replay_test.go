package compiler

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestCompileReplaySteps: an imported recording's selectors, frames,
// waits, hover, viewport changes, step timeouts, scroll positions and
// asserted navigations compile to steps that say them, next to the
// descriptive attributes — never a bare element().
func TestCompileReplaySteps(t *testing.T) {
	res := compileOK(t, load(t, "../runtime/trace/testdata/devtools_replay.trace.json"), "replay.cog")
	src := string(res.Source)
	for _, want := range []string{
		`anchor button = element(css: "my-widget >>> button")`,
		`wait(button, timeout: 2)`,
		`click(element(name: "Add", css: "my-widget >>> button"))`,
		`wait(button, count: 2)`,
		`wait(element(css: "my-widget >>> button[class=\"gone\"][data-state=\"closed\"]"), hidden: true)`,
		`wait_script("document.querySelectorAll('my-widget').length === 2")`,
		`move(element(id: "menu", css: "#menu"))`,
		`click(element(css: "svg > path"))`,
		`click(element(name: "To page 2", xpath: "/html/body/a", frame: [0]), timeout: 0.3)`,
		`click(element(name: "Inside", css: "body > button"))`,
		`set_viewport(800, 600)`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the workflow lacks %s:\n%s", want, src)
		}
	}
	if strings.Contains(src, "element()") || strings.Contains(src, "switch_window") {
		t.Errorf("a bare element() or a tab switch for a frame:\n%s", src)
	}
}

// TestReplayedMouseButtons: an imported recording clicks with the button it
// recorded — a page may listen for the middle, back or forward button —
// while the primary button needs no option.
func TestReplayedMouseButtons(t *testing.T) {
	rec := `{"title": "buttons", "steps": [
		{"type": "navigate", "url": "http://127.0.0.1:8088/buttons"},
		{"type": "click", "button": "primary", "selectors": ["#b"], "offsetX": 1, "offsetY": 1},
		{"type": "click", "button": "auxiliary", "selectors": ["#b"], "offsetX": 1, "offsetY": 1},
		{"type": "click", "button": "secondary", "selectors": ["#b"], "offsetX": 1, "offsetY": 1},
		{"type": "click", "button": "back", "selectors": ["#b"], "offsetX": 1, "offsetY": 1},
		{"type": "click", "button": "forward", "selectors": ["#b"], "offsetX": 1, "offsetY": 1}]}`
	tr, _, err := trace.FromDevTools(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	src := string(compileOK(t, tr, "buttons.cog").Source)
	for _, want := range []string{
		`op2 = click(b)`, `op3 = click(b, button: "middle")`, `op4 = right_click(b)`,
		`op5 = click(b, button: "back")`, `op6 = click(b, button: "forward")`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the workflow lacks %s:\n%s", want, src)
		}
	}
}
