package runtime

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/llm"
)

// report prints the table and the totals.
func (w *costWalker) report(out io.Writer, task *ast.Task, iters Iterations) {
	skip := w.reportHeadline(out, task, iters)
	if len(w.deps) == 0 {
		if len(w.explores) > 0 {
			fmt.Fprintln(out, "Total: 0 LLM calls besides exploring")
		} else {
			fmt.Fprintln(out, "Total: 0 LLM calls: every step is structural")
		}
		w.reportExplores(out)
		return
	}
	fmt.Fprintln(out)
	w.reportTable(out, skip)
	fmt.Fprintln(out)

	terms := w.terms(iters)
	allKnown := true
	for _, t := range terms {
		allKnown = allKnown && t.known
	}
	// With one term nothing runs in a loop, and the totals need no sum.
	loops := len(terms) > 1
	reportCalls(out, terms, loops, allKnown)
	reportTokens(out, terms, loops, allKnown)
	w.reportExplores(out)
	w.reportPrice(out, terms, loops, allKnown)
}

// reportHeadline prints the line that counts the task's dependencies and
// returns those left out of the totals (branches an if's costlier branch
// outweighs), which the table marks.
func (w *costWalker) reportHeadline(out io.Writer, task *ast.Task, iters Iterations) map[*costDep]bool {
	inLoops := 0
	for _, d := range w.deps {
		if d.loop != nil {
			inLoops++
		}
	}
	fmt.Fprintf(out, "task %s: %s", task.Name.Name, costPlural(len(w.deps), "cognitive dependency", "cognitive dependencies"))
	if inLoops > 0 {
		fmt.Fprintf(out, ", %d inside loops", inLoops)
	}
	if n := len(w.explores); n > 0 {
		fmt.Fprintf(out, " and %s (explore blocks and explore<…>, below)", costPlural(n, "exploration", "explorations"))
	}
	skip := w.uncounted(iters)
	if len(skip) > 0 {
		fmt.Fprintf(out, "; %d in branches of an if that another branch outweighs, not in the totals (a run takes one branch)", len(skip))
	}
	fmt.Fprintln(out)
	return skip
}

// reportTable prints one row per dependency, in the order a run meets them.
func (w *costWalker) reportTable(out io.Writer, skip map[*costDep]bool) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "line\tstep\tonce per\tdependency\tcategory\tmodel\tLLM calls\ttokens per call")
	for _, d := range w.deps {
		calls := "1"
		switch {
		case skip[d]:
			calls = "0 (a costlier branch is counted)"
		case d.maybeFree:
			calls = "1 (maybe 0)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t~%d in, ~%d out\n",
			d.line, d.step, costPer(d.loop), costDepText(d.dep), d.main, d.model, calls, d.in, d.out)
	}
	tw.Flush()
}

// reportCalls prints the total of LLM calls and, when exact text matches
// may answer some dependencies, the least a run may make.
func reportCalls(out io.Writer, terms []*costTerm, loops, allKnown bool) {
	var free []string
	for _, t := range terms {
		free = append(free, t.free...)
	}
	fmt.Fprintf(out, "Total: %s", costPolynomial(terms, func(t *costTerm) string { return strconv.Itoa(t.calls) }))
	switch {
	case !loops:
		fmt.Fprintf(out, " LLM %s", costPluralWord(terms[0].calls, "call", "calls"))
	case allKnown:
		fmt.Fprintf(out, " = %s%s", costUpTo(terms), costPlural(costSumCalls(terms, false), "LLM call", "LLM calls"))
	default:
		fmt.Fprint(out, " (× --iterations, default: unknown)")
	}
	fmt.Fprintln(out)
	if len(free) > 0 {
		fmt.Fprintf(out, "  at least %s", costPolynomial(terms, func(t *costTerm) string { return strconv.Itoa(t.minCalls) }))
		if loops && allKnown {
			fmt.Fprintf(out, " = %s%d", costUpTo(terms), costSumCalls(terms, true))
		}
		fmt.Fprintf(out, " when an exact text match answers %s without an LLM\n", strings.Join(free, ", "))
	}
}

