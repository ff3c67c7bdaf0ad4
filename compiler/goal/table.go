package goal

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// cellCap bounds a sentence in the table.
const cellCap = 56

// Totals are a report's counts.
type Totals struct {
	Rows                 int
	Match, Partial, No   int
	Unknown, Errors      int
	WithParams, AllFound int // goals with reference parameters; those whose every value was inferred
	Values, ValuesFound  int // reference values; those inferred
	Extra                int // inferred values that are no reference value
	Exact                int // inferred sentences equal to the reference
}

// Totals counts a report.
func (r *Report) Totals() Totals {
	t := Totals{Rows: len(r.Rows)}
	for _, row := range r.Rows {
		if row.Err != "" && row.Verdict == nil {
			t.Errors++
		}
		if row.Reference != nil && row.Inferred != nil {
			if n := len(row.Reference.Params); n > 0 {
				t.WithParams++
				t.Values += n
				t.ValuesFound += row.Recovered
				if row.AllParams() {
					t.AllFound++
				}
			}
			t.Extra += row.Extra
			if row.Exact {
				t.Exact++
			}
		}
		if row.Verdict == nil {
			continue
		}
		switch row.Verdict.Verdict {
		case Match:
			t.Match++
		case Partial:
			t.Partial++
		case No:
			t.No++
		default:
			t.Unknown++
		}
	}
	return t
}

// WriteTable prints the agreement table: a line per demonstration
// (reference, inferred goal, parameters recovered, the judge's verdict),
// the totals, and the judge's reasons when reasons is set.
func WriteTable(w io.Writer, r *Report, reasons bool) error {
	how := "rules only (no model)"
	if r.Source == SourceModel {
		how = "the model"
	}
	for _, row := range r.Rows {
		if row.Inferred != nil && row.Inferred.Source == SourceModel {
			how = "the model"
			break
		}
	}
	fmt.Fprintf(w, "Goal evaluation of %s: %d demonstrations; goals inferred and judged by %s\n\n", r.Dir, len(r.Rows), how)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "name\treference\tinferred\tparams\texact\tjudge\tA→B\tB→A")
	for _, row := range r.Rows {
		ref, inf, params, exact, verdict, ab, ba := "", "-", "-", "-", "error", "-", "-"
		if row.Reference != nil {
			ref = row.Reference.Goal
			params = fmt.Sprintf("%d/%d", row.Recovered, len(row.Reference.Params))
			if row.Extra > 0 {
				params += fmt.Sprintf(" +%d", row.Extra)
			}
		}
		if row.Inferred != nil {
			inf = row.Inferred.Sentence
			exact = map[bool]string{true: "yes", false: "no"}[row.Exact]
		} else {
			params = "-"
		}
		if row.Verdict != nil {
			verdict, ab, ba = row.Verdict.Verdict, dash(row.Verdict.AB.Answer), dash(row.Verdict.BA.Answer)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.Name, cell(ref), cell(inf), params, exact, verdict, ab, ba)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := r.Totals()
	fmt.Fprintf(w, "\nJudge: %d match, %d partial, %d no, %d unknown, %d errors, of %d\n", t.Match, t.Partial, t.No, t.Unknown, t.Errors, t.Rows)
	fmt.Fprintf(w, "Parameters recovered exactly: %d of %d goals (every reference value among the inferred parameters); %d of %d values; %d inferred values beyond the reference\n",
		t.AllFound, t.WithParams, t.ValuesFound, t.Values, t.Extra)
	fmt.Fprintf(w, "Exact sentences: %d of %d\n", t.Exact, t.Rows)
	for _, row := range r.Rows {
		if row.Err != "" {
			fmt.Fprintf(w, "error %s: %s\n", row.Name, row.Err)
		}
	}
	if !reasons {
		return nil
	}
	fmt.Fprintln(w, "\nReasons (A: the reference with the demonstration; B: the inferred goal with the same demonstration):")
	for _, row := range r.Rows {
		if row.Verdict == nil {
			continue
		}
		fmt.Fprintf(w, "%s: A→B %s: %s\n", row.Name, dash(row.Verdict.AB.Answer), row.Verdict.AB.Reason)
		fmt.Fprintf(w, "%s: B→A %s: %s\n", row.Name, dash(row.Verdict.BA.Answer), row.Verdict.BA.Reason)
		for _, n := range row.Inferred.Notes {
			fmt.Fprintf(w, "%s: note: %s\n", row.Name, n)
		}
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// cell is a sentence on one line, capped for the table.
func cell(s string) string {
	return capText(strings.Join(strings.Fields(s), " "), cellCap)
}
