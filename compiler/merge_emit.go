package compiler

// The merged workflow's statements: straight lines, ifs and loops, with
// the demonstrations' names made one file's (the merge stage, merge.go).

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/printer"
)

// merge aligns the demonstrations and writes the one task that does what
// each of them did.
func (m *merger) merge(opts Options) *ast.File {
	m.rename = make([]map[string]string, len(m.demos))
	for i := range m.rename {
		m.rename[i] = map[string]string{}
	}
	m.anchorBy = map[string]string{}
	for _, w := range reserved {
		m.taken[w] = true
	}
	m.joinRepeats()
	cols := align(m.demos)
	var steps []ast.Stmt
	for i := 0; i < len(cols); {
		if cols[i].all() {
			steps = append(steps, m.columnStmts(cols[i])...)
			i++
			continue
		}
		j := i
		for j < len(cols) && !cols[j].all() {
			j++
		}
		steps = append(steps, m.gap(cols, i, j)...)
		i = j
	}
	first := m.demos[0].task
	body := []ast.Stmt{&ast.DriverDecl{Name: ast.Ident{Name: driverOf(m.demos[0].c.tr)}}}
	for _, in := range m.inputs {
		body = append(body, in)
	}
	for k, a := range m.anchors {
		a.BlankLine = k == 0
		body = append(body, a)
	}
	if len(steps) > 0 {
		steps[0].Meta().BlankLine = true
		body = append(body, steps...)
	}
	names := make([]string, len(m.demos))
	for i, d := range m.demos {
		names[i] = d.name
	}
	task := &ast.Task{Name: first.Name, Goal: first.Goal, Body: &ast.Block{Stmts: body}}
	task.Comments.Leading = []ast.Comment{{Text: mergedHeader(names)}}
	return &ast.File{Name: opts.Filename, Decls: []ast.Decl{task}}
}

// columnStmts writes a column's step: as demonstrated when every
// demonstration did it as many times, else a loop.
func (m *merger) columnStmts(c *column) []ast.Stmt {
	if r := repeatOf(c); r != nil {
		return []ast.Stmt{m.adopt(r.demo, r.stmts[0], c, 0)}
	}
	m.unifyPrograms(c)
	rep := c.first()
	same := true
	for _, it := range c.at {
		if it != nil && len(it.stmts) != len(rep.stmts) {
			same = false
		}
	}
	if !same {
		return []ast.Stmt{m.loopStmt(c)}
	}
	var out []ast.Stmt
	for k, s := range rep.stmts {
		out = append(out, m.adopt(rep.demo, s, c, k))
	}
	return out
}

// adopt makes statement s of demonstration d one of the merged file's:
// the steps it declares get the merged names (the other demonstrations'
// steps of the column the same ones), and the names it uses are the
// merged file's (anchors and inputs declared on first use).
func (m *merger) adopt(d *mergeDemo, s ast.Stmt, c *column, k int) ast.Stmt {
	mine := declaredSteps(s)
	for n, st := range mine {
		name := m.stepName(st.Name.Name)
		m.rename[d.n][st.Name.Name] = name
		if c != nil {
			for _, it := range c.at {
				if it == nil || it.demo == d || k >= len(it.stmts) {
					continue
				}
				if theirs := declaredSteps(it.stmts[k]); n < len(theirs) {
					m.rename[it.demo.n][theirs[n].Name.Name] = name
				}
			}
		}
	}
	walkStmtExprs(s, func(e ast.Expr) { m.renameRefs(d, e) })
	for _, st := range mine {
		st.Name.Name = m.rename[d.n][st.Name.Name]
	}
	return s
}

// stepName is the merged name of a step: op1 … in the merged file's
// order, or a name of the compiler's own (shows_value) kept unique.
func (m *merger) stepName(old string) string {
	if isStepName(old) {
		m.steps++
		name := "op" + strconv.Itoa(m.steps)
		m.taken[name] = true
		return name
	}
	return m.uniqueName(old)
}

