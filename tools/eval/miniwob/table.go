package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// printEvalTable writes the `make eval` table: a row per task with its
// kind, the demonstration's reward, the compiled workflow's steps by
// answer, both workflows' successes over the fresh seeds, their silently
// wrong runs, how many seeds showed the demonstrated instruction again,
// model calls and unanswered model steps, the time, the control flow the
// compiled workflow uses, why its unsolved runs failed (why.go), and its
// first failing seed.
func printEvalTable(w io.Writer, results []*taskEval, seeds int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tkind\tdemo\tsteps\tstruct\tsynth\tmodel\tcompiled\tliteral\tsilent c/l\tsame\tcalls\tno model\ttime\tconstructs\twhy failures fail\tfirst failing seed\tstep\tmessage")
	for _, r := range results {
		c := r.counts
		steps := []string{strconv.Itoa(c.Steps), strconv.Itoa(c.Structure), strconv.Itoa(c.Synthesis), strconv.Itoa(c.Model)}
		if r.compiled.w.src == "" || r.countsErr != "" {
			steps = []string{"-", "-", "-", "-"}
		}
		constructs := r.counts.Constructs
		if constructs == "" {
			constructs = "-"
		}
		seed, step, msg, failed := r.compiled.firstFailure()
		if !failed {
			seed = "none"
		}
		if r.demo.err != "" {
			msg = strings.TrimSpace("[demo: " + r.demo.err + "] " + msg)
		}
		if r.countsErr != "" {
			msg = strings.TrimSpace("[steps: " + r.countsErr + "] " + msg)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n",
			r.task, kindText(r.kind), rewardText(r.demo.reward), strings.Join(steps, "\t"),
			rate(r.compiled, seeds), rate(r.literal, seeds), r.compiled.silent(), r.literal.silent(),
			sameSeeds(r), r.compiled.modelCalls()+r.literal.modelCalls(), r.compiled.unanswered(r.counts),
			secs(r.took), constructs, orDash(failureReasons(r.compiled, r.counts)), seed, step, oneLine("", msg, 140))
	}
	_ = tw.Flush()
}

// summary is what the lines under the eval table say.
type summary struct {
	tasks, solvedDemos               int
	fixed, varying                   int     // tasks of kinds 1–3, and of kinds 4–5
	fixedCompiled, fixedLiteral      float64 // mean success over kinds 1–3, in %
	varyingCompiled, varyingLiteral  float64 // … over kinds 4–5
	fixedCalls, varyingCalls         int     // model calls in those tasks' runs
	fixedUnanswered, varyingUnanswer int     // runs stopped at a model step
	silentCompiled, silentLiteral    int
	runs                             int // runs made
	demoTime, compileTime, runTime   time.Duration
	journalTime, rewardWait          time.Duration // of the runs: inside the journals; after, waiting for rewards
	unknownKind                      []string
}

// summarize computes the summary of the results, each workflow run on
// seeds fresh seeds. A task's success is its solved runs over seeds, so a
// task whose demonstration or compilation failed counts as 0.
func summarize(results []*taskEval, seeds int) summary {
	var s summary
	var fc, fl, vc, vl float64
	for _, r := range results {
		s.tasks++
		if r.demo.solved() {
			s.solvedDemos++
		}
		s.silentCompiled += r.compiled.silent()
		s.silentLiteral += r.literal.silent()
		s.demoTime += r.demo.took
		s.compileTime += r.compiled.w.took + r.literal.w.took
		for _, o := range append(append([]outcome{}, r.compiled.runs...), r.literal.runs...) {
			s.runs++
			s.runTime += o.took
			s.journalTime += o.log.ran
			s.rewardWait += o.waited
		}
		calls := r.compiled.modelCalls() + r.literal.modelCalls()
		unanswered := r.compiled.unanswered(r.counts)
		c, l := share(r.compiled.successes(), seeds), share(r.literal.successes(), seeds)
		switch {
		case r.kind >= 1 && r.kind <= 3:
			s.fixed++
			fc, fl = fc+c, fl+l
			s.fixedCalls += calls
			s.fixedUnanswered += unanswered
		case r.kind >= 4 && r.kind <= 5:
			s.varying++
			vc, vl = vc+c, vl+l
			s.varyingCalls += calls
			s.varyingUnanswer += unanswered
		default:
			s.unknownKind = append(s.unknownKind, r.task)
		}
	}
	s.fixedCompiled, s.fixedLiteral = mean(fc, s.fixed), mean(fl, s.fixed)
	s.varyingCompiled, s.varyingLiteral = mean(vc, s.varying), mean(vl, s.varying)
	return s
}

