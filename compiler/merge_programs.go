package compiler

// Steps that read their value from the screen by different programs in
// different demonstrations (the merge stage, merge.go): one step, with the
// program that gives every demonstration's value on its own screen.

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/compiler/internal/synth"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// readMark stands, in a loose key, for a program that reads the screen.
const readMark = "‹read›"

// looseKey is a step's key with every program that reads the screen (an
// expression holding a `.text` or `.value` read that is not an element
// description) replaced by one mark: two demonstrations that typed or
// chose what the screen named, found by different programs, do the same
// step.
func looseKey(key string, e ast.Expr) (string, bool) {
	progs := readPrograms(e)
	if len(progs) == 0 {
		return key, false
	}
	k := key
	for _, p := range progs {
		k = strings.Replace(k, printer.ExprString(p), readMark, 1)
	}
	return k, true
}

// readPrograms are the outermost expressions in e that read the screen and
// are not element descriptions or actions: the programs of a step.
func readPrograms(e ast.Expr) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(e, func(x ast.Expr) bool {
		c, ok := x.(*ast.Call)
		if ok {
			name := c.CalleeName()
			if check.ElementRoles[name] || !isLibrary(name) {
				return true // a description or an action: look inside
			}
		}
		if _, ok := x.(*ast.Ref); ok {
			return false
		}
		if readsScreen(x) {
			out = append(out, x)
			return false
		}
		return true
	})
	return out
}

func isLibrary(name string) bool { _, ok := library[name]; return ok }

// readsScreen reports whether e reads an element's text or value.
func readsScreen(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(x ast.Expr) bool {
		if m, ok := x.(*ast.Member); ok && (m.Name.Name == "text" || m.Name.Name == "value") {
			if c, ok := m.X.(*ast.Call); ok && check.ElementRoles[c.CalleeName()] {
				found = true
			}
		}
		return !found
	})
	return found
}

// exampleOf is a step's example: argument, the value it demonstrated.
func exampleOf(s ast.Stmt) (string, bool) {
	st, ok := s.(*ast.Step)
	if !ok {
		return "", false
	}
	c, ok := st.Value.(*ast.Call)
	if !ok {
		return "", false
	}
	for _, a := range c.Args {
		if a.Name != nil && a.Name.Name == "example" {
			if l, ok := a.Value.(*ast.StringLit); ok {
				return l.Value, true
			}
		}
	}
	return "", false
}

// unifyPrograms chooses, for a column whose demonstrations read their
// values by different programs, a demonstration whose program gives each
// demonstration's value on that demonstration's screen; the column then
// writes that one. It reports false (the first demonstration's program is
// written, with a warning) when none does.
func (m *merger) unifyPrograms(c *column) {
	var present []*mergeItem
	exact := map[string]bool{}
	for _, it := range c.at {
		if it != nil {
			present = append(present, it)
			exact[it.exact] = true
		}
	}
	if len(exact) < 2 {
		return
	}
	for _, cand := range present {
		progs := readPrograms(cand.stmts[0].(*ast.Step).Value)
		if len(progs) != 1 {
			continue
		}
		ok := true
		for _, it := range present {
			want, has := exampleOf(it.stmts[0])
			got, err := evalOnSnapshot(progs[0], m.opSnap(it.demo, it.op))
			if !has || err != nil || got != want {
				ok = false
				break
			}
		}
		if ok {
			c.rep = cand
			return
		}
	}
	m.warn(present[0].demo, "the demonstrations read the value of %s by different programs and none gives every demonstration's value; the workflow uses the first: check it on each kind of instance", present[0].exact)
}

// evalOnSnapshot computes a program that reads the screen on a recorded
// snapshot: each element it reads must be the one element its
// description picks there.
func evalOnSnapshot(p ast.Expr, s *trace.Snapshot) (string, error) {
	if s == nil {
		return "", errNoSnapshot
	}
	sources := map[string]string{}
	var failed error
	expr := replaceReads(p, func(desc *ast.Call, member string) ast.Expr {
		d, ok := descOfCall(desc)
		if !ok {
			failed = errNoSnapshot
			return desc
		}
		k := onlyMatch(s, d)
		if k < 0 {
			failed = errNoSnapshot
			return desc
		}
		text, _ := snapshotText(&s.Elements[k])
		name := "read" + strconv.Itoa(len(sources))
		sources[name] = strings.Join(strings.Fields(text), " ")
		return ref(name)
	})
	if failed != nil {
		return "", failed
	}
	return (&synth.Program{Expr: expr}).Eval(sources)
}

type mergeError string

func (e mergeError) Error() string { return string(e) }

const errNoSnapshot = mergeError("the program's element is not one element of the snapshot")

// replaceReads copies e with each DESC.text / DESC.value replaced by
// what fn returns.
func replaceReads(e ast.Expr, fn func(*ast.Call, string) ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.Member:
		if c, ok := x.X.(*ast.Call); ok && check.ElementRoles[c.CalleeName()] {
			return fn(c, x.Name.Name)
		}
		cp := *x
		cp.X = replaceReads(x.X, fn)
		return &cp
	case *ast.Call:
		cp := *x
		cp.Args = make([]*ast.Arg, len(x.Args))
		for i, a := range x.Args {
			na := *a
			na.Value = replaceReads(a.Value, fn)
			cp.Args[i] = &na
		}
		return &cp
	case *ast.Index:
		cp := *x
		cp.X, cp.Index = replaceReads(x.X, fn), replaceReads(x.Index, fn)
		return &cp
	case *ast.Binary:
		cp := *x
		cp.X, cp.Y = replaceReads(x.X, fn), replaceReads(x.Y, fn)
		return &cp
	case *ast.Unary:
		cp := *x
		cp.X = replaceReads(x.X, fn)
		return &cp
	case *ast.Paren:
		cp := *x
		cp.X = replaceReads(x.X, fn)
		return &cp
	}
	return e
}

// descOfCall reads an element description written with string attributes
// and within: (what the compiler writes) back into a targetDesc.
func descOfCall(c *ast.Call) (*targetDesc, bool) {
	d := &targetDesc{Ctor: c.CalleeName()}
	for _, a := range c.Args {
		if a.Name == nil {
			return nil, false
		}
		if a.Name.Name == "within" {
			w, ok := a.Value.(*ast.Call)
			if !ok {
				return nil, false
			}
			if d.Within, ok = descOfCall(w); !ok {
				return nil, false
			}
			continue
		}
		l, ok := a.Value.(*ast.StringLit)
		if !ok {
			return nil, false
		}
		d.Attrs = append(d.Attrs, describedAttr{a.Name.Name, l.Value})
	}
	return d, true
}

// onlyMatch is the index of the one element of s that d describes, or -1.
// Within: is the one element its description picks, found once.
func onlyMatch(s *trace.Snapshot, d *targetDesc) int {
	root := -1
	if d.Within != nil {
		if root = onlyMatch(s, d.Within); root < 0 {
			return -1
		}
	}
	found := -1
	for k := range s.Elements {
		if !matches(&s.Elements[k], d.Ctor, d.Attrs) || root >= 0 && !under(s, k, root) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = k
	}
	return found
}
