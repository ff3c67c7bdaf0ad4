package runtime

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
)

// Taint follows values, not strings: a value computed from a secret is a
// secret too. The run's redact.Set starts with the secret inputs (every
// item of a list<secret>), and eval adds the texts of every value it
// computes from an operand that holds a secret — lower(pin), "id-" + pin,
// pins[0], split(",", pin), a loop variable over them — the moment it is
// computed, before any step records, prints or sends it. Holding is by
// content, so a value that went through the page (typed, then copied back)
// is still known by its text.

// taint adds the texts of v to the run's secrets when e computed it from a
// value that holds a secret. Literals and plain references add nothing new:
// a reference's value was learned when it was computed.
func (in *Interp) taint(e ast.Expr, v cty.Value) {
	switch e.(type) {
	case *ast.StringLit, *ast.NumberLit, *ast.BoolLit, *ast.Ref, *ast.Paren:
		return
	}
	if in.secrets.Len() == 0 || !in.readsSecret(e) {
		return
	}
	in.secrets.Derive(textsOf(v)...)
}

// readsSecret reports whether a variable e reads holds a secret.
func (in *Interp) readsSecret(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(x ast.Expr) bool {
		if found {
			return false
		}
		if r, ok := x.(*ast.Ref); ok {
			if v, ok := in.get(r.Name); ok && in.holdsSecret(v) {
				found = true
			}
		}
		return true
	})
	return found
}

// holdsSecret reports whether any text of v holds a secret.
func (in *Interp) holdsSecret(v cty.Value) bool {
	for _, t := range textsOf(v) {
		if in.secrets.Holds(t) {
			return true
		}
	}
	return false
}

// SecretInputs lists the secret texts among the raw inputs given to task:
// the value of every secret input as given and, for a list<secret>, each
// of its items. A caller hands them to the journal before the run starts,
// so that the inputs it records are redacted from the first line on.
func SecretInputs(task *ast.Task, inputs map[string]string) []string {
	var out []string
	for _, s := range task.Body.Stmts {
		decl, ok := s.(*ast.InputDecl)
		if !ok || !isSecret(typeOf(decl.Type)) {
			continue
		}
		raw, ok := inputs[decl.Name.Name]
		if !ok {
			continue
		}
		out = append(out, raw)
		if v, err := parseInput(raw, typeOf(decl.Type)); err == nil {
			out = append(out, textsOf(v)...)
		}
	}
	return out
}
