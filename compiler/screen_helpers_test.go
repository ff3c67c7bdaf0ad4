package compiler

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// A screen spec writes a page one element a line, nested by two spaces:
//
//	text #query | Enter "Kasey" into the text field.
//	table
//	  row
//	    cell | Color
//	    cell | black
//	textbox #tt @Name
//
// role, then #id, .class, @label (spaces as _), value=…, and after " | "
// the element's own text. An element's text is its own text and its
// children's, as a browser's innerText; elements are 20 px apart
// vertically, in line order, so that the earlier lines are above; rows and
// cells of a table get their cell positions.
func screenSpec(spec string) (trace.Snapshot, error) {
	s := trace.Snapshot{URL: "http://127.0.0.1/page", Title: "Page"}
	var stack []int // element index by depth
	own := map[int]string{}
	for n, line := range strings.Split(strings.TrimRight(spec, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		depth := (len(line) - len(strings.TrimLeft(line, " "))) / 2
		if depth > len(stack) {
			return s, fmt.Errorf("line %d: nested too deep", n+1)
		}
		stack = stack[:depth]
		head, text, _ := strings.Cut(strings.TrimSpace(line), " | ")
		f := strings.Fields(head)
		e := trace.Element{Ref: fmt.Sprintf("r%d", len(s.Elements)), Parent: -1}
		e.Role = f[0]
		for _, a := range f[1:] {
			switch {
			case strings.HasPrefix(a, "#"):
				e.ID = a[1:]
			case strings.HasPrefix(a, "."):
				e.Class = a[1:]
			case strings.HasPrefix(a, "@"):
				e.Label = strings.ReplaceAll(a[1:], "_", " ")
				e.Name = e.Label
			case strings.HasPrefix(a, "value="):
				e.Value = strings.ReplaceAll(strings.TrimPrefix(a, "value="), "_", " ")
			}
		}
		if depth > 0 {
			e.Parent = stack[depth-1]
		}
		e.Editable = e.Role == "textbox"
		e.Visible, e.Enabled = true, true
		e.Bounds = trace.Rect{X: 0, Y: float64(20 * len(s.Elements)), W: 100, H: 10}
		idx := len(s.Elements)
		own[idx] = text
		s.Elements = append(s.Elements, e)
		stack = append(stack, idx)
	}
	paths := map[int]string{}
	counts := map[string]int{}
	for i := range s.Elements {
		e := &s.Elements[i]
		tag := e.Role
		parent := ""
		if e.Parent >= 0 {
			parent = paths[e.Parent] + "/"
		}
		counts[parent+tag]++
		paths[i] = parent + tag + "[" + strconv.Itoa(counts[parent+tag]) + "]"
		e.Path = paths[i]
	}
	for i := len(s.Elements) - 1; i >= 0; i-- {
		var parts []string
		if own[i] != "" {
			parts = append(parts, own[i])
		}
		for k := i + 1; k < len(s.Elements); k++ {
			if s.Elements[k].Parent == i && s.Elements[k].Text != "" {
				parts = append(parts, s.Elements[k].Text)
			}
		}
		if s.Elements[i].Role != "textbox" {
			s.Elements[i].Text = strings.Join(parts, " ")
		}
	}
	cellPositions(&s)
	return s, nil
}

// cellPositions numbers the rows and cells of each table.
func cellPositions(s *trace.Snapshot) {
	rows := map[int]int{}
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Role != "row" || e.Parent < 0 || s.Elements[e.Parent].Role != "table" {
			continue
		}
		t := e.Parent
		e.Cell = &trace.CellInfo{Table: s.Elements[t].Ref, Row: rows[t], Column: -1}
		col := 0
		for k := i + 1; k < len(s.Elements); k++ {
			if c := &s.Elements[k]; c.Parent == i && c.Role == "cell" {
				c.Cell = &trace.CellInfo{Table: s.Elements[t].Ref, Row: rows[t], Column: col}
				col++
			}
		}
		rows[t]++
	}
}

// typing is one value typed into a field: its selector (#id) and value.
type typing struct{ field, value string }

// screenTrace builds a demonstration on one screen: for each typing, a
// click on the field and one input event with the whole value, then a
// click on the element with id "submit" when there is one.
func screenTrace(s trace.Snapshot, typed []typing) (*trace.Trace, error) {
	tr := trace.New(trace.DriverBrowser)
	tr.Snapshots = map[string]trace.Snapshot{"s1": s}
	n := 0
	ev := func(e trace.Event) {
		n++
		e.ID, e.Time = fmt.Sprintf("e%d", n), int64(n*100)
		tr.Events = append(tr.Events, e)
	}
	ev(trace.Event{Kind: trace.KindNavigate, URL: s.URL})
	byID := func(id string) *trace.Target {
		for _, e := range s.Elements {
			if e.ID == id {
				return &trace.Target{Ref: e.Ref}
			}
		}
		return nil
	}
	for _, ty := range typed {
		t := byID(strings.TrimPrefix(ty.field, "#"))
		if t == nil {
			return nil, fmt.Errorf("no field %s", ty.field)
		}
		ev(trace.Event{Kind: trace.KindClick, Target: t, Snapshot: "s1", Button: "left"})
		ev(trace.Event{Kind: trace.KindInput, Target: t, Snapshot: "s1", Text: ty.value, Value: ty.value})
	}
	if t := byID("submit"); t != nil {
		ev(trace.Event{Kind: trace.KindClick, Target: t, Snapshot: "s1", Button: "left"})
	}
	return tr, nil
}

