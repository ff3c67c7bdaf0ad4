package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// costCallTokens is a rough size of one LLM call per main category: the prompt
// (instructions, the dependency, its inputs, the goal, and the page text or
// the candidate list the category needs) and the answer.
var costCallTokens = map[string]struct{ in, out int }{
	"information_recall":        {1500, 150}, // fenced page text, an extracted passage back
	"information_comprehension": {1200, 120}, // the text to understand, a short answer
	"information_creation":      {800, 250},  // inputs and goal, a written text back
	"logical_reasoning":         {500, 30},   // a few values, a number or verdict back
	"contextual_selection":      {2500, 10},  // a numbered candidate list, an index back
}

// costOtherCallTokens sizes a call of a category not in costCallTokens.
var costOtherCallTokens = struct{ in, out int }{1000, 100}

// costPrice prices tokens on a model in US dollars at list price; ok is
// false when the model's price is unknown (local and unlisted models).
var costPrice = llm.Cost

// costLoop is one for loop of the task, or of a skill the task calls.
type costLoop struct {
	stmt   *ast.ForStmt
	parent *costLoop // the enclosing loop, nil at the top
	label  string    // "for paper", with the line when two loops share a variable
	order  int       // order of appearance
}

// costDep is one cognitive dependency a run resolves.
type costDep struct {
	line      int
	step      string // the step, "op4", or "op2 → define.s4" through a skill
	loop      *costLoop
	dep       *ast.Dependency
	main      string
	model     string
	maybeFree bool // an exact text match may answer it without an LLM
	in, out   int  // tokens per call
}

// costWalker collects the dependencies of a task in the order a run meets
// them.
type costWalker struct {
	file   *ast.File
	info   *check.Info
	kb     *kb.KB
	cfg    *config.Config
	skills map[string]*ast.Skill
	deps   []*costDep
	loops  []*costLoop
}

func runCost(c *cli, args []string) int {
	fs := c.newFlags("cost")
	iters := costIterations{}
	fs.Var(&iters, "iterations", "loop iterations to assume: `N` for every loop, or VAR=N for the loops over VAR (repeatable)")
	taskName := fs.String("task", "", "the task to estimate when the file has several (default: the first)")
	dir := fs.String("dir", ".", "the project folder whose "+config.FileName+" names the models")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow cost: give exactly one workflow file")
		return exitUsage
	}
	l, err := load(files[0], checkEnv())
	if err != nil {
		return c.readError("cost", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	task, names := costTask(l.file, *taskName)
	if task == nil {
		if *taskName == "" {
			fmt.Fprintf(c.stderr, "cogflow cost: %s has no task\n", files[0])
		} else {
			fmt.Fprintf(c.stderr, "cogflow cost: %s has no task %s (tasks: %v)\n", files[0], *taskName, names)
		}
		return exitUsage
	}
	// The models only name the rows and price the calls: a bad
	// configuration is reported but does not stop the estimate.
	cfg, diags := config.Load(*dir)
	if len(diags) > 0 {
		cfg.Render(c.stderr, diags)
	}

	w := &costWalker{file: l.file, info: l.info, kb: projectKnowledge(), cfg: cfg, skills: map[string]*ast.Skill{}}
	for _, d := range l.file.Decls {
		if s, ok := d.(*ast.Skill); ok {
			w.skills[s.Name.Name] = s
		}
	}
	w.block(task.Body, nil, "", nil)
	w.labelLoops()
	if err := iters.check(w.loops); err != nil {
		fmt.Fprintf(c.stderr, "cogflow cost: %v\n", err)
		return exitUsage
	}
	w.report(c.stdout, task, iters)
	return exitOK
}

// costTask returns the task called name, or the first when name is "",
// and the names of all tasks.
func costTask(f *ast.File, name string) (*ast.Task, []string) {
	var task *ast.Task
	var names []string
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok {
			names = append(names, t.Name.Name)
			if task == nil && (name == "" || t.Name.Name == name) {
				task = t
			}
		}
	}
	return task, names
}

// block walks statements inside loop; prefix names the skill call the
// block is reached through ("op2 → define."), and calling guards against a
// skill calling itself.
func (w *costWalker) block(b *ast.Block, loop *costLoop, prefix string, calling []string) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.Step:
			w.expr(s.Value, prefix+s.Name.Name, loop, calling)
		case *ast.AnchorDecl:
			w.expr(s.Value, prefix+"anchor "+s.Name.Name, loop, calling)
		case *ast.InputDecl:
			w.expr(s.Default, prefix+"input "+s.Name.Name, loop, calling)
		case *ast.ForStmt:
			// The iterable is evaluated once, before the loop.
			w.expr(s.Iter, prefix+"for "+s.Var.Name, loop, calling)
			inner := &costLoop{stmt: s, parent: loop, order: len(w.loops)}
			w.loops = append(w.loops, inner)
			w.block(s.Body, inner, prefix, calling)
		}
	}
}

