package runtime

import "github.com/cogflow/cogflow/lang/ast"

// costAlt is one if of the task: its branches are alternatives, and a run
// takes at most one, so the totals count the costliest branch and leave
// the dependencies of the others out. parent and arm place the if in the
// branch of an enclosing if (nil at the top).
type costAlt struct {
	parent *costAlt
	arm    int
}

// costArm is one branch of an if.
type costArm struct {
	alt *costAlt
	arm int
}

// uncounted returns the dependencies the totals leave out: those in a
// branch of an if that another branch of the same if outweighs. A
// branch's weight is the tokens of its dependencies times how often they
// are answered (1 for a loop whose count is unknown), the branches of the
// ifs inside it counted by their own costliest; ties go to the first.
func (w *costWalker) uncounted(iters Iterations) map[*costDep]bool {
	direct := map[costArm]int{}
	children := map[costArm][]*costAlt{}
	seen := map[*costAlt]bool{}
	arms := map[*costAlt]int{} // how many branches of each if hold something
	for _, d := range w.deps {
		if d.alt == nil {
			continue
		}
		n, _, known, _ := iters.times(d.loop)
		if !known {
			n = 1
		}
		direct[costArm{d.alt, d.arm}] += n * (d.in + d.out)
		for a, arm := d.alt, d.arm; a != nil; a, arm = a.parent, a.arm {
			arms[a] = max(arms[a], arm+1)
			if seen[a] {
				break
			}
			seen[a] = true
			if a.parent != nil {
				key := costArm{a.parent, a.arm}
				children[key] = append(children[key], a)
			}
		}
	}
	chosen := map[*costAlt]int{}
	var best func(a *costAlt) int
	var total func(k costArm) int
	total = func(k costArm) int {
		t := direct[k]
		for _, c := range children[k] {
			t += best(c)
		}
		return t
	}
	best = func(a *costAlt) int {
		top, at := -1, 0
		for i := 0; i < arms[a]; i++ {
			if t := total(costArm{a, i}); t > top {
				top, at = t, i
			}
		}
		chosen[a] = at
		return top
	}
	for a := range seen {
		if a.parent == nil {
			best(a)
		}
	}
	skip := map[*costDep]bool{}
	for _, d := range w.deps {
		for a, arm := d.alt, d.arm; a != nil; a, arm = a.parent, a.arm {
			if c, ok := chosen[a]; ok && c != arm {
				skip[d] = true
				break
			}
		}
	}
	return skip
}

// keyword is the keyword --iterations names a loop without a variable by:
// "repeat", "while" or "until"; "" for a for loop.
func (l *costLoop) keyword() string {
	switch s := l.stmt.(type) {
	case *ast.RepeatStmt:
		return "repeat"
	case *ast.WhileStmt:
		return s.Keyword()
	}
	return ""
}

// literal reports whether the loop's count is written as a number in the
// file (a repeat's count): --iterations does not override it.
func (l *costLoop) literal() bool {
	_, ok := l.stmt.(*ast.RepeatStmt)
	return ok && l.countKnown
}
