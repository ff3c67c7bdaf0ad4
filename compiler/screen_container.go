package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// containerSource is the source for element el when el itself can be
// described only by its path: its nearest ancestor with an id of its own
// (not generated) whose text holds the value too. A path names a place in
// the page's tree, and the tree changes between instances (the second of
// two bold spans is "span[2]", a lone one "span"); the id'd container is
// found again, and a program over its text (the value between quotes, or
// after the words that introduce it) reads the value wherever the
// container's markup puts it. nil when no such ancestor exists.
func containerSource(src screenSource, value string) *screenSource {
	x := src.x
	s := x.snap
	want := strings.ToLower(strings.Join(strings.Fields(value), " "))
	for k, n := s.Elements[src.el].Parent, 0; k >= 0 && k < len(s.Elements) && n < len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		a := &s.Elements[k]
		if a.ID == "" || generatedID(a.ID) {
			continue
		}
		if x.texts[k] == "" || !strings.Contains(x.folded[k], want) {
			return nil
		}
		ctor, base := ctorOf(a.Role)
		attrs := append(append([]describedAttr(nil), base...), describedAttr{"id", a.ID})
		if count(s, ctor, attrs, -1) != 1 {
			return nil
		}
		d := &targetDesc{Ctor: ctor, Attrs: attrs, Unique: true}
		out := screenSource{x: x, el: k, area: src.area, desc: d, text: x.texts[k], quality: 0, container: true}
		out.expr = &ast.Member{X: d.Expr(), Name: ast.Ident{Name: x.member[k]}}
		out.where = fmt.Sprintf("%s in %s (the container of %s)", d.String(), x.id, src.desc.String())
		return &out
	}
	return nil
}
