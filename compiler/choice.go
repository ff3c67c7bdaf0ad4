package compiler

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Choices by a value read from the screen.
//
// A click often picks its target because the screen named it: the button
// the instruction quotes, the option to choose, the email whose sender the
// instruction names. Such a click compiles to the element's kind (its
// constructor and the classes it shares with the others of its kind) with
// the name or text computed by the program that reads the value from the
// screen (screenValue), so that another instance clicks the element it
// names:
//
//	op3 = click(button(name: regex("\"([^\"]+)\"", text(id: "query").text)), example: "previous")
//
// The rule, in order:
//   - the clicked element must be one of several of its kind on the
//     screen (the value is what tells it from the others: a lone Submit
//     button is no choice, and stays described by its own name), and its
//     value two characters or more — unless the screen quotes the value
//     ('Click on the "x" button'), which names it as a parameter;
//   - its shown value (name, else text) must not be a value an earlier
//     step of the workflow typed or copied (the screen shows it because
//     the workflow put it there), and must be found on the screen before
//     the click somewhere else than in the element itself or around it, by
//     the evidence rules of the values (docs/language.md, "Values read from
//     the screen");
//   - the description by kind and value must pick exactly the clicked
//     element on the demonstration's snapshot (with the same matching rules
//     as at run time, roughly: names whole, texts as words); when it does
//     not, the demonstrated description stays and the evidence says why.
//
// Attributes specific to the demonstrated instance — a generated id, a
// positional css selector, the list item it sat in — are left out; the
// kind's classes (the tokens every element of the kind shares) stay only
// when the value alone does not single the element out.

// choiceState is what the compiler keeps about choices and loops by
// values read from the screen.
type choiceState struct {
	stub        *screenStub      // tests: stands in for the screen search
	examples    map[int]ast.Expr // op → the demonstrated value of a choice computed from the screen
	valueLoops  []*valueLoop     // runs of ops done once per value of a list (loop_values.go)
	loopIter    ast.Expr         // the items a filtered loop walks (loop_filter.go), or nil
	loopGuard   *ast.Call        // the assertion before a filtered loop that it has items
	loopNote    string           // the filtered loop's comment
	numberLoops []*numberLoop    // items chosen by the number they show (loop_choice.go)
}

// screenStub stands in for the screen search in tests of what is built on
// it (golden cases give the programs), so that those tests do not depend on
// which program the search prefers. nil: the screen search.
type screenStub struct {
	value func(i int, value string) (ast.Expr, bool)
	list  func(i int, values []string) (ast.Expr, bool)
}

// lookValue is screenValue, or the test's stand-in.
func (c *compiler) lookValue(i int, value string) (ast.Expr, bool) {
	if c.literal {
		return nil, false
	}
	if c.stub != nil {
		return c.stub.value(i, value)
	}
	return c.screenValue(i, value)
}

// lookList is screenList, or the test's stand-in.
func (c *compiler) lookList(i int, values []string) (ast.Expr, bool) {
	if c.literal {
		return nil, false
	}
	if c.stub != nil && c.stub.list != nil {
		return c.stub.list(i, values)
	}
	return c.screenList(i, values)
}

// shownValue is what an element shows a person: its name, else its text
// when short (a sender, a link's words), with the attribute that holds it.
func shownValue(e *trace.Attributes) (attr, value string) {
	if v := strings.TrimSpace(e.Name); v != "" {
		return "name", v
	}
	if v := strings.TrimSpace(e.Text); v != "" && len([]rune(v)) <= 60 {
		return "text", v
	}
	return "", ""
}

