package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/types"
)

// stepValue checks the right-hand side of a step, which must perform an
// action or run a skill.
func (c *checker) stepValue(s *ast.Step) (types.Type, string) {
	call, isCall := s.Value.(*ast.Call)
	name := ""
	if isCall {
		name = call.CalleeName()
	}
	if Actions[name] != nil || c.skillNamed(name) != nil {
		return c.call(call, true)
	}
	t, secret := c.expr(s.Value)
	if name != "" && !c.isCallable(name) {
		return t, secret // reported as unknown already
	}
	what := "this is a value"
	switch {
	case hasFunction(c.env.Functions, name):
		what = name + " is a function"
	case ElementRoles[name]:
		what = name + "(…) describes an element"
	default:
		if _, dep := s.Value.(*ast.Dependency); dep {
			what = "a cognitive dependency is a value"
		}
	}
	c.diags.Errorf(s.Value.Rng(), "step %s must perform an action, like click(…) or type(…); %s, so pass it to one", s.Name.Name, what)
	return t, secret
}

func hasFunction(fns map[string]function.Function, name string) bool {
	_, ok := fns[name]
	return ok
}

// functionForm tells a library function apart from an element constructor
// of the same name (cell): a constructor takes named attributes or one
// leading string, a function several positional arguments.
func (c *checker) functionForm(e *ast.Call) bool {
	if !hasFunction(c.env.Functions, e.CalleeName()) || len(e.Args) < 2 {
		return false
	}
	for _, a := range e.Args {
		if a.Name != nil {
			return false
		}
	}
	_, isString := e.Args[0].Value.(*ast.StringLit)
	return !isString
}

func (c *checker) isCallable(name string) bool {
	return Actions[name] != nil || c.skillNamed(name) != nil || ElementRoles[name] || ElementPredicates[name] || hasFunction(c.env.Functions, name)
}

// call types a call. asStep is true when the call is a step's whole value,
// the only place actions and skills may run.
func (c *checker) call(e *ast.Call, asStep bool) (types.Type, string) {
	if m, ok := e.Fun.(*ast.Member); ok {
		return c.methodCall(e, m)
	}
	name := e.CalleeName()
	ref := e.Fun.(*ast.Ref)
	skill := c.skillNamed(name)
	switch {
	case skill != nil:
		if !asStep {
			c.diags.Errorf(ref.Range, "skill %s runs as a step of its own: name = %s(…)", name, name)
		}
		return c.skillCall(e, skill)
	case Actions[name] != nil:
		if !asStep {
			c.diags.Errorf(ref.Range, "action %s cannot be nested inside an expression; make it a step of its own and refer to it by name", name)
		}
		a := Actions[name]
		args, optSecret := c.stepOptions(name, a.Params, e.Args)
		secret := c.bindArgs(name, a.Params, args, e.Range)
		return a.Result, firstSecret(secret, optSecret)
	case ElementRoles[name] && !c.functionForm(e):
		return c.constructor(e), ""
	case ElementPredicates[name]:
		return c.elementPredicate(e)
	case hasFunction(c.env.Functions, name):
		return c.functionCall(e, c.env.Functions[name])
	}
	for _, a := range e.Args {
		c.expr(a.Value)
	}
	if c.isBroken(name) {
		return types.AnyT, "" // a skill whose declaration is a syntax error
	}
	if c.otherDriverSkill(ref) {
		return types.AnyT, ""
	}
	d := c.diags.Errorf(ref.Range, "unknown action or function %s", name)
	var names []string
	names = append(names, ActionNames()...)
	names = append(names, sortedKeys(ElementRoles)...)
	names = append(names, sortedKeys(ElementPredicates)...)
	names = append(names, sortedKeys(c.env.Functions)...)
	names = append(names, sortedKeys(c.skills)...)
	names = append(names, c.libraryNames()...)
	hint(d, name, names)
	return types.AnyT, ""
}

