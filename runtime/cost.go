package runtime

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// The cost estimate (cogflow cost) sits beside the dry-run plan (plan.go):
// both read a checked task without running it. The report is in
// cost_report.go.

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

// costLoop is one for, repeat, while or until loop of the task, or of a
// skill the task calls.
type costLoop struct {
	stmt   ast.Stmt
	name   string    // a for loop's variable; "" for the others
	parent *costLoop // the enclosing loop, nil at the top
	label  string    // "for paper", with the line when two loops share a variable
	order  int       // order of appearance
	// count is the number of iterations when the source gives it (a
	// repeat's literal count, a while's bound), with upTo for a bound.
	count      int
	countKnown bool
	upTo       bool
}

// costDep is one cognitive dependency a run answers.
type costDep struct {
	line      int
	step      string // the step, "op4", or "op2 → define.s4" through a skill
	loop      *costLoop
	dep       *ast.Dependency
	main      string
	model     string
	maybeFree bool // an exact text match may answer it without an LLM
	in, out   int  // tokens per call
	// alt is the innermost if whose branch holds the dependency, arm that
	// branch's index (ast.Bodies order); nil outside every if.
	alt *costAlt
	arm int
}

// costWalker collects the dependencies of a task in the order a run meets
// them.
type costWalker struct {
	file   *ast.File
	info   *check.Info
	kb     *kb.KB
	models CostModels
	skills map[string]*ast.Skill
	deps   []*costDep
	loops  []*costLoop
	// alt and arm are the if branch being walked (see costDep).
	alt *costAlt
	arm int
	// explores are the explore blocks and explore<…> dependencies, whose
	// model calls are a bound of their own (cost_explore.go).
	explores []*costExplore
}

// CostEstimate is what a run of a task would ask of the models: its
// cognitive dependencies in the order a run meets them, each with the loop
// it is answered in, its category, its model and a rough size.
type CostEstimate struct {
	task *ast.Task
	w    *costWalker
}

// CostModels name the models that would answer and price their calls.
type CostModels struct {
	// Text answers text dependencies, Element those that pick an element.
	Text, Element string
	// Price prices tokens on a model in US dollars; ok is false when the
	// model's price is unknown (local and unlisted models). Nil: llm.Cost,
	// the list prices.
	Price func(model string, in, out int) (usd float64, ok bool)
}

// EstimateCost walks task (and the skills it calls) for its cognitive
// dependencies. k gives the main category of a dependency written without
// one.
func EstimateCost(file *ast.File, info *check.Info, task *ast.Task, k *kb.KB, models CostModels) *CostEstimate {
	if models.Price == nil {
		models.Price = llm.Cost
	}
	w := &costWalker{file: file, info: info, kb: k, models: models, skills: skillsOf(file, info, DriverOf(task))}
	w.block(task.Body, nil, "", nil)
	w.labelLoops()
	return &CostEstimate{task: task, w: w}
}

// Check rejects iterations given for a variable no loop of the task uses.
func (e *CostEstimate) Check(iters Iterations) error { return iters.check(e.w.loops) }

// Write prints the table of dependencies and the totals of calls, tokens
// and US dollars; a loop's iterations multiply its terms when iters gives
// them, and stay a "per iteration" term otherwise.
func (e *CostEstimate) Write(out io.Writer, iters Iterations) { e.w.report(out, e.task, iters) }

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
			inner := &costLoop{stmt: s, name: s.Var.Name, parent: loop, order: len(w.loops)}
			w.loops = append(w.loops, inner)
			w.block(s.Body, inner, prefix, calling)
		case *ast.IfStmt:
			// Every condition may be judged; of the branches only one
			// runs, so the totals count the costliest (costAlt).
			for c := s; c != nil; c = c.ElseIf {
				w.expr(c.Cond, prefix+"if", loop, calling)
			}
			outer, outerArm := w.alt, w.arm
			alt := &costAlt{parent: outer, arm: outerArm}
			for i, b := range ast.Bodies(s) {
				w.alt, w.arm = alt, i
				w.block(b, loop, prefix, calling)
			}
			w.alt, w.arm = outer, outerArm
		case *ast.TryStmt:
			// The worst case runs the body up to its last step, which
			// fails, and then the whole fallback: both count.
			w.block(s.Body, loop, prefix, calling)
			w.block(s.Fallback, loop, prefix, calling)
		case *ast.ExploreStmt:
			w.exploreBlock(s, prefix, loop)
			w.block(s.Body, loop, prefix, calling)
		case *ast.RepeatStmt:
			// The count is computed once; the body runs count times,
			// known when the count is a literal.
			w.expr(s.Count, prefix+"repeat", loop, calling)
			inner := &costLoop{stmt: s, parent: loop, order: len(w.loops)}
			inner.count, inner.countKnown = costLiteral(s.Count)
			w.loops = append(w.loops, inner)
			w.block(s.Body, inner, prefix, calling)
		case *ast.WhileStmt:
			// The condition is judged before each iteration and once
			// more at the end; the body runs up to the loop's bound.
			inner := &costLoop{stmt: s, parent: loop, order: len(w.loops), upTo: true}
			if e := s.Option("max"); e != nil {
				inner.count, inner.countKnown = costLiteral(e)
			} else {
				inner.count, inner.countKnown = check.DefaultLoopMax, true
			}
			w.loops = append(w.loops, inner)
			w.expr(s.Cond, prefix+s.Keyword(), inner, calling)
			w.block(s.Body, inner, prefix, calling)
		}
	}
}