// choiceExpr returns, for a click on target t of op i, the element chosen
// by a value read from the screen, when the rule above allows it.
func (c *compiler) choiceExpr(i int, t *trace.Target, d *targetDesc, st *state, snap string) (ast.Expr, bool) {
	in := c.infos[i]
	if c.literal || t == nil || t != in.full {
		return nil, false
	}
	switch in.Action {
	case action.Click, action.DoubleClick, action.RightClick:
	default:
		return nil, false
	}
	_, s, idx := findInSnapshot(c.tr, in.Target, snap)
	if s == nil || idx < 0 {
		return nil, false
	}
	if v := s.Elements[idx].Value; isChooser(t) && v != "" {
		// A drop-down clicked and left on the option it showed: the
		// choice of that option, when the screen named it.
		return c.optionByValue(i, v, d.Expr())
	}
	attr, value := shownValue(&s.Elements[idx].Attributes)
	if value == "" || c.typedBefore(value, st) {
		return nil, false
	}
	kind := kindAttrs(s, idx)
	ctor, _ := ctorOf(s.Elements[idx].Role)
	n := alike(s, ctor, kind)
	if n < 1 || (n < 2 || !meaningful(value)) && !quotedOnScreen(s, value) {
		return nil, false // not even looked for: the search would record evidence for nothing
	}
	expr, _, ok := c.lookShown(i, value)
	if !ok {
		return nil, false
	}
	// A value the instruction quotes is named as a parameter, however
	// short, and even when the element is alone of its kind on this
	// screen; otherwise a one-letter value or a lone element is no
	// evidence of a choice.
	if !quoted(expr) && (n < 2 || !meaningful(value)) {
		return nil, false
	}
	ev := Evidence{Step: in.name, Value: value}
	if !shown(expr) {
		ev.Why = fmt.Sprintf("%s computes the value rather than reading it as the screen shows it: a coincidence for a choice; the demonstrated element is kept", printer.ExprString(expr))
		c.evidence = append(c.evidence, ev)
		return nil, false
	}
	if reads := readsChosen(s, idx, expr); reads != "" {
		ev.Why = fmt.Sprintf("the value was found only in %s, the chosen element or one around it: no evidence; the demonstrated element is kept", reads)
		c.evidence = append(c.evidence, ev)
		return nil, false
	}
	if n := countLike(s, ctor, kind, attr, value); !singles(s, ctor, kind, attr, value, idx) {
		ev.Why = fmt.Sprintf("%s with %s %q matches %d elements of the demonstration's screen, not the clicked one only; the demonstrated element is kept", ctor, attr, value, n)
		c.evidence = append(c.evidence, ev)
		return nil, false
	}
	// The class only when the value alone does not single the element
	// out (a link's words also in the instruction): another instance may
	// show the element named with another class (a dialog's close button).
	if base := withoutClass(kind); len(base) < len(kind) && countLike(s, ctor, base, attr, value) == 1 {
		kind = base
	}
	out := &ast.Call{Fun: ref(ctor)}
	for _, a := range kind {
		out.Args = append(out.Args, named(a.Name, str(a.Value)))
	}
	out.Args = append(out.Args, named(attr, expr))
	c.example(i, str(value))
	ev.Chosen = printer.ExprString(out)
	ev.Why = fmt.Sprintf("the clicked %s is one of %d of its kind and shows the value the screen named; the description picks it alone on the demonstration's screen", ctor, n)
	c.evidence = append(c.evidence, ev)
	return out, true
}

// quoted reports whether a value program reads the value between quotes
// (its pattern holds a quotation mark): a value the screen quotes.
func quoted(expr ast.Expr) bool {
	found := false
	walkCalls(expr, func(call *ast.Call) {
		r, ok := call.Fun.(*ast.Ref)
		if !ok || (r.Name != "regex" && r.Name != "regex_replace") {
			return
		}
		for _, a := range call.Args {
			if lit, ok := a.Value.(*ast.StringLit); ok && strings.ContainsAny(lit.Value, "\"'“”‘’«»「」") {
				found = true
			}
		}
	})
	return found
}

// quotedOnScreen reports whether some text of the snapshot has the value
// right after a quotation mark (in any case).
func quotedOnScreen(s *trace.Snapshot, value string) bool {
	v := strings.ToLower(value)
	for k := range s.Elements {
		text := strings.ToLower(s.Elements[k].Text)
		for _, q := range []string{"\"", "'", "“", "‘", "«", "「"} {
			if strings.Contains(text, q+v) {
				return true
			}
		}
	}
	return false
}

