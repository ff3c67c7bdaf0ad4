package compiler

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/compiler/internal/synth"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/funcs"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// Options tune a compilation. The zero value is ready to use.
type Options struct {
	// Filename is the workflow's file name, for positions in diagnostics.
	Filename string
	// Trace is the trace's file: its base name is cited in the header
	// comment, and diagnostics (warnings, errors) name it as given.
	Trace string
	// Traces name the trace files of CompileAll, in order (Trace is each
	// one's in turn).
	Traces []string
	// NoCheck skips parsing and checking the printed result (benchmarks).
	NoCheck bool
	// LLM, when set, runs the semantic stages (5 and 6): dependencies for
	// the choices that need judgement, the goal sentence and the inputs'
	// names. When nil the compiler uses its rules only.
	LLM llm.Client
	// Model is the model named in the LLM request.
	Model string
	// KB is the knowledge base the LLM stages and the check use; nil means
	// kb.Default().
	KB *kb.KB
	// Literal compiles a literal replay: every typed value an input with
	// the demonstrated value as its default and every choice the element
	// demonstrated, nothing read from the screen. It is the baseline a
	// generalizing compilation is measured against (`make eval`).
	Literal bool
	// NoAPIFirst keeps the demonstrated UI steps where the api-first stage
	// would call the application's interface directly (--no-api-first).
	NoAPIFirst bool

	// stub stands in for the screen search in this package's tests.
	stub *screenStub
	// afterStage, when set, is told of each stage run, with the compiler
	// and the file so far (nil before emit): the stage goldens' window.
	afterStage func(name string, c *compiler, file *ast.File)
}

// Result is a compiled workflow.
type Result struct {
	File   *ast.File
	Source []byte
	// Warnings are what a person should look at: each is located at the
	// trace event that caused it (file Options.Trace, path $.events[N]),
	// or at the trace's root ($) when no event did.
	Warnings diag.List
	// Evidence says, for each value or choice the compiler read from the
	// screen or left to a dependency, why (`cogflow compile --explain`).
	Evidence []Evidence
}

// todoElement is the description of a placeholder choice a person or the
// LLM stage must fill in.
const todoElement = "TODO: describe which element"

// Compile compiles a trace into a workflow by the stages of doc.go (a model
// is asked only in the semantic stage, with Options.LLM): operations by
// rules, elements described by their unique attributes, structure
// dependencies (same, next, row.cell), synthesized expressions for
// computable texts, inputs for the rest (a secret input, with no default,
// for a password field), an iterative task when the demonstration did two
// or more rows or list items alike (loop_evidence.go), and a TODO
// placeholder (with a warning) for
// every choice that needs judgement. The printed source is parsed and
// checked; a checker error is returned with the result as a
// diag.ListError, each diagnostic at the trace event its step came from.
func Compile(tr *trace.Trace, opts Options) (*Result, error) {
	res, _, err := compileOne(tr, opts)
	return res, err
}

// compileOne is Compile, also returning the compiler and what its stages
// left (the ops, their snapshots and descriptions), which a merge of
// several demonstrations reads (merge.go).
func compileOne(tr *trace.Trace, opts Options) (*Result, *compiler, error) {
	if tr == nil {
		return nil, nil, fmt.Errorf("compile: no trace")
	}
	c := &compiler{tr: tr, traceName: opts.Trace, folded: map[int]bool{}, anchorRefs: map[string][]*ast.Ref{}, anchorDesc: map[string]*targetDesc{}, taken: map[string]bool{}}
	for _, w := range reserved {
		c.taken[w] = true
	}
	for name := range library {
		c.taken[name] = true
	}
	c.llm = opts.LLM != nil
	c.literal = opts.Literal
	c.stub = opts.stub
	file := c.runStages(opts) // extract … semantic (stages.go)
	res := &Result{File: file, Warnings: c.warnings, Evidence: c.evidence}
	res.Source = printer.Format(file) // the stages "print" and "check" (doc.go)
	if opts.NoCheck {
		return res, c, nil
	}
	f, ds, checked := parseCheck(opts, res.Source)
	if ds.HasErrors() {
		return res, c, diag.ListError(c.traceDiags(f, res.Source, ds, "does not parse").Errors())
	}
	located := c.traceDiags(f, res.Source, checked, "does not check")
	res.Warnings = append(res.Warnings, located.Warnings()...)
	if located.HasErrors() {
		return res, c, diag.ListError(located.Errors())
	}
	return res, c, nil
}

// parseCheck parses a printed workflow and, when it parses, checks it
// against opts.KB (kb.Default() when nil): the parse's diagnostics, then
// the check's.
func parseCheck(opts Options, src []byte) (*ast.File, diag.List, diag.List) {
	f, parsed := syntax.Parse(opts.Filename, src)
	if parsed.HasErrors() {
		return f, parsed, nil
	}
	knowledge := opts.KB
	if knowledge == nil {
		knowledge = kb.Default()
	}
	_, checked := check.Check(f, kb.CheckEnv(knowledge))
	return f, parsed, checked
}

