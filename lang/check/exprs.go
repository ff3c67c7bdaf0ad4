package check

import (
	"strconv"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/types"
)

// expr types an expression and says which secret, if any, its value carries.
// Errors are reported here; the type returned after an error is Any so that
// one mistake is reported once.
func (c *checker) expr(e ast.Expr) (types.Type, string) {
	switch e := e.(type) {
	case *ast.StringLit:
		return types.TextT, ""
	case *ast.NumberLit:
		if _, err := strconv.ParseFloat(e.Raw, 64); err != nil {
			c.diags.Errorf(e.Range, "number %s is out of range", e.Raw)
		}
		return types.NumberT, ""
	case *ast.BoolLit:
		return types.BoolT, ""
	case *ast.ListLit:
		return c.listLit(e)
	case *ast.Ref:
		s := c.ref(e)
		if s == nil {
			return types.AnyT, ""
		}
		if s.typ.Kind == types.Void {
			c.diags.Errorf(e.Range, "%s produces no value (its action returns nothing), so it cannot be used here", e.Name)
			return types.AnyT, ""
		}
		return s.typ, s.secret
	case *ast.Paren:
		return c.expr(e.X)
	case *ast.Member:
		return c.member(e)
	case *ast.Index:
		return c.index(e)
	case *ast.Slice:
		return c.slice(e)
	case *ast.Call:
		return c.call(e, false)
	case *ast.Dependency:
		return c.dependency(e)
	case *ast.Unary:
		return c.unary(e)
	case *ast.Binary:
		return c.binary(e)
	}
	return types.AnyT, ""
}

func firstSecret(secrets ...string) string {
	for _, s := range secrets {
		if s != "" {
			return s
		}
	}
	return ""
}

func (c *checker) listLit(e *ast.ListLit) (types.Type, string) {
	elem := types.AnyT
	secret := ""
	for _, x := range e.Elems {
		t, s := c.expr(x)
		secret = firstSecret(secret, s)
		switch {
		case elem.Kind == types.Any:
			elem = t
		case t.Kind == types.Any || t.Equal(elem):
		default:
			c.diags.Errorf(x.Rng(), "list elements must share one type: this is %s, earlier ones are %s", t, elem)
		}
	}
	return types.ListOf(elem), secret
}

func (c *checker) member(e *ast.Member) (types.Type, string) {
	t, secret := c.expr(e.X)
	var members map[string]types.Type
	switch t.Kind {
	case types.Any:
		return types.AnyT, secret
	case types.Element:
		members = elementMembers
	case types.Window:
		members = windowMembers
	default:
		c.diags.Errorf(e.Name.Range, "%s has no properties; .%s needs an element or a window", t, e.Name.Name)
		return types.AnyT, secret
	}
	mt, ok := members[e.Name.Name]
	if !ok {
		if _, isMethod := elementMethods[e.Name.Name]; isMethod && t.Kind == types.Element {
			c.diags.Errorf(e.Name.Range, "%s is a method: call it as .%s(…)", e.Name.Name, e.Name.Name)
			return types.AnyT, secret
		}
		d := c.diags.Errorf(e.Name.Range, "%s has no property %s", t, e.Name.Name)
		hint(d, e.Name.Name, sortedKeys(members))
		d.Notes = append(d.Notes, "properties of "+t.String()+": "+orList(sortedKeys(members)))
		return types.AnyT, secret
	}
	return mt, secret
}

func (c *checker) index(e *ast.Index) (types.Type, string) {
	t, secret := c.expr(e.X)
	it, _ := c.expr(e.Index)
	if !it.AssignableTo(types.NumberT) {
		c.diags.Errorf(e.Index.Rng(), "an index must be a number, not %s", it)
	}
	switch {
	case t.Kind == types.Any:
		return types.AnyT, secret
	case t.Kind == types.List:
		if t.Elem == nil {
			return types.AnyT, secret
		}
		return *t.Elem, secret
	}
	c.diags.Errorf(e.X.Rng(), "only lists can be indexed, and this is %s", t)
	return types.AnyT, secret
}

func (c *checker) slice(e *ast.Slice) (types.Type, string) {
	t, secret := c.expr(e.X)
	for _, bound := range []ast.Expr{e.Lo, e.Hi} {
		if bound == nil {
			continue
		}
		if bt, _ := c.expr(bound); !bt.AssignableTo(types.NumberT) {
			c.diags.Errorf(bound.Rng(), "a slice bound must be a number, not %s", bt)
		}
	}
	if t.Kind != types.List && t.Kind != types.Any {
		c.diags.Errorf(e.X.Rng(), "only lists can be sliced, and this is %s", t)
		return types.AnyT, secret
	}
	return t, secret
}

func (c *checker) unary(e *ast.Unary) (types.Type, string) {
	t, secret := c.expr(e.X)
	want := types.NumberT
	if e.Op == "!" {
		want = types.BoolT
	}
	if t.Kind != types.Any && !t.Equal(want) {
		c.diags.Errorf(e.Range, "operator %s needs a %s, not %s", e.Op, want, t)
		return types.AnyT, secret
	}
	return want, secret
}

func (c *checker) binary(e *ast.Binary) (types.Type, string) {
	x, sx := c.expr(e.X)
	y, sy := c.expr(e.Y)
	secret := firstSecret(sx, sy)
	if x.Kind == types.Any || y.Kind == types.Any {
		return binaryResult(e.Op, x, y), secret
	}
	bad := func() (types.Type, string) {
		c.diags.Errorf(e.Range, "operator %s cannot combine %s and %s", e.Op, x, y)
		return types.AnyT, secret
	}
	switch e.Op {
	case "+":
		if x.Kind == types.Number && y.Kind == types.Number {
			return types.NumberT, secret
		}
		// + joins text; a number on either side is formatted.
		if (x.IsTextual() || x.Kind == types.Number) && (y.IsTextual() || y.Kind == types.Number) {
			return types.TextT, secret
		}
		return bad()
	case "-", "*", "/", "%":
		if x.Kind == types.Number && y.Kind == types.Number {
			return types.NumberT, secret
		}
		return bad()
	case "&&", "||":
		if x.Kind == types.Bool && y.Kind == types.Bool {
			return types.BoolT, secret
		}
		return bad()
	case "<", "<=", ">", ">=":
		if x.Kind == types.Number && y.Kind == types.Number {
			return types.BoolT, secret
		}
		return bad()
	default: // == !=
		if x.AssignableTo(y) || y.AssignableTo(x) {
			return types.BoolT, secret
		}
		return bad()
	}
}

// binaryResult is the type of an operation whose operand types are not
// fully known.
func binaryResult(op string, x, y types.Type) types.Type {
	switch op {
	case "+":
		if x.IsTextual() || y.IsTextual() {
			return types.TextT
		}
		return types.AnyT
	case "-", "*", "/", "%":
		return types.NumberT
	}
	return types.BoolT
}
