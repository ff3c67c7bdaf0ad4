package compiler

import (
	"strings"
	"testing"
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
