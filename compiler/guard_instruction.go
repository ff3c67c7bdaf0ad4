package compiler

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// A workflow that reads nothing of the instruction repeats the
// demonstration's choices: the checkboxes it ticked, the day it picked.
// When the instruction names a value (a quoted phrase, a number, a date)
// and a new instance names another, such a workflow would report ok and be
// wrong. So the guard stage adds, before the first step the instruction
// was on screen for, an assertion that the instruction still names the
// demonstrated value: the same instance passes, another one stops loudly,
// and the message says why.

// instructionValue finds a quoted phrase, else a number or date, in an
// instruction; its first group is the value.
var instructionValue = []*regexp.Regexp{
	regexp.MustCompile(`"([^"]+)"`),
	regexp.MustCompile(`(-?[0-9]+(?:[./:-][0-9]+)*)`),
}

// guardInstruction is the guard stage.
func (c *compiler) guardInstruction(file *ast.File) {
	if c.literal || file == nil || len(file.Decls) == 0 || len(c.inputs) > 0 {
		return // an input's value is the caller's: the instruction may be theirs too
	}
	task, ok := file.Decls[0].(*ast.Task)
	if !ok || task.Body == nil {
		return
	}
	op, desc, text := c.findInstruction()
	if desc == nil || !namesValue(text) {
		return
	}
	var pat *regexp.Regexp
	var value string
	for _, re := range instructionValue {
		if m := re.FindStringSubmatch(text); m != nil {
			pat, value = re, m[1]
			break
		}
	}
	if pat == nil || c.readsValue(op, string(printer.Format(file)), value) {
		return // the workflow reads the instruction
	}
	at := -1
	for k, s := range task.Body.Stmts {
		if declaresStep(s, c.infos[op].name) {
			at = k
			break
		}
	}
	if at < 0 {
		return
	}
	read := call("regex", str(pat.String()), &ast.Member{X: desc.Expr(), Name: ast.Ident{Name: "text"}})
	guard := &ast.Step{Name: ast.Ident{Name: c.unique("same_instruction", "_")}, Value: &ast.Call{Fun: ref(string(action.Assert)), Args: []*ast.Arg{
		{Value: &ast.Binary{Op: "==", X: read, Y: str(value)}},
		named("message", str(fmt.Sprintf("the instruction names another value than the demonstration's %q, and this workflow repeats the demonstration's choices without reading the instruction", value))),
	}}}
	guard.Comments.Leading = []ast.Comment{{Text: "# the workflow reads nothing of the instruction, so it holds only for the demonstrated value"}}
	stmts := append([]ast.Stmt{}, task.Body.Stmts[:at]...)
	stmts = append(append(stmts, guard), task.Body.Stmts[at:]...)
	task.Body.Stmts = stmts
	c.warn(c.infos[op].Events, "%s: the instruction names %q and no step reads it; the workflow repeats the demonstration's choices, so it asserts that the instruction names %q", c.infos[op].name, value, value)
}

// readsValue reports whether src reads an element that showed value on op
// i's screen: the instruction, or an element around or inside it that the
// recorder gave another role (a list item).
func (c *compiler) readsValue(i int, src, value string) bool {
	for _, id := range c.snapshotsBefore(i) {
		x := c.screenIndexOf(id)
		if x == nil {
			continue
		}
		for k := range x.snap.Elements {
			if !strings.Contains(x.texts[k], value) {
				continue
			}
			if d, _ := sourceDesc(c.tr, x, k); d != nil && strings.Contains(src, d.String()) {
				return true
			}
		}
	}
	return false
}

// findInstruction returns the first op whose screen shows the instruction,
// the instruction's description and its text: a visible text outside
// lists, tables and controls that reads as an order (it starts with a verb
// of imperativeVerbs); the innermost of nested ones and the topmost of the
// rest; and one a description picks alone.
func (c *compiler) findInstruction() (int, *targetDesc, string) {
	for i := range c.infos {
		for _, id := range c.snapshotsBefore(i) {
			x := c.screenIndexOf(id)
			if x == nil {
				continue
			}
			best := -1
			for _, k := range instructions(x) {
				if best < 0 || x.snap.Elements[k].Bounds.Y < x.snap.Elements[best].Bounds.Y ||
					(x.snap.Elements[k].Bounds.Y == x.snap.Elements[best].Bounds.Y && k < best) {
					best = k
				}
			}
			if best < 0 {
				continue
			}
			desc, _ := sourceDesc(c.tr, x, best)
			if desc == nil || !desc.Unique {
				return -1, nil, ""
			}
			return i, desc, x.texts[best]
		}
	}
	return -1, nil, ""
}

// isInstruction reports whether e, showing text, reads as an instruction.
// The area around it (a page wrapper whose text starts with the same
// sentence) is one too; instructions keeps the innermost.
func isInstruction(e *trace.Element, text string) bool {
	words := strings.Fields(text)
	if !e.Visible || e.List != nil || e.Cell != nil || interactiveRole(e) || len(words) < 4 {
		return false
	}
	return imperativeVerbs[strings.ToLower(strings.Trim(words[0], ".,:;!"))]
}

// namesValue reports whether an instruction names a value: a quoted
// phrase, a number or a date.
func namesValue(text string) bool {
	return instructionValue[0].MatchString(text) || instructionValue[1].MatchString(text)
}

// imperativeVerbs start the sentences that tell a person what to do on a
// screen.
var imperativeVerbs = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`select choose pick click tick check uncheck mark press push tap draw find search look
		enter type fill write put set move drag drop slide expand open close go navigate book buy order submit send
		reply forward delete remove star copy paste scroll use guess answer sort focus highlight add make give`) {
		imperativeVerbs[w] = true
	}
}

// instructions returns the elements of a screen that read as instructions
// (isInstruction), the innermost of nested ones: the sentence, not the
// area around it, whose text holds the rest of the page too.
func instructions(x *screenIndex) []int {
	cand := map[int]bool{}
	for k := range x.snap.Elements {
		if isInstruction(&x.snap.Elements[k], x.texts[k]) {
			cand[k] = true
		}
	}
	var out []int
	for k := range x.snap.Elements {
		if cand[k] && !hasCandidateBelow(x.snap, k, cand) {
			out = append(out, k)
		}
	}
	return out
}

// hasCandidateBelow reports whether a candidate lies inside element k.
func hasCandidateBelow(s *trace.Snapshot, k int, cand map[int]bool) bool {
	for q := range cand {
		for p, n := s.Elements[q].Parent, 0; p >= 0 && p < len(s.Elements) && n < len(s.Elements); p, n = s.Elements[p].Parent, n+1 {
			if p == k {
				return true
			}
		}
	}
	return false
}

// interactiveRole reports whether e is a control a person acts on.
func interactiveRole(e *trace.Element) bool {
	switch e.Role {
	case "button", "link", "textbox", "checkbox", "radio", "combobox", "listbox", "option", "menuitem", "tab", "slider", "spinbutton", "searchbox":
		return true
	}
	return e.Editable
}

// declaresStep reports whether s is, or holds, the step named name.
func declaresStep(s ast.Stmt, name string) bool {
	for _, st := range declaredSteps(s) {
		if st.Name.Name == name {
			return true
		}
	}
	return false
}