// elementPredicate checks visible(e) or exists(e): one element, a bool.
func (c *checker) elementPredicate(e *ast.Call) (types.Type, string) {
	name := e.CalleeName()
	if len(e.Args) != 1 || e.Args[0].Name != nil {
		for _, a := range e.Args {
			c.expr(a.Value)
		}
		c.diags.Errorf(e.Range, "%s takes one element, as in %s(button(name: \"OK\"))", name, name)
		return types.BoolT, ""
	}
	t, _ := c.expr(e.Args[0].Value)
	if t.Kind != types.Any && t.Kind != types.Element {
		c.diags.Errorf(e.Args[0].Value.Rng(), "%s needs an element, not %s", name, t)
	}
	return types.BoolT, ""
}

// bindArgs matches arguments to parameters (positional first, then by name),
// checks their types and literal forms, and returns the secret they carry.
func (c *checker) bindArgs(callee string, params []Param, args []*ast.Arg, rng ast.Range) string {
	bound := make([]*ast.Arg, len(params))
	secret := ""
	named, misplaced := false, false
	for i, a := range args {
		t, s := c.expr(a.Value)
		secret = firstSecret(secret, s)
		idx := i
		if a.Name != nil {
			named = true
			idx = paramIndex(params, a.Name.Name)
			if idx < 0 {
				d := c.diags.Errorf(a.Name.Range, "%s has no parameter %s", callee, a.Name.Name)
				hint(d, a.Name.Name, paramNames(params))
				misplaced = true
				continue
			}
		} else if named {
			c.diags.Errorf(a.Range, "a positional argument cannot follow named ones in %s(…)", callee)
			misplaced = true
			continue
		}
		if idx >= len(params) || (a.Name == nil && params[idx].NamedOnly) {
			c.diags.Errorf(a.Range, "too many arguments: %s takes %d", callee, positional(params))
			continue
		}
		if bound[idx] != nil {
			c.diags.Errorf(a.Range, "%s's %s is given twice", callee, params[idx].Name)
			continue
		}
		bound[idx] = a
		c.checkArg(callee, params[idx], a, t, s)
	}
	// After a misplaced argument, "missing" would only repeat the mistake.
	if misplaced {
		return secret
	}
	var missing []string
	for i, p := range params {
		if bound[i] == nil && !p.Optional {
			missing = append(missing, fmt.Sprintf("%s (%s)", p.Name, typeList(p.Types)))
		}
	}
	if len(missing) > 0 {
		c.diags.Errorf(rng, "%s needs its %s", callee, orList(missing))
	}
	return secret
}

func (c *checker) checkArg(callee string, p Param, a *ast.Arg, t types.Type, secret string) {
	if secret != "" && !p.Secret {
		c.diags.Errorf(a.Value.Rng(), "secret %s cannot be %s's %s: a secret may only be typed into a field, with type or paste (or passed to a skill's secret parameter)", secret, callee, p.Name)
	}
	ok := false
	for _, want := range p.Types {
		if t.AssignableTo(want) {
			ok = true
			break
		}
	}
	if !ok {
		d := c.diags.Errorf(a.Value.Rng(), "%s's %s must be %s, not %s", callee, p.Name, typeList(p.Types), t)
		d.Suggestion = elementForText(p, a.Value)
		return
	}
	if p.LiteralOnly && !isLiteral(a.Value) {
		why := p.LiteralWhy
		if why == "" {
			why = `("…" or ["…", …]): it records the demonstration's value and the run does not compute it`
		}
		c.diags.Errorf(a.Value.Rng(), "%s's %s must be written out as a literal %s", callee, p.Name, why)
		return
	}
	c.secondsLiteral(callee, p, a.Value)
	if lit, isLit := a.Value.(*ast.StringLit); isLit && p.Literal != nil {
		if msg := p.Literal(lit.Value); msg != "" {
			c.diags.Errorf(lit.Range, "%s", msg)
		}
	}
}

// isLiteral reports whether e is a literal or a list of literals.
func isLiteral(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.StringLit, *ast.NumberLit, *ast.BoolLit:
		return true
	case *ast.ListLit:
		for _, x := range e.Elems {
			if !isLiteral(x) {
				return false
			}
		}
		return true
	}
	return false
}

func paramIndex(params []Param, name string) int {
	for i, p := range params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func paramNames(params []Param) []string {
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = p.Name
	}
	return out
}

