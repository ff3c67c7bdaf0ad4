package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/types"
)

// Selector attributes say exactly which element is meant, as a recorded
// selector does: css (piercing shadow roots; ">>>" steps into the shadow
// root of what matched so far), xpath (in the element's document) and frame
// (the child-frame index path from the top document). They are hard
// constraints at run time: an element that does not satisfy them is not a
// candidate, whatever its other attributes.
var selectorAttrs = map[string]types.Type{
	"css": txt, "xpath": txt, "frame": types.ListOf(num),
}

func init() {
	for k, t := range selectorAttrs {
		ElementAttrs[k] = t
	}
}

// Compare operators accepted by wait's compare: (the DevTools Recorder's
// waitForElement operators).
var compareOps = []string{">=", "==", "<=", ">", "<"}

func checkCompare(s string) string {
	for _, op := range compareOps {
		if s == op {
			return ""
		}
	}
	return "compare must be one of " + strings.Join(compareOps, " ") + ", not " + quote(s)
}

func quote(s string) string { return `"` + s + `"` }

// addCommonParams gives every action an optional timeout: (seconds), wait
// its counting form, and adds the actions a replayed recording needs
// (set_viewport, wait_script). It runs at the end of the actions' init.
func addCommonParams() {
	for _, a := range []*Action{
		{Name: action.SetViewport, Params: []Param{req("width", num), req("height", num)}, Result: void,
			Doc: "resize the page's viewport (browser) to width × height CSS pixels"},
		{Name: action.WaitScript, Params: []Param{req("expression", txt)}, Result: void,
			Doc: "wait until a JavaScript expression is true in the current page (browser only)"},
		{Name: action.WaitNavigation, Params: []Param{{Name: "url", Types: []types.Type{types.URLT}, Literal: checkURL}}, Result: void,
			Doc: "wait until the current tab or one of its frames (out-of-process ones too) has loaded the address"},
	} {
		Actions[string(a.Name)] = a
	}
	named := func(name string, t types.Type) Param {
		return Param{Name: name, Types: []types.Type{t}, Optional: true, NamedOnly: true}
	}
	if s := Actions[string(action.Scroll)]; s != nil {
		s.Params = append(s.Params, named("x", num), named("y", num))
	}
	if w := Actions[string(action.Wait)]; w != nil {
		cmp := named("compare", txt)
		cmp.Literal = checkCompare
		w.Params = append(w.Params, named("count", num), cmp, named("hidden", types.BoolT))
	}
	// example: is the value the demonstration used where the step now
	// computes one (a text read from the screen, the names of the items a
	// loop goes over); it is documentation a tool shows on hover, and the
	// run ignores it.
	example := Param{Name: "example", Types: []types.Type{txt, types.ListOf(txt)}, Optional: true, NamedOnly: true, LiteralOnly: true}
	// in_doubt: is what `cogflow run --resume` does with this step when a
	// run left it in doubt and its effect cannot be read back; the run
	// ignores it. A resume reads it from the file without evaluating
	// anything, hence a literal.
	inDoubt := Param{Name: "in_doubt", Types: []types.Type{txt}, Optional: true, NamedOnly: true, LiteralOnly: true,
		Literal: checkInDoubt, LiteralWhy: `("skip"): a resume reads it from the workflow without running anything`}
	for _, a := range Actions {
		a.Params = append(a.Params, named("timeout", num), example, inDoubt)
	}
}

// InDoubtPolicies are the values of an action's in_doubt: (and of
// `cogflow run --in-doubt`).
var InDoubtPolicies = []string{"ask", "skip", "redo"}

// checkInDoubt checks a literal in_doubt: policy.
func checkInDoubt(s string) string {
	for _, p := range InDoubtPolicies {
		if s == p {
			return ""
		}
	}
	return fmt.Sprintf("in_doubt must be %s, not %q: what a resume does with this step when a run left it in doubt", orList(quoteAll(InDoubtPolicies)), s)
}

// positional is how many parameters can be given by position.
func positional(params []Param) int {
	n := 0
	for _, p := range params {
		if !p.NamedOnly {
			n++
		}
	}
	return n
}

// selectorAttr checks the literal form of a selector attribute: a css or
// xpath that is empty, or a frame index that is not a whole number ≥ 0, can
// never match anything.
func (c *checker) selectorAttr(attr string, v ast.Expr) {
	switch attr {
	case "css", "xpath":
		if s, ok := v.(*ast.StringLit); ok && strings.TrimSpace(s.Value) == "" {
			c.diags.Errorf(s.Range, "element attribute %s is empty: it would match nothing", attr)
		}
		if s, ok := v.(*ast.StringLit); ok && attr == "css" && (strings.HasPrefix(strings.TrimSpace(s.Value), ">>>") || strings.HasSuffix(strings.TrimSpace(s.Value), ">>>")) {
			c.diags.Errorf(s.Range, "css %s: \">>>\" goes between two selectors (host >>> inner)", quote(s.Value))
		}
	case "frame":
		l, ok := v.(*ast.ListLit)
		if !ok {
			return
		}
		for _, it := range l.Elems {
			n, ok := it.(*ast.NumberLit)
			if !ok {
				continue
			}
			if f, err := strconv.ParseFloat(n.Raw, 64); err == nil && (f < 0 || f != float64(int(f))) {
				c.diags.Errorf(n.Range, "a frame index is a whole number from 0 (the first child frame), not %s", n.Raw)
			}
		}
	}
}

// emptyConstructor warns about an element description with no attribute:
// it describes no element in particular, so it can only match by luck.
func (c *checker) emptyConstructor(e *ast.Call) {
	if len(e.Args) == 0 {
		c.diags.Warnf(e.Range, "%s() has no attribute: it describes no element in particular; add name:, text:, id:, css: or xpath:", e.CalleeName())
	}
}