// typedBefore reports whether an earlier step of the workflow produced the
// value (typed it, copied it): the screen then shows it because the
// workflow put it there, and the choice of an element that matches a value
// of the workflow's own (the search result for what was searched) is left
// to the rules for such choices (a dependency, or the demonstrated item).
func (c *compiler) typedBefore(value string, st *state) bool {
	for _, src := range st.sources {
		if fold(src.value) == fold(value) {
			return true
		}
	}
	return false
}

// meaningful reports whether a value can be evidence of a choice: two
// characters or more, a letter or digit among them ("@a" is a user name;
// a one-letter value is found anywhere).
func meaningful(v string) bool {
	n, alnum := 0, false
	for _, r := range v {
		if !unicode.IsSpace(r) {
			n++
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r > unicode.MaxLatin1 {
			alnum = true
		}
	}
	return n >= 2 && alnum
}

// shown reports whether a value program reads the value as the screen
// shows it (an extraction, a case or space change), not a computation: a
// choice is made by a value the screen names, and arithmetic or a format
// that happens to give the chosen element's text is a coincidence.
func shown(expr ast.Expr) bool {
	ok := true
	walkCalls(expr, func(call *ast.Call) {
		if r, isRef := call.Fun.(*ast.Ref); isRef {
			switch r.Name {
			case "format", "format_number", "reformat_date", "parse_number", "round", "sum", "join":
				ok = false
			}
		}
	})
	var binary func(e ast.Expr) bool
	binary = func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Binary:
			return true
		case *ast.Paren:
			return binary(x.X)
		case *ast.Call:
			for _, a := range x.Args {
				if binary(a.Value) {
					return true
				}
			}
		}
		return false
	}
	return ok && !binary(expr)
}

// kindAttrs are the attributes element idx shares with the others of its
// kind: its role for element(…), and the class tokens every element of its
// role that shares one of them has too (a state class, hover or active,
// drops out; an instance's own class does too).
func kindAttrs(s *trace.Snapshot, idx int) []describedAttr {
	e := &s.Elements[idx]
	_, base := ctorOf(e.Role)
	kind := append([]describedAttr(nil), base...)
	if cls := kindClass(s, idx); cls != "" {
		kind = append(kind, describedAttr{"class", cls})
	}
	return kind
}

// kindClass is the class tokens of element idx that every other element of
// its role sharing a token with it also has; "" when no other element
// shares one.
func kindClass(s *trace.Snapshot, idx int) string {
	e := &s.Elements[idx]
	common, others := e.Class, 0
	for k := range s.Elements {
		o := &s.Elements[k]
		if k == idx || o.Role != e.Role || sharedTokens(e.Class, o.Class) == "" {
			continue
		}
		others++
		common = sharedTokens(common, o.Class)
	}
	if others == 0 {
		return ""
	}
	return stableClass(common)
}

// withoutClass is a kind without its class.
func withoutClass(kind []describedAttr) []describedAttr {
	var out []describedAttr
	for _, a := range kind {
		if a.Name != "class" {
			out = append(out, a)
		}
	}
	return out
}

// alike counts the elements of the snapshot of a constructor and kind.
func alike(s *trace.Snapshot, ctor string, kind []describedAttr) int {
	return count(s, ctor, kind, -1)
}

// countLike counts the elements of a kind whose attr holds value by the
// run-time rules (see holds).
func countLike(s *trace.Snapshot, ctor string, kind []describedAttr, attr, value string) int {
	n := 0
	for k := range s.Elements {
		if holds(&s.Elements[k], ctor, kind, attr, value) {
			n++
		}
	}
	return n
}

// singles reports whether the kind with attr value picks element idx
// alone: it is the one element that holds the value, or several do as
// names are compared (case folded) and the runtime's matching still
// picks idx among them (the one written in the screen's case,
// runtime/match/ties.go).
func singles(s *trace.Snapshot, ctor string, kind []describedAttr, attr, value string, idx int) bool {
	if !holds(&s.Elements[idx], ctor, kind, attr, value) {
		return false
	}
	if countLike(s, ctor, kind, attr, value) == 1 {
		return true
	}
	return chosen(s, ctor, append(slices.Clone(kind), describedAttr{Name: attr, Value: value}), -1) == idx
}

