package journal

import "fmt"

// tieNotes are the notes `cogflow runs show` ends with for the steps whose
// element anchoring chose among tied candidates (StepEvent.Ties): a choice
// the run made that no description did, for a reviewer to check.
func tieNotes(run *Run) []string {
	var out []string
	for _, ev := range run.Steps {
		for _, t := range ev.Ties {
			out = append(out, fmt.Sprintf("step %s (line %d) settled a tie: %s", ev.Step, ev.Line, t))
		}
	}
	return out
}
