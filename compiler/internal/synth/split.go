package synth

import (
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// splitFamily: split(sep, x)[i], a field of a delimited text. The first and
// last fields generalize to texts with more or fewer fields (last() is
// written for the last one); a field in the middle is a little specific.
// A field with spaces around it is trimmed: trimspace(split(",", x)[1]).
func splitFamily(s *search, in input) {
	if !strings.Contains(in.value, s.target) || in.value == s.target {
		return
	}
	for _, sep := range separators(in.value) {
		parts := strings.Split(in.value, sep)
		for i, p := range parts {
			pen := 0
			if i != 0 && i != len(parts)-1 {
				pen = 1
			}
			switch {
			case p == s.target:
				s.add(splitField(in, sep, i, len(parts)), pen, 0)
			case strings.TrimSpace(p) == s.target:
				s.add(call("trimspace", splitField(in, sep, i, len(parts))), pen, 1)
			}
		}
	}
}

func splitField(in input, sep string, i, n int) ast.Expr {
	list := call("split", str(sep), in.expr)
	if i == n-1 && i > 0 {
		return call("last", list)
	}
	return index(list, i)
}