// printEvalSummary writes the lines under the table and the total time.
func printEvalSummary(w io.Writer, results []*taskEval, seeds int, wall time.Duration) {
	s := summarize(results, seeds)
	fmt.Fprintf(w, "\ndemonstrations solved: %d/%d; each workflow run on %d fresh seeds\n", s.solvedDemos, s.tasks, seeds)
	fmt.Fprintf(w, "kinds 1-3 (%d tasks): mean success compiled %.1f%%, literal replay %.1f%%; model calls %d; runs stopped at a model step %d\n",
		s.fixed, s.fixedCompiled, s.fixedLiteral, s.fixedCalls, s.fixedUnanswered)
	fmt.Fprintf(w, "kinds 4-5 (%d tasks): mean success compiled %.1f%%, literal replay %.1f%%; model calls %d; runs stopped at a model step %d\n",
		s.varying, s.varyingCompiled, s.varyingLiteral, s.varyingCalls, s.varyingUnanswer)
	if len(s.unknownKind) > 0 {
		fmt.Fprintf(w, "tasks the fixtures' README gives no kind (in neither mean): %s\n", strings.Join(s.unknownKind, ", "))
	}
	fmt.Fprintf(w, "silently wrong runs (every step ok, the checker gave <= 0): compiled %d, literal replay %d\n", s.silentCompiled, s.silentLiteral)
	perRun := time.Duration(0)
	if s.runs > 0 {
		perRun = s.runTime / time.Duration(s.runs)
	}
	fmt.Fprintf(w, "time: total %s; demonstrations %s, compiles %s, %d runs %s (%s a run, summed over parallel runs: "+
		"%s in the journals' runs, %s starting and ending cogflow, %s waiting for rewards after)\n",
		wall.Round(time.Second), s.demoTime.Round(time.Second), s.compileTime.Round(time.Second), s.runs,
		s.runTime.Round(time.Second), perRun.Round(10*time.Millisecond), s.journalTime.Round(time.Second),
		(s.runTime - s.journalTime).Round(time.Second), s.rewardWait.Round(time.Second))
}

// sameSeeds is how many fresh seeds showed the demonstrated instruction
// again: a success there may be a coincidence.
func sameSeeds(r *taskEval) int {
	n := 0
	for i, o := range r.compiled.runs {
		if o.same || (i < len(r.literal.runs) && r.literal.runs[i].same) {
			n++
		}
	}
	if len(r.compiled.runs) == 0 {
		for _, o := range r.literal.runs {
			if o.same {
				n++
			}
		}
	}
	return n
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func rate(v variantEval, seeds int) string { return fmt.Sprintf("%d/%d", v.successes(), seeds) }

func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * sum / float64(n)
}

func kindText(k int) string {
	if k == 0 {
		return "?"
	}
	return strconv.Itoa(k)
}

func rewardText(r *Reward) string {
	if r == nil {
		return "none"
	}
	return fmt.Sprintf("%.2g", r.Raw)
}

func secs(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

// oneLine joins a step and its message on one line of at most n runes.
func oneLine(step, msg string, n int) string {
	s := strings.Join(strings.Fields(strings.TrimSpace(step+" "+msg)), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