// library is the function library, whose names inputs and anchors avoid.
var library = funcs.Library(nil)

// reserved are names a compiled input or anchor must not take: the
// language's keywords and types, every action, and words the compiler
// itself writes.
var reserved = append(strings.Fields(`task skill driver input anchor confirm for in true false row
text number bool element url window key secret list
rows items next previous same column texts`), actionNames()...)

// actionNames lists the actions' names as strings.
func actionNames() []string {
	var out []string
	for _, a := range action.All() {
		out = append(out, string(a))
	}
	return out
}

// info is an op with its enrichment.
type info struct {
	operation
	full, dest *trace.Target // resolved targets
	desc, dsc  *targetDesc
	name       string
}

type compiler struct {
	tr        *trace.Trace
	traceName string // the trace's file name, for diagnostics
	ops       []operation
	infos     []*info
	warnings  diag.List

	loopLo, loopHi int    // ops [loopLo, loopHi] form the loop body; loopLo < 0 when none
	loopTable      string // the table's (or list's) path
	loopRow        int    // the demonstrated row (or item)
	loopDesc       *targetDesc
	loopItems      bool // the loop walks a list's items, not a table's rows
	loopReps       int  // how many items after the first the demonstration did alike
	loopFolded     []string
	folded         map[int]bool // ops that are later iterations of the loop
	todo           bool         // a TODO choice was emitted
	llm            bool         // the semantic stages run after the rules
	literal        bool         // Options.Literal: nothing is read from the screen
	evidence       []Evidence   // for --explain, in step order
	screenState                 // the indexed snapshots (screen_index.go)

	inputs     []*ast.InputDecl
	anchorRefs map[string][]*ast.Ref // desc key → refs to name
	anchorDesc map[string]*targetDesc
	anchorKeys []string
	taken      map[string]bool
	keyCount   map[string]int

	reveal map[int]ast.Stmt // op → what runs before it to show its target (choice_icon_read.go)

	choiceState // choices and loops by values read from the screen (choice.go)
}

func (c *compiler) enrich() {
	c.keyCount = map[string]int{}
	for i, op := range c.ops {
		in := &info{operation: op, name: "op" + strconv.Itoa(i+1)} // the name evidence cites before emit
		if op.Note != "" {
			c.warn(op.Events, "op%d: %s", i+1, op.Note)
		}
		if op.Target != nil {
			in.full, _, _ = findInSnapshot(c.tr, op.Target, op.Snapshot)
			in.desc = describeTarget(c.tr, op.Target, op.Snapshot)
			c.keyCount[in.desc.String()]++
		}
		if op.Dest != nil {
			in.dest, _, _ = findInSnapshot(c.tr, op.Dest, op.DestSnapshot)
			in.dsc = describeTarget(c.tr, op.Dest, op.DestSnapshot)
			c.keyCount[in.dsc.String()]++
		}
		c.infos = append(c.infos, in)
	}
}

func headersOf(t *trace.Target) *trace.Headers {
	if t == nil || t.Context == nil {
		return nil
	}
	return t.Context.Headers
}

func listOf(t *trace.Target) *trace.ListContext {
	if t == nil || t.Context == nil {
		return nil
	}
	return t.Context.List
}

// findLoop decides the task type: when operations act on cells of one
// table row and the demonstration then did the same on the next rows (see
// loop_evidence.go), the task iterates over the rows from the first one
// demonstrated. The loop body runs from the first to the last operation on
// that row.
func (c *compiler) findLoop() {
	c.loopLo, c.loopHi = -1, -1
	for i, in := range c.infos {
		h := headersOf(in.full)
		if h == nil || h.Table == "" {
			continue
		}
		if c.seenItem(i, rowKey) {
			continue
		}
		// The row's operations end where another row's begin.
		last := i
		for j := i + 1; j < len(c.infos); j++ {
			if g := headersOf(c.infos[j].full); g != nil && g.Table == h.Table {
				if g.RowIndex != h.RowIndex {
					last = j - 1 // what the person did between the rows belongs to the first
					break
				}
				last = j
			}
		}
		c.loopLo, c.loopHi, c.loopTable, c.loopRow = i, last, h.Table, h.RowIndex
		c.extendLoop(i)
		if !c.confirmLoop(rowKey) {
			continue
		}
		c.loopDesc = listDesc(c.tr, in.Target, in.Snapshot)
		if c.loopDesc == nil || c.loopDesc.Ctor != "table" {
			c.loopDesc = &targetDesc{Ctor: "table", Attrs: []describedAttr{{"path", h.Table}}}
		}
		return
	}
	c.findListLoop()
}

