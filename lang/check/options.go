package check

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/types"
)

// DialogAnswers are the values of a step's dialog: option.
var DialogAnswers = []string{"accept", "dismiss"}

// StepOptions are the named arguments every action takes besides its own
// parameters: how to answer the native dialogs (alert, confirm, prompt,
// beforeunload) the step opens. They are named only, never positional.
var StepOptions = []Param{
	{Name: "dialog", Types: []types.Type{txt}, Optional: true, Literal: checkDialog},
	// A prompt may ask for a secret (a password prompt).
	{Name: "prompt", Types: []types.Type{txt}, Optional: true, Secret: true},
}

func checkDialog(s string) string {
	for _, a := range DialogAnswers {
		if s == a {
			return ""
		}
	}
	return fmt.Sprintf("unknown dialog answer %q; use %s", s, orList(quoteAll(DialogAnswers)))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// stepOptions takes the step options out of an action's arguments and
// checks them; it returns the remaining arguments and the secret the
// options carry.
func (c *checker) stepOptions(callee string, params []Param, args []*ast.Arg) ([]*ast.Arg, string) {
	var rest []*ast.Arg
	secret := ""
	seen := map[string]*ast.Arg{}
	for _, a := range args {
		if a.Name == nil || paramIndex(params, a.Name.Name) >= 0 || paramIndex(StepOptions, a.Name.Name) < 0 {
			rest = append(rest, a)
			continue
		}
		p := StepOptions[paramIndex(StepOptions, a.Name.Name)]
		t, s := c.expr(a.Value)
		if seen[p.Name] != nil {
			c.diags.Errorf(a.Range, "%s's %s is given twice", callee, p.Name)
			continue
		}
		seen[p.Name] = a
		secret = firstSecret(secret, s)
		c.checkArg(callee, p, a, t, s)
	}
	if pr := seen["prompt"]; pr != nil {
		if d := seen["dialog"]; d == nil {
			c.diags.Errorf(pr.Range, "%s gives a prompt's text but no dialog: add dialog: \"accept\"", callee)
		} else if lit, ok := d.Value.(*ast.StringLit); ok && lit.Value == "dismiss" {
			c.diags.Errorf(pr.Range, "a dismissed prompt takes no text: drop prompt: or say dialog: \"accept\"")
		}
	}
	return rest, secret
}
