package compiler

// The merge stage: several demonstrations of one task, each compiled by
// the stages before it, become one workflow (doc.go's table, row "merge").

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// CompileAll compiles several demonstrations of one task into one
// workflow. Each trace is compiled on its own (Compile); then their steps
// are aligned. Where every demonstration did the same step, the workflow
// does it. A run of steps only some demonstrations did becomes an `if`:
// on `visible(…)` of its first element when that element was on the
// screen in those demonstrations only (a dialog that shows sometimes), or
// on a word of the instruction that those demonstrations' instructions
// hold and the others' do not (a task whose kind changes between
// instances). A step one demonstration did once and another several times
// becomes a loop: `repeat` a count read from the screen, or `while
// visible(…)` when the element was gone after the last time.
// opts.Traces names the traces' files, in order, for the header comment
// and diagnostics; traces of different tasks (another driver, page or
// app) are an error at the second trace's $.start. One trace is Compile
// with opts.Trace set to its name.
func CompileAll(trs []*trace.Trace, opts Options) (*Result, error) {
	if len(trs) == 0 {
		return nil, fmt.Errorf("compile: no trace")
	}
	names := make([]string, len(trs))
	for i := range trs {
		names[i] = fmt.Sprintf("demonstration %d", i+1)
		if i < len(opts.Traces) && opts.Traces[i] != "" {
			names[i] = opts.Traces[i]
		}
	}
	if len(trs) == 1 {
		o := opts
		if o.Trace == "" && len(opts.Traces) > 0 {
			o.Trace = opts.Traces[0]
		}
		return Compile(trs[0], o)
	}
	for i, tr := range trs {
		if tr == nil {
			return nil, fmt.Errorf("compile: %s: no trace", names[i])
		}
	}
	if err := sameTask(trs, names); err != nil {
		return nil, err
	}
	m := &merger{taken: map[string]bool{}}
	for i, tr := range trs {
		o := opts
		o.Trace = names[i]
		// The demonstrations are aligned step by step: an api-first
		// rewrite in one but not another would misalign them.
		o.NoAPIFirst = true
		res, c, err := compileOne(tr, o)
		if err != nil {
			return res, err
		}
		d, err := newMergeDemo(i, names[i], res, c)
		if err != nil {
			return res, err
		}
		m.demos = append(m.demos, d)
		m.warnings = append(m.warnings, res.Warnings...)
		m.evidence = append(m.evidence, res.Evidence...)
	}
	file := m.merge(opts)
	res := &Result{File: file, Warnings: m.warnings, Evidence: m.evidence}
	if opts.afterStage != nil {
		opts.afterStage("merge", nil, file)
	}
	res.Source = printer.Format(file)
	if opts.NoCheck {
		return res, nil
	}
	_, parsed, ds := parseCheck(opts, res.Source)
	if parsed.HasErrors() {
		return res, diag.ListError(parsed.Errors())
	}
	res.Warnings = append(res.Warnings, ds.Warnings()...)
	if ds.HasErrors() {
		return res, diag.ListError(ds.Errors())
	}
	return res, nil
}

// sameTask reports traces that cannot be demonstrations of one task: a
// driver, a page (its address without the query) or an app other than
// the first trace's.
func sameTask(trs []*trace.Trace, names []string) error {
	first := trs[0]
	for i, tr := range trs[1:] {
		i++
		if driverOf(tr) != driverOf(first) {
			return diag.ListError(diag.List{diag.AtPath(names[i], "$.driver",
				"this demonstration was recorded with driver %q, %s with %q: merge only demonstrations of one task",
				driverOf(tr), names[0], driverOf(first))})
		}
		if a, b := taskPlace(tr), taskPlace(first); a != b {
			path := "$.start.url"
			if tr.Start.URL == "" {
				path = "$.start.app"
			}
			return diag.ListError(diag.List{diag.AtPath(names[i], path,
				"this demonstration starts at %s and %s at %s: merge only demonstrations of one task (the same page or app)",
				orNone(a), names[0], orNone(b))})
		}
	}
	return nil
}

func driverOf(tr *trace.Trace) string {
	if tr.Driver == "" {
		return trace.DriverBrowser
	}
	return tr.Driver
}

// taskPlace is where a demonstration starts: the page's address without
// its query and fragment (an instance's seed or session differs between
// demonstrations of one task), or the app.
func taskPlace(tr *trace.Trace) string {
	if tr.Start.URL == "" {
		return tr.Start.App
	}
	return withoutQuery(tr.Start.URL)
}