// reportTokens prints the tokens the calls would send and receive.
func reportTokens(out io.Writer, terms []*costTerm, loops, allKnown bool) {
	fmt.Fprintf(out, "Tokens: %s", costPolynomial(terms, func(t *costTerm) string { return fmt.Sprintf("~%d in / ~%d out", t.in, t.out) }))
	if loops && allKnown {
		in, outTok := 0, 0
		for _, t := range terms {
			in += t.in * t.times
			outTok += t.out * t.times
		}
		fmt.Fprintf(out, " = %s~%d in / ~%d out", costUpTo(terms), in, outTok)
	}
	fmt.Fprintln(out, " (a rough figure per main category; cache hits cost nothing)")
}

// reportPrice prints what the calls would cost at list prices, naming the
// models that have none rather than counting them as free.
func (w *costWalker) reportPrice(out io.Writer, terms []*costTerm, loops, allKnown bool) {
	var unpriced []string
	for _, d := range w.deps {
		if _, ok := w.models.Price(d.model, 0, 0); !ok && !costCalling(unpriced, d.model) {
			unpriced = append(unpriced, d.model)
		}
	}
	priced := 0
	for _, t := range terms {
		priced += t.priced
	}
	if priced == 0 {
		fmt.Fprintf(out, "Cost: unknown: no list price for %s (local or unlisted model)\n", strings.Join(unpriced, ", "))
		return
	}
	fmt.Fprintf(out, "Cost: %s", costPolynomial(terms, func(t *costTerm) string { return "~" + costUSD(t.usd) }))
	if loops && allKnown {
		usd := 0.0
		for _, t := range terms {
			usd += t.usd * float64(t.times)
		}
		fmt.Fprintf(out, " = %s~%s", costUpTo(terms), costUSD(usd))
	}
	fmt.Fprintf(out, " at list prices of %s", llm.PricesAsOf)
	if len(unpriced) > 0 {
		fmt.Fprintf(out, "; calls to %s not counted (no list price)", strings.Join(unpriced, ", "))
	}
	fmt.Fprintln(out)
}

// costUSD writes a dollar amount with the precision a rough estimate
// deserves.
func costUSD(usd float64) string {
	switch {
	case usd == 0:
		return "$0"
	case usd < 0.0001:
		return "<$0.0001"
	case usd < 1:
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// polynomial writes "N + M per iteration of `for x` + …", or "N" alone
// when nothing runs in a loop; with known iterations each loop term is
// followed by its multiplier.
func costPolynomial(terms []*costTerm, value func(*costTerm) string) string {
	var parts []string
	for _, t := range terms {
		if t.loop == nil {
			parts = append(parts, value(t))
			continue
		}
		p := value(t) + " per " + costPer(t.loop)
		if t.known {
			if t.upTo {
				p += " × up to"
			} else {
				p += " ×"
			}
			p += fmt.Sprintf(" %d", t.times)
			if len(t.factors) > 1 {
				f := make([]string, len(t.factors))
				for i, n := range t.factors {
					f[i] = strconv.Itoa(n)
				}
				p += " (" + strings.Join(f, " × ") + ")"
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " + ")
}

// costUpTo is "up to " when a total is a bound: a while or until's
// iterations are in it.
func costUpTo(terms []*costTerm) string {
	for _, t := range terms {
		if t.upTo && t.calls > 0 {
			return "up to "
		}
	}
	return ""
}

func costSumCalls(terms []*costTerm, min bool) int {
	n := 0
	for _, t := range terms {
		c := t.calls
		if min {
			c = t.minCalls
		}
		n += c * t.times
	}
	return n
}

// depText renders a dependency the way it is written, a long description
// shortened.
func costDepText(d *ast.Dependency) string {
	desc := d.Description.Value
	if r := []rune(desc); len(r) > 48 {
		desc = string(r[:47]) + "…"
	}
	name := d.Sub.Name
	if d.Main != nil {
		name = d.Main.Name + "." + name
	}
	return fmt.Sprintf("%s<%q>", name, desc)
}

func costPlural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, costPluralWord(n, one, many))
}

func costPluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