func (m *merger) uniqueName(base string) string {
	name := base
	for n := 2; m.taken[name]; n++ {
		name = base + "_" + strconv.Itoa(n)
	}
	m.taken[name] = true
	return name
}

// renameRefs renames, in e, demonstration d's names to the merged file's.
func (m *merger) renameRefs(d *mergeDemo, e ast.Expr) {
	ast.Inspect(e, func(x ast.Expr) bool {
		if call, ok := x.(*ast.Call); ok {
			// A callee is an action or function, never a declared name.
			for _, a := range call.Args {
				m.renameRefs(d, a.Value)
			}
			if _, ok := call.Fun.(*ast.Ref); !ok {
				m.renameRefs(d, call.Fun)
			}
			return false
		}
		r, ok := x.(*ast.Ref)
		if !ok {
			return true
		}
		if n, ok := m.rename[d.n][r.Name]; ok {
			r.Name = n
		} else if a, ok := d.anchors[r.Name]; ok {
			r.Name = m.adoptAnchor(d, a)
		} else if in, ok := d.inputs[r.Name]; ok {
			r.Name = m.adoptInput(d, in)
		}
		return true
	})
}

// adoptAnchor declares d's anchor in the merged file (once per
// description) and returns its merged name.
func (m *merger) adoptAnchor(d *mergeDemo, a *ast.AnchorDecl) string {
	key := printer.ExprString(a.Value)
	if n, ok := m.anchorBy[key]; ok {
		m.rename[d.n][a.Name.Name] = n
		return n
	}
	name := m.uniqueName(a.Name.Name)
	m.anchorBy[key] = name
	m.rename[d.n][a.Name.Name] = name
	m.anchors = append(m.anchors, &ast.AnchorDecl{Name: ast.Ident{Name: name}, Value: a.Value})
	return name
}

// adoptInput declares d's input in the merged file: inputs of one name
// and type are one input (its default the first demonstration's).
func (m *merger) adoptInput(d *mergeDemo, in *ast.InputDecl) string {
	for _, have := range m.inputs {
		if have.Name.Name == in.Name.Name && printer.ExprString(typeRef(have)) == printer.ExprString(typeRef(in)) {
			m.rename[d.n][in.Name.Name] = have.Name.Name
			return have.Name.Name
		}
	}
	name := m.uniqueName(in.Name.Name)
	m.rename[d.n][in.Name.Name] = name
	m.inputs = append(m.inputs, &ast.InputDecl{Name: ast.Ident{Name: name}, Type: in.Type, Default: in.Default})
	return name
}

// typeRef stands for an input's type in a comparison.
func typeRef(in *ast.InputDecl) ast.Expr {
	if in.Type == nil {
		return ref("")
	}
	return ref(in.Type.Name)
}

// declaredSteps are the steps s declares, in order, its bodies' too.
func declaredSteps(s ast.Stmt) []*ast.Step {
	if st, ok := s.(*ast.Step); ok {
		return []*ast.Step{st}
	}
	var out []*ast.Step
	for _, b := range ast.Bodies(s) {
		for _, x := range b.Stmts {
			out = append(out, declaredSteps(x)...)
		}
	}
	return out
}

// walkStmtExprs calls fn for every expression s holds, its bodies' too.
func walkStmtExprs(s ast.Stmt, fn func(ast.Expr)) {
	switch s := s.(type) {
	case *ast.Step:
		fn(s.Value)
	case *ast.AnchorDecl:
		fn(s.Value)
	case *ast.ForStmt:
		fn(s.Iter)
	case *ast.IfStmt:
		for x := s; x != nil; x = x.ElseIf {
			fn(x.Cond)
		}
	case *ast.RepeatStmt:
		fn(s.Count)
	case *ast.WhileStmt:
		fn(s.Cond)
		for _, a := range s.Options {
			fn(a.Value)
		}
	}
	for _, b := range ast.Bodies(s) {
		for _, x := range b.Stmts {
			walkStmtExprs(x, fn)
		}
	}
}

