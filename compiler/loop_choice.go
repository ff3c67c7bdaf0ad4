package compiler

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Choices computed from a number on screen: the demonstration clicked one
// control in every item of a list, in order, and which control it clicked
// follows from the number the item shows ("Odd 1 Even" → Odd, "Odd 8 Even"
// → Even). An item loop that copied one item's choice to the others would
// be silently wrong on the next instance, so this compiles to a loop over
// every item with an if on the item's number:
//
//	for item in items(list(id: "numbers")) {
//	  if parse_number(regex("-?[0-9]+", item.text)) % 2 == 0 {
//	    op4 = click(button(name: "Even", within: item))
//	  } else {
//	    op3 = click(button(name: "Odd", within: item))
//	  }
//	}
//
// The rules a choice may follow are few and each must explain every item
// demonstrated, with each side of it seen at least once; when none or
// more than one does, nothing is generalized here.

// numberLoop is a run of ops [lo, hi], one click per item of a list, and
// the rule that picks each item's control.
type numberLoop struct {
	lo, hi   int
	list     *targetDesc
	rule     numberRule
	yes, no  int // the ops whose control the rule picks when it holds, when not
	examples []string
}

// numberRule is a test of an item's number: its expression over the
// number, and the test itself.
type numberRule struct {
	name string
	expr func(n ast.Expr) ast.Expr
	test func(n float64) bool
}

var numberRules = []numberRule{
	{"even", func(n ast.Expr) ast.Expr {
		return &ast.Binary{Op: "==", X: &ast.Binary{Op: "%", X: n, Y: num(2)}, Y: num(0)}
	}, func(n float64) bool { return int64(n)%2 == 0 }},
	{"negative", func(n ast.Expr) ast.Expr { return &ast.Binary{Op: "<", X: n, Y: num(0)} },
		func(n float64) bool { return n < 0 }},
}

var itemNumber = regexp.MustCompile(`-?[0-9]+`)

// findNumberLoops is the choice-loops stage: it finds the runs of numberLoop
// and takes them from the item loop, which would repeat one item's choice
// (an item loop reaching past the run keeps it). The run's later ops are
// folded so that the value loops leave them alone.
func (c *compiler) findNumberLoops() {
	if c.literal {
		return
	}
	for i := 0; i < len(c.infos); i++ {
		l := c.numberLoopAt(i)
		if l == nil {
			continue
		}
		if c.loopLo >= 0 && c.loopLo <= l.hi && c.loopHi >= l.lo {
			if c.loopLo < l.lo || c.loopHi > l.hi {
				continue // the item loop reaches past the run: leave it
			}
			c.loopLo, c.loopHi, c.loopItems, c.loopIter, c.loopGuard = -1, -1, false, nil, nil
		}
		c.numberLoops = append(c.numberLoops, l)
		for j := l.lo + 1; j <= l.hi; j++ {
			c.folded[j] = true // done by the loop, which emit writes at l.lo
		}
		i = l.hi
	}
}