// evalOn evaluates a compiled value expression on a snapshot, as the run
// would on that screen: element descriptions are matched against the
// snapshot's elements (exactly one must match), `.text` and `.value` read
// them, functions are the library's.
func evalOn(e ast.Expr, s *trace.Snapshot) (cty.Value, error) {
	switch e := e.(type) {
	case *ast.StringLit:
		return cty.StringVal(e.Value), nil
	case *ast.NumberLit:
		return funcs.Number(e.Raw)
	case *ast.Paren:
		return evalOn(e.X, s)
	case *ast.Member:
		c, ok := e.X.(*ast.Call)
		if !ok {
			return cty.NilVal, fmt.Errorf("member of %T", e.X)
		}
		i, err := findOn(c, s)
		if err != nil {
			return cty.NilVal, err
		}
		t, member := snapshotText(&s.Elements[i])
		if e.Name.Name == "value" && member == "value" || e.Name.Name == "text" && member == "text" {
			return cty.StringVal(t), nil
		}
		return cty.NilVal, fmt.Errorf("cannot read .%s", e.Name.Name)
	case *ast.Index:
		l, err := evalOn(e.X, s)
		if err != nil {
			return l, err
		}
		k, err := evalOn(e.Index, s)
		if err != nil {
			return k, err
		}
		n, _ := k.AsBigFloat().Int64()
		items := l.AsValueSlice()
		if n < 0 || int(n) >= len(items) {
			return cty.NilVal, fmt.Errorf("index %d out of range", n)
		}
		return items[n], nil
	case *ast.Binary:
		x, err := evalOn(e.X, s)
		if err != nil {
			return x, err
		}
		y, err := evalOn(e.Y, s)
		if err != nil {
			return y, err
		}
		return funcs.Binary(e.Op, x, y)
	case *ast.Call:
		name := e.CalleeName()
		if name == "lookup" {
			return lookupOn(e, s)
		}
		fn, ok := library[name]
		if !ok {
			return cty.NilVal, fmt.Errorf("no function %s", name)
		}
		var args []cty.Value
		for _, a := range e.Args {
			v, err := evalOn(a.Value, s)
			if err != nil {
				return v, err
			}
			args = append(args, v)
		}
		return funcs.Call(fn, args)
	}
	return cty.NilVal, fmt.Errorf("cannot evaluate %T", e)
}

// findOn returns the one element of s an element description matches.
func findOn(c *ast.Call, s *trace.Snapshot) (int, error) {
	root := -1
	var attrs []describedAttr
	for _, a := range c.Args {
		if a.Name == nil {
			return -1, fmt.Errorf("positional argument in a description")
		}
		if a.Name.Name == "within" {
			w, ok := a.Value.(*ast.Call)
			if !ok {
				return -1, fmt.Errorf("within: %T", a.Value)
			}
			r, err := findOn(w, s)
			if err != nil {
				return -1, err
			}
			root = r
			continue
		}
		lit, ok := a.Value.(*ast.StringLit)
		if !ok {
			return -1, fmt.Errorf("%s: not a text", a.Name.Name)
		}
		attrs = append(attrs, describedAttr{a.Name.Name, lit.Value})
	}
	found := -1
	for i := range s.Elements {
		if (root < 0 || under(s, i, root)) && matches(&s.Elements[i], c.CalleeName(), attrs) {
			if found >= 0 {
				return -1, fmt.Errorf("%s matches several elements", c.CalleeName())
			}
			found = i
		}
	}
	if found < 0 {
		return -1, fmt.Errorf("no element matches %s", c.CalleeName())
	}
	return found, nil
}

// lookupOn is lookup(table, key) on a snapshot: the text of the cell after
// the first cell whose text is key, in the same row.
func lookupOn(c *ast.Call, s *trace.Snapshot) (cty.Value, error) {
	tc, ok := c.Args[0].Value.(*ast.Call)
	if !ok {
		return cty.NilVal, fmt.Errorf("lookup of %T", c.Args[0].Value)
	}
	t, err := findOn(tc, s)
	if err != nil {
		return cty.NilVal, err
	}
	k, err := evalOn(c.Args[1].Value, s)
	if err != nil {
		return k, err
	}
	key, _ := funcs.Text(k)
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Role != "cell" || !under(s, i, t) || e.Text != key {
			continue
		}
		for j := i + 1; j < len(s.Elements); j++ {
			if n := &s.Elements[j]; n.Role == "cell" && n.Parent == e.Parent {
				return cty.StringVal(n.Text), nil
			}
		}
	}
	return cty.NilVal, fmt.Errorf("lookup: no key %q", key)
}

// stepValue returns the value argument of step name in a compiled file.
func stepValue(f *ast.File, name string) ast.Expr {
	var found ast.Expr
	for _, d := range f.Decls {
		task, ok := d.(*ast.Task)
		if !ok {
			continue
		}
		for _, st := range task.Body.Stmts {
			if s, ok := st.(*ast.Step); ok && s.Name.Name == name {
				if c, ok := s.Value.(*ast.Call); ok && len(c.Args) > 1 {
					found = c.Args[1].Value
				}
			}
		}
	}
	return found
}