// gap writes the columns [i, j), which not every demonstration did: runs
// done by disjoint sets of demonstrations are the branches of one if
// (the task's kinds), any other run an if of its own (an optional step).
func (m *merger) gap(cols []*column, i, j int) []ast.Stmt {
	runs := runsOf(cols[i:j])
	if disjoint(runs) {
		var head, tail *ast.IfStmt
		covered := 0
		for _, r := range runs {
			cond := m.condition(r, cols, i, j)
			var body []ast.Stmt
			for _, c := range r.cols {
				body = append(body, m.columnStmts(c)...)
			}
			n := &ast.IfStmt{Cond: cond, Then: &ast.Block{Stmts: body}}
			if head == nil {
				head = n
			} else {
				tail.ElseIf = n
			}
			tail = n
			covered += strings.Count(r.set, ",")
		}
		if covered == len(m.demos) {
			// Every demonstration took one branch: an instance that fits
			// none is a kind never demonstrated, and the run says so.
			tail.Else = &ast.Block{Stmts: []ast.Stmt{&ast.Step{Name: ast.Ident{Name: m.stepName("op0")}, Value: &ast.Call{Fun: ref(string(action.Assert)), Args: []*ast.Arg{
				{Value: &ast.BoolLit{Value: false}},
				named("message", str("this instance is none of the "+strconv.Itoa(len(runs))+" kinds the demonstrations showed; record a demonstration of it and compile them together")),
			}}}}}
		}
		head.Comments.Leading = []ast.Comment{{Text: "# The demonstrations did different things here; the screen tells which."}}
		return []ast.Stmt{head}
	}
	var out []ast.Stmt
	for _, r := range runs {
		if m.focusesNext(r, cols, j) {
			// The run's first step clicks the field the next common step
			// types into (the click that made the dialog show): every
			// instance may do it, and the condition is judged after it.
			out = append(out, m.columnStmts(r.cols[0])...)
			r = &gapRun{set: r.set, cols: r.cols[1:]}
		}
		var body []ast.Stmt
		for _, c := range r.cols {
			body = append(body, m.columnStmts(c)...)
		}
		n := &ast.IfStmt{Cond: m.condition(r, cols, i, j), Then: &ast.Block{Stmts: body}}
		n.Comments.Leading = []ast.Comment{{Text: "# Only " + demoList(r.cols[0]) + " did this."}}
		out = append(out, n)
	}
	return out
}

// demoList names the demonstrations that did a column's step.
func demoList(c *column) string {
	var ns []string
	for i, it := range c.at {
		if it != nil {
			ns = append(ns, strconv.Itoa(i+1))
		}
	}
	if len(ns) == 1 {
		return "demonstration " + ns[0]
	}
	return "demonstrations " + strings.Join(ns, ", ")
}

// warn adds a merge warning, at the root of the first trace of the run.
func (m *merger) warn(d *mergeDemo, format string, args ...any) {
	w := diag.AtPath(d.name, "$", format, args...)
	w.Severity = diag.Warning
	m.warnings = append(m.warnings, w)
}

// focusesNext reports whether run r's first step is a click on the field
// the step after the gap (ending at j) types into, and more follows it.
func (m *merger) focusesNext(r *gapRun, cols []*column, j int) bool {
	if len(r.cols) < 2 || j >= len(cols) {
		return false
	}
	first, next := r.cols[0].first(), cols[j].first()
	a, b := m.itemDesc(first), m.itemDesc(next)
	if a == nil || b == nil || a.String() != b.String() || len(first.stmts) != 1 {
		return false
	}
	fa, fb := first.demo.c.infos[first.op].Action, next.demo.c.infos[next.op].Action
	return fa == action.Click && (fb == action.Type || fb == action.Paste)
}