// holds reports whether element e is of the kind and its attr holds value
// as anchoring compares it: a name has the same words up to case and
// spacing, a text has the words among its own.
func holds(e *trace.Element, ctor string, kind []describedAttr, attr, value string) bool {
	if !matches(e, ctor, kind) {
		return false
	}
	have := fold(e.Get(attr))
	want := fold(value)
	if attr == "text" || attr == "description" {
		return have == want || strings.Contains(" "+have+" ", " "+want+" ")
	}
	return have == want
}

func fold(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// readsChosen returns the description of an element the value program
// reads that is the chosen element itself, inside it, or around it (its
// text holds the value only because it holds the element); "" when the
// program reads elsewhere.
func readsChosen(s *trace.Snapshot, idx int, expr ast.Expr) string {
	var found string
	walkCalls(expr, func(call *ast.Call) {
		r, ok := call.Fun.(*ast.Ref)
		if !ok || !constructors[r.Name] || found != "" {
			return
		}
		var attrs []describedAttr
		for _, a := range call.Args {
			lit, ok := a.Value.(*ast.StringLit)
			if a.Name == nil || !ok {
				return // computed or scoped: not checked here
			}
			attrs = append(attrs, describedAttr{a.Name.Name, lit.Value})
		}
		for k := range s.Elements {
			if matches(&s.Elements[k], r.Name, attrs) && (under(s, k, idx) || under(s, idx, k)) {
				found = printer.ExprString(call)
				return
			}
		}
	})
	return found
}

// walkCalls calls fn for every call in e, outermost first.
func walkCalls(e ast.Expr, fn func(*ast.Call)) {
	switch x := e.(type) {
	case *ast.Call:
		fn(x)
		walkCalls(x.Fun, fn)
		for _, a := range x.Args {
			walkCalls(a.Value, fn)
		}
	case *ast.Member:
		walkCalls(x.X, fn)
	case *ast.Index:
		walkCalls(x.X, fn)
		walkCalls(x.Index, fn)
	case *ast.Slice:
		walkCalls(x.X, fn)
	case *ast.Binary:
		walkCalls(x.X, fn)
		walkCalls(x.Y, fn)
	case *ast.Unary:
		walkCalls(x.X, fn)
	case *ast.Paren:
		walkCalls(x.X, fn)
	case *ast.ListLit:
		for _, el := range x.Elems {
			walkCalls(el, fn)
		}
	}
}

// withExample adds `example:` with the demonstrated value to the action of
// op i when its target was computed from the screen.
func (c *compiler) withExample(i int, e ast.Expr) ast.Expr {
	ex, ok := c.examples[i]
	if !ok {
		return e
	}
	if call, ok := e.(*ast.Call); ok {
		call.Args = append(call.Args, named("example", ex))
	}
	return e
}

// example records the value op i's choice was demonstrated with.
func (c *compiler) example(i int, v ast.Expr) {
	if c.examples == nil {
		c.examples = map[int]ast.Expr{}
	}
	c.examples[i] = v
}

// optionByValue is the option of the list box or drop-down sel (op i's
// target) named by a value read from the screen: option(name: <program>,
// within: sel). The program must read the value elsewhere than in the list
// itself, and the list must hold one option of that name.
func (c *compiler) optionByValue(i int, value string, sel ast.Expr) (ast.Expr, bool) {
	in := c.infos[i]
	_, s, idx := findInSnapshot(c.tr, in.Target, in.Snapshot)
	if c.literal || s == nil || idx < 0 || !meaningful(value) {
		return nil, false
	}
	n := 0
	for k := range s.Elements {
		if under(s, k, idx) && holds(&s.Elements[k], "option", nil, "name", value) {
			n++
		}
	}
	if n != 1 {
		return nil, false
	}
	expr, _, ok := c.lookShown(i, value)
	if !ok {
		return nil, false
	}
	ev := Evidence{Step: in.name, Value: value}
	if !shown(expr) {
		ev.Why = fmt.Sprintf("%s computes the value rather than reading it as the screen shows it: a coincidence for a choice; the demonstrated option is kept", printer.ExprString(expr))
		c.evidence = append(c.evidence, ev)
		return nil, false
	}
	if reads := readsChosen(s, idx, expr); reads != "" {
		ev.Why = fmt.Sprintf("the value was found only in %s, the list itself or around it: no evidence; the demonstrated option is kept", reads)
		c.evidence = append(c.evidence, ev)
		return nil, false
	}
	opt := &ast.Call{Fun: ref("option"), Args: []*ast.Arg{named("name", expr), named("within", sel)}}
	c.example(i, str(value))
	ev.Chosen = printer.ExprString(opt)
	ev.Why = "the option chosen is the one the screen named, one of the list's options"
	c.evidence = append(c.evidence, ev)
	return opt, true
}

// lookShown is lookValue for a value the run compares up to case (a
// name, a text): the screen may write it in another case ("Click the
// cancel button" for the button Cancel). It returns the program and the
// form the screen wrote.
func (c *compiler) lookShown(i int, value string) (ast.Expr, string, bool) {
	for _, v := range caseForms(value) {
		if e, ok := c.lookValue(i, v); ok {
			return e, v, true
		}
	}
	return nil, "", false
}

// caseForms are a value as written, in lower case, in upper case and with
// its first letter capitalized, without repeats.
func caseForms(v string) []string {
	forms := []string{v, strings.ToLower(v), strings.ToUpper(v)}
	if r := []rune(strings.ToLower(v)); len(r) > 0 {
		forms = append(forms, string(unicode.ToUpper(r[0]))+string(r[1:]))
	}
	var out []string
	for _, f := range forms {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// itemChoice is itemTarget for op i's target in the loop's item, with the
// class chosen by a value the screen names when the target is one of a
// row of icons told apart by their class alone (the Like, Share, Reply
// buttons of a post) and the screen names the icon: "Click the "Share"
// button on …" picks `class: lower(<program>)`.
func (c *compiler) itemChoice(i int, t *trace.Target, snap string) ast.Expr {
	e := itemTarget(c.tr, t, snap)
	desc, ok := e.(*ast.Call)
	if !ok || c.literal {
		return e
	}
	_, s, idx := findInSnapshot(c.tr, c.infos[i].Target, snap)
	if s == nil || idx < 0 {
		return e
	}
	if _, v := shownValue(&s.Elements[idx].Attributes); v != "" {
		return e // told by what it shows, not by its class
	}
	for _, a := range desc.Args {
		lit, isLit := a.Value.(*ast.StringLit)
		if a.Name == nil || a.Name.Name != "class" || !isLit || len(strings.Fields(lit.Value)) != 1 || !iconRow(s, idx, lit.Value) {
			continue
		}
		expr, form, ok := c.lookShown(i, lit.Value)
		if !ok || !shown(expr) || readsChosen(s, idx, expr) != "" {
			return e
		}
		switch lit.Value {
		case form:
		case strings.ToLower(form):
			expr = call("lower", expr)
		case strings.ToUpper(form):
			expr = call("upper", expr)
		default:
			return e
		}
		c.example(i, str(lit.Value))
		c.evidence = append(c.evidence, Evidence{Step: c.infos[i].name, Value: lit.Value, Chosen: printer.ExprString(expr),
			Why: "the clicked icon is told from its neighbours by its class alone, and the screen names that class"})
		a.Value = expr
		return e
	}
	return e
}

// iconRow reports whether element idx sits among siblings of its role
// that lack its class token: a row of icons, one of which is chosen.
func iconRow(s *trace.Snapshot, idx int, tok string) bool {
	e := &s.Elements[idx]
	others := 0
	for k := range s.Elements {
		o := &s.Elements[k]
		if k == idx || o.Parent != e.Parent || o.Role != e.Role {
			continue
		}
		if slices.Contains(strings.Fields(o.Class), tok) {
			return false
		}
		others++
	}
	return others > 0
}
