package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// withExample completes an action call with its value and, when the value
// is read from the screen, `example:` with the demonstrated value, so a
// reader (and the editor, on hover) sees what the program computed then.
func withExample(c *ast.Call, demonstrated string) func(ast.Expr, bool) ast.Expr {
	return func(value ast.Expr, screen bool) ast.Expr {
		c.Args = append(c.Args, &ast.Arg{Value: value})
		if screen {
			c.Args = append(c.Args, named("example", str(demonstrated)))
		}
		return c
	}
}

// noEvidence is called when neither the screen nor the earlier values
// explain a typed value of op i. When the value shares a word with an
// earlier value, a program could have cut it out of that value, but none
// is simple and general enough (docs/language.md, "Values read from the
// screen"): the value becomes an input, with a warning saying so.
func (c *compiler) noEvidence(i int, text string, st *state) {
	if i < 0 || i >= len(c.infos) {
		return
	}
	shared := ""
	for k := len(st.sources) - 1; k >= 0 && shared == ""; k-- {
		sw := map[string]bool{}
		for _, w := range wordsOf(st.sources[k].value) {
			sw[w] = true
		}
		for _, w := range wordsOf(text) {
			if len([]rune(w)) >= 3 && sw[w] {
				shared = fmt.Sprintf("%q with %s", w, st.sources[k].name)
				break
			}
		}
	}
	if shared == "" {
		return
	}
	why := fmt.Sprintf("the value shares %s, but no program computes it from there without text of its own: an input, not a guess", shared)
	name := c.infos[i].name
	if n := len(c.evidence); n > 0 && c.evidence[n-1].Step == name {
		c.evidence[n-1].Why = strings.TrimPrefix(c.evidence[n-1].Why+"; ", "; ") + why
	} else {
		c.evidence = append(c.evidence, Evidence{Step: name, Value: text, Why: why})
	}
	c.warn(c.infos[i].Events, "%s: typed %q: %s; check the input (or compile with a model for a dependency)", name, text, why)
}

// secretEvidence records why a password field's value was not looked for.
func (c *compiler) secretEvidence(i int) {
	if i < 0 || i >= len(c.infos) || c.literal {
		return
	}
	c.evidence = append(c.evidence, Evidence{Step: c.infos[i].name, Value: "[secret]",
		Why: "typed into a password field: a secret input, never read from the screen (a program's value would reach the journal)"})
}

// String renders the evidence for `cogflow compile --explain`: the step
// and value, what was written, where the value was found, the consistent
// programs and why.
func (e Evidence) String() string {
	var b strings.Builder
	chosen := e.Chosen
	if chosen == "" {
		chosen = "(no program: an input or a dependency)"
	}
	fmt.Fprintf(&b, "%s %q: %s\n", e.Step, e.Value, chosen)
	for _, f := range e.Found {
		fmt.Fprintf(&b, "  found in   %s\n", f)
	}
	for _, p := range e.Consistent {
		fmt.Fprintf(&b, "  consistent %s\n", p)
	}
	fmt.Fprintf(&b, "  why        %s\n", e.Why)
	return b.String()
}