// typeList renders accepted types for a message: "an element", "a number,
// element or text".
func typeList(ts []types.Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return strings.TrimSpace(article(names[0]) + " " + orList(names))
}

func article(word string) string {
	switch {
	case word == "text":
		return "" // "must be text", not "a text"
	case word == "url":
		return "a" // said "you-are-ell"
	case word != "" && strings.ContainsRune("aeiou", rune(word[0])):
		return "an"
	}
	return "a"
}

func (c *checker) skillCall(e *ast.Call, s *skillInfo) (types.Type, string) {
	if s.checking {
		c.diags.Errorf(e.Range, "skill %s calls itself (directly or through other skills); skills cannot recurse", s.decl.Name.Name)
		return types.AnyT, ""
	}
	c.skillBody(s)
	c.libraryReach(e, s)
	params := make([]Param, len(s.decl.Params))
	for i, p := range s.decl.Params {
		params[i] = Param{Name: p.Name.Name, Types: []types.Type{s.params[i]}, Secret: secretName(s.params[i], symParam, "x") != ""}
	}
	secret := c.bindArgs(s.decl.Name.Name, params, e.Args, e.Range)
	return s.result, secret
}

func (c *checker) methodCall(e *ast.Call, m *ast.Member) (types.Type, string) {
	t, secret := c.expr(m.X)
	if t.Kind == types.Any {
		for _, a := range e.Args {
			c.expr(a.Value)
		}
		return types.AnyT, secret
	}
	if t.Kind != types.Element {
		c.diags.Errorf(m.Name.Range, "%s has no methods; .%s(…) needs an element", t, m.Name.Name)
		return types.AnyT, secret
	}
	meth, ok := elementMethods[m.Name.Name]
	if !ok {
		d := c.diags.Errorf(m.Name.Range, "element has no method %s", m.Name.Name)
		hint(d, m.Name.Name, sortedKeys(elementMethods))
		return types.AnyT, secret
	}
	secret = firstSecret(secret, c.bindArgs(m.Name.Name, meth.Params, e.Args, e.Range))
	return meth.Result, secret
}

// anchorValue checks that an anchor is an element description.
func (c *checker) anchorValue(e ast.Expr) (types.Type, string) {
	if call, ok := e.(*ast.Call); ok && ElementRoles[call.CalleeName()] {
		return c.constructor(call), ""
	}
	c.expr(e)
	c.diags.Errorf(e.Rng(), "an anchor is an element description, like textbox(name: \"Search\", id: \"q\")")
	return types.ElementT, ""
}

// constructor checks an element description: named attributes, plus one
// leading positional string as shorthand for name.
func (c *checker) constructor(e *ast.Call) types.Type {
	seen := map[string]bool{}
	for i, a := range e.Args {
		t, secret := c.expr(a.Value)
		if secret != "" {
			c.diags.Errorf(a.Value.Rng(), "secret %s cannot describe an element: descriptions are written to journals", secret)
		}
		attr := "name"
		if a.Name != nil {
			attr = a.Name.Name
		} else if i > 0 {
			c.diags.Errorf(a.Range, "element attributes after the first are named, as in %s(name: \"…\", id: \"…\")", e.CalleeName())
			continue
		}
		want, ok := ElementAttrs[attr]
		if !ok {
			d := c.diags.Errorf(a.Name.Range, "unknown element attribute %s", attr)
			hint(d, attr, sortedKeys(ElementAttrs))
			d.Notes = append(d.Notes, "attributes: "+strings.Join(sortedKeys(ElementAttrs), ", "))
			continue
		}
		if seen[attr] {
			c.diags.Errorf(a.Range, "attribute %s is given twice", attr)
		}
		seen[attr] = true
		if !t.AssignableTo(want) {
			c.diags.Errorf(a.Value.Rng(), "element attribute %s must be %s, not %s", attr, typeList([]types.Type{want}), t)
		}
		c.selectorAttr(attr, a.Value)
	}
	c.emptyConstructor(e)
	return types.ElementT
}