// extendLoop makes later operations part of the iteration when they use
// what the loop produced: a text value again (or a program over it), or —
// right after the loop — the element an operation of the loop acted on
// (the dialog's field the loop opened and typed into, then Enter).
func (c *compiler) extendLoop(from int) {
	var values []synth.Source
	fields := map[string]bool{}
	for j := from; j < len(c.infos); j++ {
		in := c.infos[j]
		if j > c.loopHi && c.onOtherItem(in.full) {
			break // the next item: a repetition, not a use of this one
		}
		if j > c.loopHi && c.reusesLoop(in, values, fields, j == c.loopHi+1) {
			c.loopHi = j
		}
		if j > c.loopHi {
			continue
		}
		if in.Text != "" && textual[in.Action] {
			values = append(values, synth.Source{Name: string(in.Action), Value: in.Text})
		}
		if k := fieldKey(in.full); k != "" {
			fields[k] = true
		}
	}
}

// reusesLoop reports whether op in uses a value or (when next to the
// loop) an element of the loop.
func (c *compiler) reusesLoop(in *info, values []synth.Source, fields map[string]bool, adjacent bool) bool {
	if adjacent && fields[fieldKey(in.full)] {
		return true
	}
	if in.Text == "" || !textual[in.Action] || len(values) == 0 {
		return false
	}
	for _, v := range values {
		if v.Value == in.Text {
			return true
		}
	}
	srcs := make([]synth.Source, len(values))
	for k, v := range values {
		srcs[k] = synth.Source{Name: fmt.Sprintf("v%d", k), Value: v.Value}
	}
	_, ok := synth.Synthesize(in.Text, srcs, synth.Options{})
	return ok
}

// textual are the actions whose Text is a value later steps may reuse.
var textual = map[action.Name]bool{action.Type: true, action.Paste: true, action.Copy: true, action.Cut: true, action.SelectText: true}

func (c *compiler) inLoop(i int) bool { return c.loopLo >= 0 && i >= c.loopLo && i <= c.loopHi }

// targetExpr chooses the expression for op i's target: the loop row's
// cell, the same row's other cell, same(opK), next(opK), a TODO choice
// within its list, an anchor, or the description inline.
func (c *compiler) targetExpr(i int, t *trace.Target, d *targetDesc, st *state, snap string) ast.Expr {
	if c.inLoopItem(i, t) {
		return c.itemChoice(i, t, snap)
	}
	if e, ok := c.tableCellChoice(i, t, st, snap); ok {
		return e
	}
	if e, ok := c.affixChoice(i, t, st, snap); ok {
		return e
	}
	if e, ok := c.choiceExpr(i, t, d, st, snap); ok {
		return e
	}
	if e, ok := c.dateChoice(i, t, snap); ok {
		return e
	}
	if e, ok := c.labelChoice(i, t, snap); ok {
		return e
	}
	if e, ok := c.ordinalChoice(i, t, snap); ok {
		return e
	}
	if e, ok := c.iconTiedChoice(i, t, st, snap); ok {
		return e
	}
	d = c.generalized(i, t, d, snap)
	if e, ok := c.listChoice(i, t, d, st, snap); ok {
		return e
	}
	return c.anchorOrInline(d)
}

// tableCellChoice is a target in a table cell: the loop row or its cell
// inside a row loop, or the cell of the row an earlier step chose, so the
// workflow follows the row rather than the demonstrated position.
func (c *compiler) tableCellChoice(i int, t *trace.Target, st *state, snap string) (ast.Expr, bool) {
	h := headersOf(t)
	if h == nil {
		return nil, false
	}
	if c.inLoop(i) && !c.loopItems && h.Table == c.loopTable && h.RowIndex == c.loopRow {
		if h.Column == "" {
			return ref("row"), true
		}
		return cellCall(ref("row"), h.Column), true
	}
	for k := len(st.elements) - 1; k >= 0; k-- {
		e := c.infos[st.elements[k]]
		if g := headersOf(e.full); g != nil && g.Table == h.Table && g.RowIndex == h.RowIndex && g.ColumnIndex != h.ColumnIndex && h.Column != "" {
			table := listDesc(c.tr, t, snap)
			if table == nil || table.Ctor != "table" {
				table = &targetDesc{Ctor: "table", Attrs: []describedAttr{{"path", h.Table}}}
			}
			row := &ast.Index{X: call("rows", table.Expr()), Index: num(h.RowIndex)}
			return cellCall(row, h.Column), true
		}
	}
	return nil, false
}

