package compiler

import (
	"fmt"
	"regexp"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Parts of a date the instruction names. A calendar is driven by parts of
// a date: the month its title must show ("June", "June 2016") before the
// day is picked, and the day's number ("7" of 06/07/2016). Neither is the
// date as written, so the screen search does not find them; this looks for
// them as reformat_date of a date in the instruction (an imperative
// sentence, guard_instruction.go: the only evidence accepted, since a bare
// "7" or "June" elsewhere is a coincidence).

// dateParts are the layouts of the parts a calendar shows.
var dateParts = []string{"MMMM YYYY", "MMMM", "MMM YYYY", "MMM", "D", "DD", "YYYY"}

var monthOrDay = regexp.MustCompile(`^(?:[0-9]{1,2}|` + monthName + `(?: [0-9]{4})?|[0-9]{4})$`)

// numericDateRE finds the numeric dates of an instruction.
var numericDateRE = regexp.MustCompile(`\b` + numericDate)

// datePartValue returns reformat_date(regex(date, instruction.text), from,
// part) when the screen before op i shows an instruction with a date of
// which value is a part; month-first layouts are tried before day-first.
func (c *compiler) datePartValue(i int, value string) (ast.Expr, bool) {
	if c.literal || !monthOrDay.MatchString(value) || i < 0 || i >= len(c.infos) {
		return nil, false
	}
	for _, id := range c.snapshotsBefore(i) {
		x := c.screenIndexOf(id)
		if x == nil {
			continue
		}
		for _, k := range instructions(x) {
			if e := datePartOf(x.texts[k], value); e != nil {
				desc, _ := sourceDesc(c.tr, x, k)
				if desc == nil || !desc.Unique {
					continue
				}
				expr := substRef(e, screenRef, &ast.Member{X: desc.Expr(), Name: ast.Ident{Name: "text"}})
				c.evidence = append(c.evidence, Evidence{Step: c.infos[i].name, Value: value, Chosen: printer.ExprString(expr),
					Why: fmt.Sprintf("a part of the date the instruction %s names", desc)})
				return expr, true
			}
		}
	}
	return nil, false
}

// datePartOf returns the program over screenRef that gives value as a
// part of a numeric date in text, or nil.
func datePartOf(text, value string) ast.Expr {
	for _, m := range numericDateRE.FindAllString(text, 4) {
		for _, from := range dateLayouts(m) {
			for _, to := range dateParts {
				e := call("reformat_date", call("regex", str(numericDate), ref(screenRef)), str(from), str(to))
				if got, ok := evalScreen(e, text); ok && got == value {
					return e
				}
			}
		}
	}
	return nil
}

// dateChoice is the choice of a calendar's day: a click on one of several
// elements of a kind whose name is a part of the date the instruction
// names (link(name: "7") for 06/07/2016). It returns the element of that
// kind named by the program, when that picks the clicked element alone on
// the demonstration's screen.
func (c *compiler) dateChoice(i int, t *trace.Target, snap string) (ast.Expr, bool) {
	if c.literal || t == nil || t != c.infos[i].full {
		return nil, false
	}
	_, s, idx := findInSnapshot(c.tr, c.infos[i].Target, snap)
	if s == nil || idx < 0 {
		return nil, false
	}
	attr, value := shownValue(&s.Elements[idx].Attributes)
	if value == "" || !monthOrDay.MatchString(value) {
		return nil, false
	}
	kind := kindAttrs(s, idx)
	ctor, _ := ctorOf(s.Elements[idx].Role)
	if alike(s, ctor, kind) < 2 || countLike(s, ctor, kind, attr, value) != 1 || !holds(&s.Elements[idx], ctor, kind, attr, value) {
		return nil, false
	}
	expr, ok := c.datePartValue(i, value)
	if !ok {
		return nil, false
	}
	if base := withoutClass(kind); len(base) < len(kind) && countLike(s, ctor, base, attr, value) == 1 {
		kind = base
	}
	out := &ast.Call{Fun: ref(ctor)}
	for _, a := range kind {
		out.Args = append(out.Args, named(a.Name, str(a.Value)))
	}
	out.Args = append(out.Args, named(attr, expr))
	c.example(i, str(value))
	return out, true
}