// numberLoopAt returns the number loop whose run starts at op i, or nil.
func (c *compiler) numberLoopAt(i int) *numberLoop {
	type item struct {
		op   int
		name string
		n    float64
		text string
	}
	var items []item
	cont, size := "", 0
	for j := i; j < len(c.infos); j++ {
		in := c.infos[j]
		l := listOf(in.full)
		if in.Action != action.Click || l == nil || in.full.Name == "" || (j > i && l.Container != cont) || l.Index != len(items) {
			break
		}
		text := itemText(c.tr, in.Target, in.Snapshot)
		nums := itemNumber.FindAllString(text, -1)
		if len(nums) != 1 {
			break
		}
		n, err := strconv.ParseFloat(nums[0], 64)
		if err != nil {
			break
		}
		cont, size = l.Container, l.Size
		items = append(items, item{op: j, name: in.full.Name, n: n, text: text})
	}
	if len(items) < 2 || len(items) != size {
		return nil // not every item, in order
	}
	var found *numberLoop
	for _, r := range numberRules {
		yes, no := -1, -1
		ok := true
		for _, it := range items {
			side := &no
			if r.test(it.n) {
				side = &yes
			}
			if *side >= 0 && c.infos[*side].full.Name != it.name {
				ok = false
				break
			}
			if *side < 0 {
				*side = it.op
			}
		}
		if !ok || yes < 0 || no < 0 || c.infos[yes].full.Name == c.infos[no].full.Name {
			continue
		}
		if found != nil {
			return nil // two rules explain the items: no evidence for either
		}
		found = &numberLoop{lo: i, hi: items[len(items)-1].op, rule: r, yes: yes, no: no}
		for _, it := range items {
			found.examples = append(found.examples, fmt.Sprintf("%s → %s", strconv.FormatFloat(it.n, 'f', -1, 64), it.name))
		}
	}
	if found == nil {
		return nil
	}
	found.list = listDesc(c.tr, c.infos[i].Target, c.infos[i].Snapshot)
	if found.list == nil || found.list.Ctor == "table" {
		found.list = &targetDesc{Ctor: "list", Attrs: []describedAttr{{"path", cont}}}
	}
	return found
}

// itemText is the text of the list item that holds target.
func itemText(tr *trace.Trace, target *trace.Target, snapID string) string {
	_, s, idx := findInSnapshot(tr, target, snapID)
	if s == nil || idx < 0 || s.Elements[idx].List == nil {
		return ""
	}
	li := s.Elements[idx].List
	item := idx
	for p := s.Elements[item].Parent; p >= 0 && p < len(s.Elements); p = s.Elements[item].Parent {
		if pl := s.Elements[p].List; pl == nil || pl.Container != li.Container || pl.Index != li.Index {
			break
		}
		item = p
	}
	t, _ := snapshotText(&s.Elements[item])
	return strings.Join(strings.Fields(t), " ")
}

// numberLoopStmt returns the loop for the number loop whose run starts at
// op i, and the run's last op; nil when none starts there.
func (c *compiler) numberLoopStmt(i int) (ast.Stmt, int) {
	var l *numberLoop
	for _, x := range c.numberLoops {
		if x.lo == i {
			l = x
		}
	}
	if l == nil {
		return nil, i
	}
	step := func(k int) *ast.Block {
		in := c.infos[k]
		e := perform(action.Click, itemTarget(c.tr, in.Target, in.Snapshot))
		s := &ast.Step{Name: ast.Ident{Name: in.name}, Value: withTimeout(withButton(e, in.Button), c.tr, in.Events)}
		s.Comments.Trailing = &ast.Comment{Text: "# " + cite(in.Events)}
		return &ast.Block{Stmts: []ast.Stmt{s}}
	}
	n := call("parse_number", call("regex", str(itemNumber.String()), &ast.Member{X: ref("item"), Name: ast.Ident{Name: "text"}}))
	body := &ast.IfStmt{Cond: l.rule.expr(n), Then: step(l.yes), Else: step(l.no)}
	f := &ast.ForStmt{Var: ast.Ident{Name: "item"}, Iter: call("items", l.list.Expr()), Body: &ast.Block{Stmts: []ast.Stmt{body}}}
	yes, no := c.infos[l.yes].full.Name, c.infos[l.no].full.Name
	f.Comments.Leading = []ast.Comment{{Text: fmt.Sprintf("# each item's choice follows from the number it shows: %q when it is %s, else %q (the demonstration: %s)",
		yes, l.rule.name, no, strings.Join(l.examples, ", "))}}
	c.warn(c.infos[i].Events, "%s: the demonstration clicked %q or %q in each item of the list as the item's number is %s or not; it compiles to a loop over every item with an if", c.infos[i].name, yes, no, l.rule.name)
	return f, l.hi
}