// listChoice is a target in a list its description does not identify:
// same(opK) or next(opK) after an earlier step in that list, or, for a
// click no rule explains, a TODO match_element within the list (with a
// warning), since which item to choose needs judgement.
func (c *compiler) listChoice(i int, t *trace.Target, d *targetDesc, st *state, snap string) (ast.Expr, bool) {
	in := c.infos[i]
	l := listOf(t)
	if l == nil || identified(t, d) || isField(t) {
		return nil, false
	}
	for k := len(st.elements) - 1; k >= 0; k-- {
		e := c.infos[st.elements[k]]
		m := listOf(e.full)
		if m == nil || m.Container != l.Container {
			continue
		}
		if m.Index == l.Index && e.desc.String() == d.String() {
			return call("same", ref(e.name)), true
		}
		if m.Index+1 == l.Index && isItem(c.tr, t, snap) {
			return call("next", ref(e.name)), true
		}
	}
	if headersOf(t) == nil && (in.Action == action.Click || in.Action == action.DoubleClick || in.Action == action.RightClick) && t == in.full && !(d.Unique && c.itemChosen(i, l)) && !c.demonstratedChoice(in, d, st) {
		c.todo = true
		dep := &ast.Dependency{Sub: ast.Ident{Name: "match_element"}, Description: &ast.StringLit{Value: todoElement}}
		if n := len(st.sources); n > 0 {
			dep.Inputs = append(dep.Inputs, &ast.Arg{Value: ref(st.sources[n-1].name)})
		}
		if within := listDesc(c.tr, t, snap); within != nil {
			dep.Inputs = append(dep.Inputs, named("within", within.Expr()))
		}
		c.warn(in.Events, "%s: %s on a list item (%s): which item to choose needs judgement; fill in the match_element description", in.name, in.Action, strings.Join(in.Events, ", "))
		return dep, true
	}
	return nil, false
}

// anchorOrInline is the description inline, or a reference to an anchor
// when several steps share it (emit names the anchor once inputs have
// their names, so the reference is filled in then).
func (c *compiler) anchorOrInline(d *targetDesc) ast.Expr {
	key := d.String()
	if c.keyCount[key] > 1 {
		r := ref("")
		if _, ok := c.anchorDesc[key]; !ok {
			c.anchorDesc[key] = d
			c.anchorKeys = append(c.anchorKeys, key)
		}
		c.anchorRefs[key] = append(c.anchorRefs[key], r)
		return r
	}
	return d.Expr()
}

// textExpr chooses the expression for a typed or pasted text of op i: an
// earlier step with that value, a program reading it from the screen
// before the step (screen.go), a synthesized program over earlier values,
// or a new input named after the field with the value as its default.
// screen reports a program over the screen: the step then carries
// `example:` with the demonstrated value.
func (c *compiler) textExpr(i int, text string, t *trace.Target, st *state) (e ast.Expr, screen bool) {
	if isSecret(t) {
		// A password field's value stays a secret input, never read from
		// the screen: what a program reads is journaled as it is typed.
		c.secretEvidence(i)
		return c.secretExpr(text, t, st), false
	}
	for k := len(st.sources) - 1; k >= 0 && !c.literal; k-- {
		if st.sources[k].value == text {
			return ref(st.sources[k].name), false
		}
	}
	if e, ok := c.screenValue(i, text); ok {
		return e, true
	}
	if len(st.sources) > 0 && !c.literal {
		srcs := make([]synth.Source, 0, len(st.sources))
		for k := len(st.sources) - 1; k >= 0; k-- { // most recent first
			if f := st.sources[k].field; f != "" && f == fieldKey(t) {
				continue // what the field held before is replaced, not a source
			}
			srcs = append(srcs, synth.Source{Name: st.sources[k].name, Value: st.sources[k].value})
		}
		if p, ok := synth.Synthesize(text, srcs, synth.Options{}); ok {
			return p.Expr, false
		}
		c.noEvidence(i, text, st)
	}
	name := c.unique(identName(labelOf(t)), "_value")
	if labelOf(t) == "" {
		name = c.unique("text_input", "_value")
	}
	c.inputs = append(c.inputs, &ast.InputDecl{Name: ast.Ident{Name: name}, Type: &ast.TypeExpr{Name: "text"}, Default: str(text)})
	st.sources = append(st.sources, source{name, text, fieldKey(t)})
	return ref(name), false
}

func (c *compiler) unique(base, suffix string) string {
	name := base
	if c.taken[name] || isStepName(name) {
		name = base + suffix
	}
	for n := 2; c.taken[name] || isStepName(name); n++ {
		name = base + suffix + strconv.Itoa(n)
	}
	c.taken[name] = true
	return name
}

func isStepName(s string) bool {
	if !strings.HasPrefix(s, "op") || len(s) == 2 {
		return false
	}
	_, err := strconv.Atoi(s[2:])
	return err == nil
}
