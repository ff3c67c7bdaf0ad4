package journal

import (
	"fmt"
	"strings"
	"time"
)

// EventFallback is written when a try's body failed and its fallback takes
// over, and synced, so that a resume goes on in the fallback instead of
// running the body again.
const EventFallback = "fallback"

// Fallback is a fallback event: the try's line, the loop iterations it was
// in, the step whose failure sent the run to the fallback, and that step's
// error (redacted like every string of the journal).
type Fallback struct {
	Task        string    `json:"task,omitempty"`
	Line        int       `json:"line"`
	Loop        []LoopPos `json:"loop,omitempty"`
	Step        string    `json:"step,omitempty"`
	Error       string    `json:"error,omitempty"`
	Time        time.Time `json:"time"`
	ResumedFrom string    `json:"resumed_from,omitempty"` // set when carried over from the resumed run
}

// Fallback records that the try at ev.Line fell back, and syncs.
func (w *Writer) Fallback(ev Fallback) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if ev.Time.IsZero() {
		ev.Time = now()
	}
	if err := w.write(EventFallback, ev); err != nil {
		return err
	}
	return w.sync()
}

// FellBack reports whether the try at line, in the loop iterations loop
// (outermost first), fell back in this run or in the runs it resumed.
// Iterations are recognized as Done recognizes them.
func (r *Run) FellBack(line int, loop []LoopPos) bool {
	for _, f := range r.Fallbacks {
		if f.Line == line && sameItem(f.Loop, loop) {
			return true
		}
	}
	return false
}

// fallbackNotes says, for `cogflow runs show`, which tries fell back and
// why: "the try at line 4 ran its fallback: step op3 failed: …".
func fallbackNotes(run *Run) []string {
	var out []string
	for _, f := range run.Fallbacks {
		n := fmt.Sprintf("the try at line %d", f.Line)
		if len(f.Loop) > 0 {
			var at []string
			for _, l := range f.Loop {
				at = append(at, fmt.Sprintf("%s[%d]", l.Var, l.Index))
			}
			n += " in " + strings.Join(at, " ")
		}
		n += " ran its fallback"
		if f.ResumedFrom != "" {
			n += " (in run " + f.ResumedFrom + ")"
		}
		if f.Step != "" {
			n += ": step " + f.Step + " failed"
		}
		if f.Error != "" {
			n += ": " + clip(strings.Join(strings.Fields(f.Error), " "), 160)
		}
		out = append(out, n)
	}
	return out
}