// expr records the dependencies in e, and those of the skills it calls.
func (w *costWalker) expr(e ast.Expr, step string, loop *costLoop, calling []string) {
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Dependency:
			w.deps = append(w.deps, w.dependency(x, step, loop))
		case *ast.Call:
			name := x.CalleeName()
			if sk, ok := w.skills[name]; ok && !costCalling(calling, name) {
				w.block(sk.Body, loop, step+" → "+name+".", append(calling, name))
			}
		}
		return true
	})
}

func costCalling(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (w *costWalker) dependency(d *ast.Dependency, step string, loop *costLoop) *costDep {
	cd := &costDep{line: d.Range.Start.Line, step: step, loop: loop, dep: d}
	if d.Main != nil {
		cd.main = d.Main.Name
	} else if m, ok := w.kb.MainOf(d.Sub.Name); ok {
		cd.main = m
	}
	// An exact text match between an input and a candidate answers these
	// without an LLM; with no inputs there is nothing to match.
	cd.maybeFree = (d.Sub.Name == "match_element" || d.Sub.Name == "match_text") && len(d.Inputs) > 0
	size, ok := costCallTokens[cd.main]
	if !ok {
		size = costOtherCallTokens
	}
	cd.in, cd.out = size.in, size.out
	cd.model = w.cfg.LLM.TextModel
	if t, ok := w.info.DepTypes[d]; (ok && t.Kind == types.Element) || d.Sub.Name == "match_element" {
		cd.model = w.cfg.LLM.ElementModel
	}
	return cd
}

// labelLoops names the loops by their variables, adding the line when two
// share one.
func (w *costWalker) labelLoops() {
	count := map[string]int{}
	for _, l := range w.loops {
		count[l.stmt.Var.Name]++
	}
	for _, l := range w.loops {
		l.label = "for " + l.stmt.Var.Name
		if count[l.stmt.Var.Name] > 1 {
			l.label += fmt.Sprintf(" (line %d)", l.stmt.Range.Start.Line)
		}
	}
}

// perLabel says how often a dependency is resolved: once per run, or once
// per iteration of its innermost loop (inside its outer loops).
func costPer(l *costLoop) string {
	if l == nil {
		return "run"
	}
	s := "iteration of `" + l.label + "`"
	for p := l.parent; p != nil; p = p.parent {
		s += " in `" + p.label + "`"
	}
	return s
}

// costTerm sums the dependencies resolved once per run (loop nil) or once
// per iteration of one loop.
type costTerm struct {
	loop            *costLoop
	calls, minCalls int
	in, out         int
	usd             float64
	priced          int      // dependencies whose model has a known price
	free            []string // the steps an exact match may answer
	times           int      // how often the term is resolved in a run
	factors         []int    // the iterations of its loops, outermost first
	known           bool     // times is known: --iterations covers its loops
}

func (w *costWalker) terms(iters costIterations) []*costTerm {
	byLoop := map[*costLoop]*costTerm{}
	top := &costTerm{}
	out := []*costTerm{top}
	byLoop[nil] = top
	for _, l := range w.loops {
		t := &costTerm{loop: l}
		byLoop[l] = t
		out = append(out, t)
	}
	for _, d := range w.deps {
		t := byLoop[d.loop]
		t.calls++
		if d.maybeFree {
			t.free = append(t.free, d.step)
		} else {
			t.minCalls++
		}
		t.in += d.in
		t.out += d.out
		if usd, ok := costPrice(d.model, d.in, d.out); ok {
			t.usd += usd
			t.priced++
		}
	}
	for _, t := range out {
		t.times, t.factors, t.known = iters.times(t.loop)
	}
	// Keep the top term even when empty (the "N" of "N + M per
	// iteration"); drop loops without dependencies of their own.
	kept := out[:1]
	for _, t := range out[1:] {
		if t.calls > 0 {
			kept = append(kept, t)
		}
	}
	return kept
}

// report prints the table and the totals.
func (w *costWalker) report(out io.Writer, task *ast.Task, iters costIterations) {
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
	fmt.Fprintln(out)
	if len(w.deps) == 0 {
		fmt.Fprintln(out, "Total: 0 LLM calls: every step is structural")
		return
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "line\tstep\tonce per\tdependency\tcategory\tmodel\tLLM calls\ttokens per call")
	for _, d := range w.deps {
		calls := "1"
		if d.maybeFree {
			calls = "1 (maybe 0)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t~%d in, ~%d out\n",
			d.line, d.step, costPer(d.loop), costDepText(d.dep), d.main, d.model, calls, d.in, d.out)
	}
	tw.Flush()
	fmt.Fprintln(out)

	terms := w.terms(iters)
	allKnown := true
	for _, t := range terms {
		allKnown = allKnown && t.known
	}
	loops := len(terms) > 1
	var free []string
	for _, t := range terms {
		free = append(free, t.free...)
	}

	// Calls.
	fmt.Fprintf(out, "Total: %s", costPolynomial(terms, func(t *costTerm) string { return strconv.Itoa(t.calls) }))
	switch {
	case !loops:
		fmt.Fprintf(out, " LLM %s", costPluralWord(terms[0].calls, "call", "calls"))
	case allKnown:
		fmt.Fprintf(out, " = %s", costPlural(costSumCalls(terms, false), "LLM call", "LLM calls"))
	default:
		fmt.Fprint(out, " (× --iterations, default: unknown)")
	}
	fmt.Fprintln(out)
	if len(free) > 0 {
		fmt.Fprintf(out, "  at least %s", costPolynomial(terms, func(t *costTerm) string { return strconv.Itoa(t.minCalls) }))
		if loops && allKnown {
			fmt.Fprintf(out, " = %d", costSumCalls(terms, true))
		}
		fmt.Fprintf(out, " when an exact text match answers %s without an LLM\n", strings.Join(free, ", "))
	}

	// Tokens.
	fmt.Fprintf(out, "Tokens: %s", costPolynomial(terms, func(t *costTerm) string { return fmt.Sprintf("~%d in / ~%d out", t.in, t.out) }))
	if loops && allKnown {
		in, outTok := 0, 0
		for _, t := range terms {
			in += t.in * t.times
			outTok += t.out * t.times
		}
		fmt.Fprintf(out, " = ~%d in / ~%d out", in, outTok)
	}
	fmt.Fprintln(out, " (a rough figure per main category; cache hits cost nothing)")

	// Price.
	var unpriced []string
	for _, d := range w.deps {
		if _, ok := costPrice(d.model, 0, 0); !ok && !costCalling(unpriced, d.model) {
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
		fmt.Fprintf(out, " = ~%s", costUSD(usd))
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
			p += fmt.Sprintf(" × %d", t.times)
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

// costIterations is --iterations: N for every loop, or VAR=N for the
// loops over VAR.
type costIterations struct {
	all      int
	allGiven bool
	byVar    map[string]int
}

func (f *costIterations) String() string {
	if f == nil {
		return ""
	}
	var parts []string
	if f.allGiven {
		parts = append(parts, strconv.Itoa(f.all))
	}
	keys := make([]string, 0, len(f.byVar))
	for k := range f.byVar {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, f.byVar[k]))
	}
	return strings.Join(parts, ",")
}

func (f *costIterations) Set(s string) error {
	name, num, named := strings.Cut(s, "=")
	if !named {
		num = s
	}
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil || n < 0 {
		return fmt.Errorf("want a count of iterations (N or VAR=N), got %q", s)
	}
	if !named {
		f.all, f.allGiven = n, true
		return nil
	}
	if f.byVar == nil {
		f.byVar = map[string]int{}
	}
	f.byVar[strings.TrimSpace(name)] = n
	return nil
}

// check rejects VAR=N for a variable no loop uses.
func (f costIterations) check(loops []*costLoop) error {
	vars := map[string]bool{}
	var names []string
	for _, l := range loops {
		if !vars[l.stmt.Var.Name] {
			names = append(names, l.stmt.Var.Name)
		}
		vars[l.stmt.Var.Name] = true
	}
	for v := range f.byVar {
		if !vars[v] {
			if len(names) == 0 {
				return fmt.Errorf("--iterations %s=…: the task has no loop", v)
			}
			return fmt.Errorf("--iterations %s=…: no loop `for %s` (loops: %s)", v, v, strings.Join(names, ", "))
		}
	}
	return nil
}

// times is how often a term's dependencies are resolved in a run: 1 at the
// top, the product of the iterations of its loop and the loops around it
// (the factors, outermost first). known is false when one of those counts
// was not given.
func (f costIterations) times(l *costLoop) (int, []int, bool) {
	n := 1
	var factors []int
	for ; l != nil; l = l.parent {
		k, ok := f.byVar[l.stmt.Var.Name]
		if !ok {
			if !f.allGiven {
				return 0, nil, false
			}
			k = f.all
		}
		n *= k
		factors = append([]int{k}, factors...)
	}
	return n, factors, true
}
