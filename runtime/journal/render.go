package journal

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

const timeLayout = "2006-01-02 15:04:05 MST"

// Render writes run for `cogflow runs show ID`: a header (workflow, task,
// outcome, duration, counts), then one line per step — line number, name,
// op, outcome, duration, the source of its value, loop position, error —
// then where an interrupted or killed run stopped. Times are in UTC.
func Render(w io.Writer, run *Run) error {
	if err := renderHeader(w, run); err != nil {
		return err
	}

	if len(run.Steps) > 0 {
		fmt.Fprintln(w)
		if err := renderSteps(w, run.Steps); err != nil {
			return err
		}
	}

	renderExplored(w, run.Explored)

	notes := renderNotes(run)
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	return nil
}

// renderHeader writes the run's fields, one "name  value" line each;
// fields that would be empty or zero are left out.
func renderHeader(w io.Writer, run *Run) error {
	s := run.Summarize()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	field := func(name, format string, args ...any) {
		fmt.Fprintf(tw, "%s\t%s\n", name, fmt.Sprintf(format, args...))
	}
	field("run", "%s", run.ID)
	field("workflow", "%s", s.Workflow)
	field("task", "%s", s.Task)
	if s.Driver != "" {
		field("driver", "%s", s.Driver)
	}
	if s.Resume != "" {
		field("resumes", "%s", s.Resume)
	}
	if s.Row >= 0 {
		// Journals count rows from 0; people, batches and reports from 1.
		field("row", "%d", s.Row+1)
	}
	if len(run.Start.Inputs) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(run.Start.Inputs)) {
			parts = append(parts, k+"="+strconv.Quote(clip(run.Start.Inputs[k], 40)))
		}
		field("inputs", "%s", strings.Join(parts, " "))
	}
	field("outcome", "%s", outcomeText(s.Outcome, s.Error))
	field("started", "%s", s.Started.UTC().Format(timeLayout))
	field("duration", "%s", s.Duration)
	field("steps", "%s", countsText(s.Steps))
	if s.Iterations > 0 || s.ResumedIterations > 0 {
		text := fmt.Sprintf("%d done", s.Iterations)
		if s.ResumedIterations > 0 {
			text += fmt.Sprintf(", %d done before resuming", s.ResumedIterations)
		}
		field("iterations", "%s", text)
	}
	if s.Tokens != (Tokens{}) {
		tokens := fmt.Sprintf("%d in, %d out", s.Tokens.In, s.Tokens.Out)
		if s.Tokens.Calls > 0 {
			tokens += fmt.Sprintf(" in %d model calls (%s waiting)", s.Tokens.Calls, s.Tokens.Latency)
		}
		if s.Tokens.CostUSD > 0 {
			tokens += fmt.Sprintf(", ~$%.4f", s.Tokens.CostUSD)
		}
		field("tokens", "%s", tokens)
	}
	return tw.Flush()
}

// renderNotes says where an interrupted or killed run stopped, and what
// else a reader of the step table should know about the run: fallbacks and
// ties taken, a truncated journal, a step in doubt and how it was settled.
func renderNotes(run *Run) []string {
	var notes []string
	if at, ok := run.StoppedAt(); ok {
		if run.Interruption != nil {
			notes = append(notes, "interrupted at "+at.String())
		} else {
			notes = append(notes, "stopped after "+at.String()+": no run_finished, the run was killed or is still running")
		}
	} else if run.Finish == nil {
		notes = append(notes, "no steps and no run_finished: the run was killed or is still running")
	}
	notes = append(notes, fallbackNotes(run)...)
	notes = append(notes, tieNotes(run)...)
	if run.Truncated > 0 {
		notes = append(notes, fmt.Sprintf("journal line %d is incomplete and was left out", run.Truncated))
	}
	if in, ok := run.InDoubt(); ok {
		notes = append(notes, fmt.Sprintf("in doubt: step %s (line %d, %s) may or may not have taken effect; --resume settles it (--in-doubt)",
			in.Step, in.Line, in.Op))
	}
	if st := run.Settled; st != nil {
		notes = append(notes, fmt.Sprintf("resumed run %s's step in doubt %s (line %d) by %s", st.Run, st.Intent.Step, st.Intent.Line, st.Policy))
	}
	return notes
}

// renderSteps writes the step table; the LOOP and ERROR columns appear
// only when some step has a loop position or an error.
func renderSteps(w io.Writer, steps []StepEvent) error {
	hasLoop, hasErr := false, false
	width := len("LINE")
	for _, ev := range steps {
		hasLoop = hasLoop || len(ev.Loop) > 0
		hasErr = hasErr || ev.Error != ""
		width = max(width, len(strconv.Itoa(ev.Line)))
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	row := func(line, step, op, outcome, dur, source, loop, err string) {
		cells := []string{fmt.Sprintf("%*s", width, line), step, op, outcome, dur, source}
		if hasLoop {
			cells = append(cells, loop)
		}
		if hasErr {
			cells = append(cells, err)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	row("LINE", "STEP", "OP", "OUTCOME", "DURATION", "SOURCE", "LOOP", "ERROR")
	for _, ev := range steps {
		line := ""
		if ev.Line > 0 {
			line = strconv.Itoa(ev.Line)
		}
		row(line, ev.Step, ev.Op, string(ev.Outcome), ev.Duration.String(), string(ev.Source), loopString(ev.Loop), oneLine(ev.Error))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Cells are padded to their column even when nothing follows them.
	var out strings.Builder
	for line := range strings.Lines(buf.String()) {
		out.WriteString(strings.TrimRight(line, " \n"))
		out.WriteByte('\n')
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// RenderList writes runs as a table for `cogflow runs`.
func RenderList(w io.Writer, runs []RunInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED\tDURATION\tOUTCOME\tSTEPS\tTASK\tWORKFLOW")
	for _, r := range runs {
		if r.Problem != "" {
			fmt.Fprintf(tw, "%s\t\t\tunreadable\t\t\t%s\n", r.ID, oneLine(r.Problem))
			continue
		}
		outcome := string(r.Outcome)
		if outcome == "" {
			outcome = "unfinished"
		}
		if r.Truncated {
			outcome += "*"
		}
		steps := countsText(r.Steps)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started.UTC().Format("2006-01-02 15:04:05"),
			r.Duration, outcome, steps, r.Task, r.Workflow)
	}
	return tw.Flush()
}

func outcomeText(o Outcome, err string) string {
	text := string(o)
	if o == "" {
		text = "unfinished"
	}
	if err != "" {
		text += ": " + oneLine(err)
	}
	return text
}

// countsText is "5 ok, 1 failed": the non-zero counts, or "none".
func countsText(c StepCounts) string {
	var parts []string
	for _, p := range []struct {
		n    int
		name Outcome
	}{{c.OK, OK}, {c.Failed, Failed}, {c.Skipped, Skipped}, {c.Declined, Declined}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// oneLine keeps a message on one table row.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
