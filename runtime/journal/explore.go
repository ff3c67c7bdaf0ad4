package journal

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// EventExplore is the type of an explore line: one step an exploration
// took (cogflow run --heal, an explore block, an explore<…> dependency).
const EventExplore = "explore"

// ExploreEvent is one exploration step, journaled as it happens, with the
// position of the workflow step it explored for. Exploration takes only
// actions it can undo (or that a person confirmed), so a resumed run
// explores again rather than settling these.
type ExploreEvent struct {
	Task string    `json:"task,omitempty"`
	Step string    `json:"step,omitempty"` // the workflow step explored for
	Line int       `json:"line,omitempty"`
	Loop []LoopPos `json:"loop,omitempty"`
	// Kind is why the run explored: heal, block or dependency.
	Kind string `json:"kind"`
	// N counts the exploration's budgeted steps; Direction is forward,
	// back or replay; Op and Target what was done, the target in .cog
	// syntax.
	N         int       `json:"n"`
	Direction string    `json:"direction"`
	Op        string    `json:"op"`
	Target    string    `json:"target,omitempty"`
	Reached   bool      `json:"reached,omitempty"`
	Note      string    `json:"note,omitempty"`
	Time      time.Time `json:"time"`
}

// Explore records one exploration step. Like every line, its strings are
// redacted before they are written.
func (w *Writer) Explore(ev ExploreEvent) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if ev.Time.IsZero() {
		ev.Time = now()
	}
	return w.write(EventExplore, ev)
}

// renderExplored writes the exploration steps, grouped by the step they
// explored for.
func renderExplored(w io.Writer, evs []ExploreEvent) {
	if len(evs) == 0 {
		return
	}
	fmt.Fprintf(w, "\nexplored (%d steps):\n", len(evs))
	for _, ev := range evs {
		var b strings.Builder
		fmt.Fprintf(&b, "  line %d %s (%s): %d %s %s", ev.Line, ev.Step, ev.Kind, ev.N, ev.Direction, ev.Op)
		if ev.Target != "" {
			b.WriteString(" " + ev.Target)
		}
		if ev.Reached {
			b.WriteString(" — reached")
		}
		if ev.Note != "" {
			b.WriteString(" (" + ev.Note + ")")
		}
		fmt.Fprintln(w, b.String())
	}
}