func withoutQuery(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

func orNone(s string) string {
	if s == "" {
		return "(nowhere recorded)"
	}
	return s
}

// merger holds the demonstrations being merged and the merged file's
// names.
type merger struct {
	demos    []*mergeDemo
	warnings diag.List
	evidence []Evidence
	taken    map[string]bool // names the merged file declares
	steps    int             // steps named so far (op1 …)
	// rename maps, per demonstration, a name it declared (step, anchor,
	// input) to the merged file's.
	rename   []map[string]string
	inputs   []*ast.InputDecl
	anchors  []*ast.AnchorDecl
	anchorBy map[string]string // an anchor's description → its merged name
}

// mergeDemo is one demonstration, compiled.
type mergeDemo struct {
	n       int
	name    string // its trace file, for diagnostics
	c       *compiler
	task    *ast.Task
	inputs  map[string]*ast.InputDecl
	anchors map[string]*ast.AnchorDecl
	items   []*mergeItem
	keys    map[string]string // step name → its key, for the keys of steps that use it
}

// mergeItem is a statement of a demonstration's task, or a run of
// identical ones (a click done three times): what alignment compares.
type mergeItem struct {
	demo  *mergeDemo
	stmts []ast.Stmt // one, or the run of identical statements
	key   string     // what alignment compares: the loose key when the step reads the screen
	exact string     // the step's own key
	op    int        // the op index of the (first) statement in demo.c.infos; -1 when none
	idx   int        // its place in demo.items
}

// newMergeDemo reads a compiled demonstration's task into items.
func newMergeDemo(n int, name string, res *Result, c *compiler) (*mergeDemo, error) {
	var task *ast.Task
	for _, d := range res.File.Decls {
		if t, ok := d.(*ast.Task); ok {
			task = t
			break
		}
	}
	if task == nil {
		return nil, fmt.Errorf("%s: the compiled demonstration has no task", name)
	}
	d := &mergeDemo{n: n, name: name, c: c, task: task, inputs: map[string]*ast.InputDecl{}, anchors: map[string]*ast.AnchorDecl{}, keys: map[string]string{}}
	for _, s := range task.Body.Stmts {
		switch s := s.(type) {
		case *ast.DriverDecl:
		case *ast.InputDecl:
			d.inputs[s.Name.Name] = s
		case *ast.AnchorDecl:
			d.anchors[s.Name.Name] = s
		default:
			it := &mergeItem{demo: d, stmts: []ast.Stmt{s}, exact: d.stmtKey(s), op: d.c.stepOp(s)}
			it.key = it.exact
			if st, ok := s.(*ast.Step); ok && it.op >= 0 {
				if k, ok := looseKey(it.exact, stepCall(st.Value)); ok {
					it.key = k
				}
			}
			if k := len(d.items) - 1; k >= 0 && d.items[k].exact == it.exact && it.op >= 0 {
				d.items[k].stmts = append(d.items[k].stmts, s) // one more time alike
				continue
			}
			it.idx = len(d.items)
			d.items = append(d.items, it)
		}
	}
	return d, nil
}

// stmtKey is what a statement does, written so that the same step of two
// demonstrations has the same key: the names of steps, anchors and inputs
// are replaced by what they stand for, a step's example: (the
// demonstrated value) is left out, and an opened page's query (an
// instance's seed) too.
func (d *mergeDemo) stmtKey(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.Step:
		k := d.exprKey(stepCall(s.Value))
		if s.Confirm {
			k = "confirm " + k
		}
		d.keys[s.Name.Name] = k
		return k
	case *ast.RepeatStmt:
		var b strings.Builder
		fmt.Fprintf(&b, "repeat %s {", d.exprKey(s.Count))
		for _, x := range s.Body.Stmts {
			b.WriteString(d.stmtKey(x) + "; ")
		}
		b.WriteString("}")
		return b.String()
	case *ast.ForStmt:
		var b strings.Builder
		fmt.Fprintf(&b, "for %s in %s {", s.Var.Name, d.exprKey(s.Iter))
		for _, x := range s.Body.Stmts {
			b.WriteString(d.stmtKey(x) + "; ")
		}
		b.WriteString("}")
		return b.String()
	}
	return fmt.Sprintf("%T %p", s, s) // never the same as another's
}

// stepCall is a step's value without its example: argument.
func stepCall(e ast.Expr) ast.Expr {
	c, ok := e.(*ast.Call)
	if !ok {
		return e
	}
	cp := *c
	cp.Args = nil
	for _, a := range c.Args {
		if a.Name != nil && a.Name.Name == "example" {
			continue
		}
		cp.Args = append(cp.Args, a)
	}
	if r, ok := c.Fun.(*ast.Ref); ok && r.Name == "open" && len(cp.Args) == 1 {
		if u, ok := cp.Args[0].Value.(*ast.StringLit); ok {
			cp.Args = []*ast.Arg{{Value: str(withoutQuery(u.Value))}}
		}
	}
	return &cp
}

// exprKey prints e with the demonstration's names replaced by what they
// stand for: a step by its key, an anchor by its description.
func (d *mergeDemo) exprKey(e ast.Expr) string {
	type saved struct {
		r    *ast.Ref
		name string
	}
	var undo []saved
	ast.Inspect(e, func(x ast.Expr) bool {
		r, ok := x.(*ast.Ref)
		if !ok {
			return true
		}
		if k, ok := d.keys[r.Name]; ok {
			undo = append(undo, saved{r, r.Name})
			r.Name = "{" + k + "}"
		} else if a, ok := d.anchors[r.Name]; ok {
			undo = append(undo, saved{r, r.Name})
			r.Name = printer.ExprString(a.Value) // an anchor is its description, named or not
		}
		return true
	})
	k := printer.ExprString(e)
	for _, u := range undo {
		u.r.Name = u.name
	}
	return k
}

// header is the merged workflow's leading comment.
func mergedHeader(names []string) string {
	bases := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		bases[i] = filepath.Base(n)
		if seen[bases[i]] {
			copy(bases, names) // the base names are alike: the names as given
			break
		}
		seen[bases[i]] = true
	}
	return fmt.Sprintf("# Compiled from %s (%d demonstrations merged) by cogflow compile (rules only, no LLM). Edit freely; `cogflow fmt` keeps the layout.",
		strings.Join(bases, ", "), len(names))
}