// functionCall type-checks a call of a library function by asking the cty
// function for its result with unknown arguments of the argument types.
func (c *checker) functionCall(e *ast.Call, fn function.Function) (types.Type, string) {
	name := e.CalleeName()
	secret := ""
	vals := make([]cty.Value, len(e.Args))
	argTypes := make([]types.Type, len(e.Args))
	for i, a := range e.Args {
		t, s := c.expr(a.Value)
		secret = firstSecret(secret, s)
		if a.Name != nil {
			c.diags.Errorf(a.Name.Range, "function %s takes its arguments by position, not by name", name)
		}
		argTypes[i] = t
		// A type with an unknown part is unknown as a whole to cty, so
		// that an earlier error does not turn into a conversion error.
		switch lit, isLit := a.Value.(*ast.StringLit); {
		case t.HasAny():
			vals[i] = cty.DynamicVal
		case isLit && t.ToCty() == cty.String:
			// A literal is known now: the function can check it (a
			// regex pattern, a date layout) before anything runs.
			vals[i] = cty.StringVal(lit.Value)
		default:
			vals[i] = cty.UnknownVal(t.ToCty())
		}
	}
	params := fn.Params()
	if len(e.Args) < len(params) || (fn.VarParam() == nil && len(e.Args) > len(params)) {
		c.diags.Errorf(e.Range, "%s takes %s, got %d", name, arity(params, fn.VarParam() != nil), len(e.Args))
		return types.AnyT, secret
	}
	rt, err := safeReturnType(fn, vals)
	if err != nil {
		c.functionError(e, fn, argTypes, err)
		return types.AnyT, secret
	}
	return types.FromCty(rt), secret
}

// functionError reports a library function's complaint, in the language's
// words when it is about an argument's type.
func (c *checker) functionError(e *ast.Call, fn function.Function, argTypes []types.Type, err error) {
	name := e.CalleeName()
	var argErr function.ArgError
	if !errors.As(err, &argErr) || argErr.Index >= len(e.Args) {
		c.diags.Errorf(e.Range, "%s(%s): %s", name, argSummary(e.Args), strings.TrimSuffix(err.Error(), "."))
		return
	}
	param := fn.VarParam()
	if argErr.Index < len(fn.Params()) {
		p := fn.Params()[argErr.Index]
		param = &p
	}
	rng := e.Args[argErr.Index].Value.Rng()
	if param != nil {
		want, got := types.FromCty(param.Type), argTypes[argErr.Index]
		if !want.HasAny() && !got.Equal(want) {
			c.diags.Errorf(rng, "%s's %s must be %s, not %s", name, param.Name, typeList([]types.Type{want}), got)
			return
		}
		// list<any> (first, nth, length): say "a list", not go-cty's
		// "list of dynamic required".
		if want.Kind == types.List && got.Kind != types.List && !got.HasAny() {
			c.diags.Errorf(rng, "%s's %s must be a list, not %s", name, param.Name, got)
			return
		}
	}
	msg := strings.TrimPrefix(strings.TrimSuffix(err.Error(), "."), name+": ")
	c.diags.Errorf(rng, "%s: %s", name, msg)
}

// safeReturnType guards against a library function that panics on
// unexpected unknown values: a checker must not crash on any input.
func safeReturnType(fn function.Function, vals []cty.Value) (t cty.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = cty.DynamicPseudoType, nil
		}
	}()
	return fn.ReturnTypeForValues(vals)
}

func arity(params []function.Parameter, variadic bool) string {
	n := len(params)
	switch {
	case variadic && n == 1:
		return "at least 1 argument"
	case variadic:
		return fmt.Sprintf("at least %d arguments", n)
	case n == 1:
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

func argSummary(args []*ast.Arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = printer.ExprString(a.Value)
	}
	s := strings.Join(parts, ", ")
	if len(s) > 40 {
		s = "…"
	}
	return s
}

// elementForText suggests how to describe an element where a person wrote
// only its text, as in click("Search"): the commonest slip of a newcomer,
// who names what they see rather than the element that shows it.
func elementForText(p Param, v ast.Expr) string {
	lit, ok := v.(*ast.StringLit)
	if !ok || !slices.ContainsFunc(p.Types, func(t types.Type) bool { return t.Kind == types.Element }) {
		return ""
	}
	return fmt.Sprintf("describe the element: button(name: %q), or element(text: %q) for any element showing it", lit.Value, lit.Value)
}
