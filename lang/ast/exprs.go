package ast

// Exprs returns the expressions a statement holds itself, in source
// order, not those of its bodies (Bodies gives those): a step's or an
// anchor's value, an input's default, a loop's list, count or condition
// and options, an if's conditions through its else-if chain, an explore's
// goal and options. Walks over every expression of a file pair it with
// Bodies and Inspect.
func Exprs(s Stmt) []Expr {
	var out []Expr
	add := func(es ...Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	args := func(as []*Arg) {
		for _, a := range as {
			if a != nil {
				add(a.Value)
			}
		}
	}
	switch s := s.(type) {
	case *Step:
		add(s.Value)
	case *AnchorDecl:
		add(s.Value)
	case *InputDecl:
		add(s.Default)
	case *ForStmt:
		add(s.Iter)
	case *RepeatStmt:
		add(s.Count)
	case *WhileStmt:
		add(s.Cond)
		args(s.Options)
	case *IfStmt:
		for x := s; x != nil; x = x.ElseIf {
			add(x.Cond)
		}
	case *ExploreStmt:
		if s.Goal != nil {
			add(s.Goal)
		}
		args(s.Options)
	}
	return out
}