// costLiteral is the value of a whole-number literal.
func costLiteral(e ast.Expr) (int, bool) {
	n, ok := e.(*ast.NumberLit)
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(n.Raw)
	return v, err == nil && v >= 0
}

// expr records the dependencies in e, and those of the skills it calls.
func (w *costWalker) expr(e ast.Expr, step string, loop *costLoop, calling []string) {
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Dependency:
			if x.Sub.Name == "explore" {
				w.exploreDep(x, step, loop)
				return true
			}
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
	cd := &costDep{line: d.Range.Start.Line, step: step, loop: loop, dep: d, alt: w.alt, arm: w.arm}
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
	cd.model = w.models.Text
	if t, ok := w.info.DepTypes[d]; (ok && t.Kind == types.Element) || d.Sub.Name == "match_element" {
		cd.model = w.models.Element
	}
	return cd
}

// labelLoops names the loops by their variables, adding the line when two
// share one.
func (w *costWalker) labelLoops() {
	count := map[string]int{}
	head := func(l *costLoop) string {
		switch s := l.stmt.(type) {
		case *ast.RepeatStmt:
			return "repeat " + printer.ExprString(s.Count)
		case *ast.WhileStmt:
			return s.Keyword()
		}
		return "for " + l.name
	}
	for _, l := range w.loops {
		count[head(l)]++
	}
	for _, l := range w.loops {
		l.label = head(l)
		if count[l.label] > 1 {
			l.label += fmt.Sprintf(" (line %d)", l.stmt.Rng().Start.Line)
		}
	}
}

// perLabel says how often a dependency is answered: once per run, or once
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

// costTerm sums the dependencies answered once per run (loop nil) or once
// per iteration of one loop.
type costTerm struct {
	loop            *costLoop
	calls, minCalls int
	in, out         int
	usd             float64
	priced          int      // dependencies whose model has a known price
	free            []string // the steps an exact match may answer
	times           int      // how often the term is answered in a run
	factors         []int    // the iterations of its loops, outermost first
	known           bool     // times is known: --iterations covers its loops
	upTo            bool     // times is a bound: a while or until is among its loops
}

func (w *costWalker) terms(iters Iterations) []*costTerm {
	byLoop := map[*costLoop]*costTerm{}
	top := &costTerm{}
	out := []*costTerm{top}
	byLoop[nil] = top
	for _, l := range w.loops {
		t := &costTerm{loop: l}
		byLoop[l] = t
		out = append(out, t)
	}
	skip := w.uncounted(iters)
	for _, d := range w.deps {
		if skip[d] {
			continue
		}
		t := byLoop[d.loop]
		t.calls++
		if d.maybeFree {
			t.free = append(t.free, d.step)
		} else {
			t.minCalls++
		}
		t.in += d.in
		t.out += d.out
		if usd, ok := w.models.Price(d.model, d.in, d.out); ok {
			t.usd += usd
			t.priced++
		}
	}
	for _, t := range out {
		t.times, t.factors, t.known, t.upTo = iters.times(t.loop)
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

// Iterations is --iterations: N for every loop, or VAR=N for the
// loops over VAR.
type Iterations struct {
	all      int
	allGiven bool
	byVar    map[string]int
}

func (f *Iterations) String() string {
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

func (f *Iterations) Set(s string) error {
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

// check rejects VAR=N for a variable no for loop uses, and while=N,
// until=N or repeat=N when no such loop (a repeat: with a computed count)
// is there.
func (f Iterations) check(loops []*costLoop) error {
	vars := map[string]bool{}
	var names []string
	for _, l := range loops {
		name := l.name
		if kw := l.keyword(); kw != "" {
			if l.literal() {
				continue
			}
			name = kw
		}
		if !vars[name] {
			names = append(names, name)
		}
		vars[name] = true
	}
	keys := make([]string, 0, len(f.byVar))
	for v := range f.byVar {
		keys = append(keys, v)
	}
	sort.Strings(keys)
	for _, v := range keys {
		if vars[v] {
			continue
		}
		what := "loop `for " + v + "`"
		if v == "while" || v == "until" || v == "repeat" {
			what = v + " loop whose count the file does not give"
		}
		if len(names) == 0 {
			return fmt.Errorf("--iterations %s=…: the task has no %s", v, what)
		}
		return fmt.Errorf("--iterations %s=…: no %s (loops: %s)", v, what, strings.Join(names, ", "))
	}
	return nil
}

// times is how often a term's dependencies are answered in a run: 1 at the
// top, the product of the iterations of its loop and the loops around it
// (the factors, outermost first). A repeat with a literal count and a while
// or until with its bound give their own; known is false when one of the
// others was not given, and upTo is true when a bound is among them.
func (f Iterations) times(l *costLoop) (n int, factors []int, known, upTo bool) {
	n = 1
	for ; l != nil; l = l.parent {
		k, ok := f.byVar[l.name]
		if kw := l.keyword(); kw != "" && !l.literal() {
			k, ok = f.byVar[kw]
		}
		switch {
		case ok:
			// given: it overrides a while's or until's bound
		case l.countKnown:
			k, ok = l.count, true
			upTo = upTo || l.upTo
		case l.name == "":
			ok = false
		}
		if !ok {
			if !f.allGiven {
				return 0, nil, false, false
			}
			k = f.all
		}
		n *= k
		factors = append([]int{k}, factors...)
	}
	return n, factors, true, upTo
}
