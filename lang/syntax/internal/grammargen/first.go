package grammargen

import (
	"fmt"
	"slices"
	"strings"
)

// set is a set of tokens: those with one of the texts, and those of one of
// the kinds. A participle literal matches a token's text whatever its kind.
type set struct {
	lits  []string
	kinds []string
}

func (s set) union(o set) set {
	return set{lits: merge(s.lits, o.lits), kinds: merge(s.kinds, o.kinds)}
}

func (s set) size() int { return len(s.lits) + len(s.kinds) }

func merge(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// analysis holds what the generator knows of every grammar struct.
type analysis struct {
	structs map[string]*grammarStruct
	order   []*grammarStruct
}

func analyze(structs []*grammarStruct) (*analysis, error) {
	a := &analysis{structs: map[string]*grammarStruct{}, order: structs}
	for _, s := range structs {
		a.structs[s.name] = s
	}
	if err := a.checkRefs(); err != nil {
		return nil, err
	}
	// Nullability and first sets of recursive definitions: iterate to the
	// fixed point (sets only grow).
	for changed := true; changed; {
		changed = false
		for _, s := range structs {
			n, f := a.nullable(s.expr), a.first(s.expr)
			if n != s.nullable || f.size() != s.first.size() {
				s.nullable, s.first, changed = n, f, true
			}
		}
	}
	return a, a.checkDeterminism()
}

func (a *analysis) checkRefs() error {
	var err error
	for _, s := range a.order {
		walk(s.expr, func(n node) {
			if sn, ok := n.(*structNode); ok && a.structs[sn.name] == nil && err == nil {
				err = fmt.Errorf("%s: @@ of %s, which is not a grammar struct", s.name, sn.name)
			}
		})
	}
	return err
}

func walk(n node, f func(node)) {
	f(n)
	switch n := n.(type) {
	case seqNode:
		for _, x := range n {
			walk(x, f)
		}
	case altNode:
		for _, x := range n {
			walk(x, f)
		}
	case *groupNode:
		walk(n.x, f)
	case *capNode:
		walk(n.x, f)
	}
}

func (a *analysis) nullable(n node) bool {
	switch n := n.(type) {
	case seqNode:
		for _, x := range n {
			if !a.nullable(x) {
				return false
			}
		}
		return true
	case altNode:
		for _, x := range n {
			if a.nullable(x) {
				return true
			}
		}
		return false
	case *groupNode:
		return n.mode != '+' || a.nullable(n.x)
	case *capNode:
		return a.nullable(n.x)
	case *structNode:
		return a.structs[n.name].nullable
	}
	return false // a literal or a token kind
}

func (a *analysis) first(n node) set {
	switch n := n.(type) {
	case seqNode:
		var s set
		for _, x := range n {
			s = s.union(a.first(x))
			if !a.nullable(x) {
				break
			}
		}
		return s
	case altNode:
		var s set
		for _, x := range n {
			s = s.union(a.first(x))
		}
		return s
	case *groupNode:
		return a.first(n.x)
	case *capNode:
		return a.first(n.x)
	case *structNode:
		return a.structs[n.name].first
	case *litNode:
		return set{lits: []string{n.value}}
	case *kindNode:
		return set{kinds: []string{n.kind}}
	}
	return set{}
}

// checkDeterminism refuses the shapes the generated parser cannot follow
// the way participle does: an alternative or a repetition that can match
// nothing (participle itself refuses to loop or branch on empty matches).
func (a *analysis) checkDeterminism() error {
	var err error
	for _, s := range a.order {
		walk(s.expr, func(n node) {
			if err != nil {
				return
			}
			switch n := n.(type) {
			case altNode:
				for _, x := range n {
					if a.nullable(x) {
						err = fmt.Errorf("%s: an alternative can match nothing", s.name)
					}
				}
			case *groupNode:
				if n.mode != '?' && a.nullable(n.x) {
					err = fmt.Errorf("%s: a repetition of something that can match nothing", s.name)
				}
			}
		})
	}
	return err
}

// guard is the test that decides to enter n at a choice point (an
// alternative, an optional part, one more repetition). Participle, with
// one token of lookahead, tries a branch and backs out of it when it fails
// after at most one token; the generated parser commits instead, so where
// n begins with one fixed token followed by something that cannot be
// empty, the guard looks at the second token as well. A branch the guard
// lets in can then fail only after two tokens, where participle gives up
// too, and the generated parser hands the file to participle.
func (a *analysis) guard(n node) []set {
	seq := a.expand(n)
	if len(seq) >= 2 && isToken(seq[0]) && !a.nullable(seq[1]) {
		return []set{a.first(seq[0]), a.first(seq[1])}
	}
	return []set{a.first(n)}
}

// expand returns n as a sequence, looking through captures and @@.
func (a *analysis) expand(n node) seqNode {
	switch n := n.(type) {
	case seqNode:
		if len(n) > 0 {
			return slices.Concat(a.expand(n[0]), n[1:])
		}
		return n
	case *capNode:
		if _, ok := n.x.(*structNode); ok {
			return a.expand(n.x)
		}
		if isToken(n.x) {
			return seqNode{n.x}
		}
	case *structNode:
		return a.expand(a.structs[n.name].expr)
	}
	return seqNode{n}
}

func isToken(n node) bool {
	switch n.(type) {
	case *litNode, *kindNode:
		return true
	}
	return false
}

// kindWords names token kinds in the words of the language's messages.
var kindWords = map[string]string{
	"Ident": "a name", "String": "a string", "Number": "a number", "Desc": `a description <"…">`,
}

// describe says what a set of tokens is, for the message of a parse that
// stops there.
func describe(s set) string {
	var parts []string
	for _, l := range s.lits {
		parts = append(parts, fmt.Sprintf("%q", l))
	}
	for _, k := range s.kinds {
		if w, ok := kindWords[k]; ok {
			parts = append(parts, w)
		} else {
			parts = append(parts, k)
		}
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
