package journal

import (
	"strings"
	"testing"
)

// TestRenderSaysWhichTriesFellBack: `cogflow runs show` names each try
// that ran its fallback, where, and the step and error that sent it there
// on one line; one carried over from a resumed run says so.
func TestRenderSaysWhichTriesFellBack(t *testing.T) {
	run := &Run{ID: "r", Start: RunStarted{Workflow: "t.cog", Task: "t", Row: -1}, Finish: &RunFinished{Outcome: OK},
		Fallbacks: []Fallback{
			{Line: 4, Step: "op3", Error: "no element matches button(name: \"Publish\")\n  80%  button \"Publish all\""},
			{Line: 9, Loop: []LoopPos{{Var: "repeat", Index: 1}}, Step: "op7", Error: "assert failed", ResumedFrom: "r0"},
		}}
	var b strings.Builder
	if err := Render(&b, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`the try at line 4 ran its fallback: step op3 failed: no element matches button(name: "Publish") 80% button "Publish all"`,
		"the try at line 9 in repeat[1] ran its fallback (in run r0): step op7 failed: assert failed",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("render lacks %q:\n%s", want, b.String())
		}
	}
}
