package ast

// Precedence is how tightly a binary operator binds, loosest 1 (||) to
// tightest 5 (* / %); the parser and the printer both follow it.
func Precedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=", "<", "<=", ">", ">=":
		return 3
	case "+", "-":
		return 4
	case "*", "/", "%":
		return 5
	}
	return 6
}

// Inspect calls fn for e and every expression inside it, depth first,
// parents before children. When fn returns false the children of that
// expression are skipped.
func Inspect(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	args := func(as []*Arg) {
		for _, a := range as {
			Inspect(a.Value, fn)
		}
	}
	switch e := e.(type) {
	case *ListLit:
		for _, x := range e.Elems {
			Inspect(x, fn)
		}
	case *Member:
		Inspect(e.X, fn)
	case *Index:
		Inspect(e.X, fn)
		Inspect(e.Index, fn)
	case *Slice:
		Inspect(e.X, fn)
		Inspect(e.Lo, fn)
		Inspect(e.Hi, fn)
	case *Call:
		Inspect(e.Fun, fn)
		args(e.Args)
	case *Dependency:
		args(e.Inputs)
	case *Unary:
		Inspect(e.X, fn)
	case *Binary:
		Inspect(e.X, fn)
		Inspect(e.Y, fn)
	case *Paren:
		Inspect(e.X, fn)
	}
}
