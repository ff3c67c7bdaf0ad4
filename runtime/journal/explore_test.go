package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/redact"
)

// TestExploreEvents: exploration steps are journaled with the position of
// the step they explored for, redacted, read back and shown by Render.
func TestExploreEvents(t *testing.T) {
	root := t.TempDir()
	m := meta("notes_save")
	m.Secrets = redact.New("hunter2")
	w := mustOpen(t, root, m)
	evs := []ExploreEvent{
		{Step: "op3", Line: 21, Kind: "heal", N: 1, Direction: "forward", Op: "click", Target: `link(name: "Wiki")`, Note: "the screen did not change"},
		{Step: "op3", Line: 21, Kind: "heal", N: 2, Direction: "forward", Op: "click", Target: `button(name: "hunter2 More")`, Reached: true},
	}
	for _, ev := range evs {
		must(t, w.Explore(ev))
	}
	must(t, w.Step(StepEvent{Step: "op3", Line: 21, Op: "click"}))
	must(t, w.Finish(OK, nil))

	raw, err := os.ReadFile(filepath.Join(root, "runs", w.ID(), JournalFile))
	must(t, err)
	if bytes.Contains(raw, []byte("hunter2")) {
		t.Errorf("a secret reached the journal:\n%s", raw)
	}
	if n := bytes.Count(raw, []byte(`{"type":"explore",`)); n != 2 {
		t.Errorf("%d explore lines, want 2:\n%s", n, raw)
	}
	run, err := Load(root, w.ID())
	must(t, err)
	if len(run.Explored) != 2 || run.Explored[1].Target != `button(name: "[secret] More")` || !run.Explored[1].Reached || run.Explored[0].Line != 21 {
		t.Errorf("read back: %+v", run.Explored)
	}
	if s := run.Summarize(); s.Steps.Total() != 1 {
		t.Errorf("exploration steps counted as workflow steps: %+v", s.Steps)
	}
	var out strings.Builder
	must(t, Render(&out, run))
	for _, want := range []string{"explored (2 steps):", `line 21 op3 (heal): 1 forward click link(name: "Wiki") (the screen did not change)`,
		`line 21 op3 (heal): 2 forward click button(name: "[secret] More") — reached`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Render lacks %q:\n%s", want, out.String())
		}
	}
}
