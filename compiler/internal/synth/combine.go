package synth

import "strings"

// combineFamily: two families where that is cheap. After: a part is
// extracted and then put in upper, lower or title case —
// upper(regex("\\pL+$", op2)), lower(trimspace(op2)); tried first, as
// the way a person writes it. Before: the source is first trimmed or put in
// one case, then another family applies — replace(lower(op2), " ", "-").
func combineFamily(s *search, ins []input) {
	defer func() { s.parts = nil }()
	for _, fn := range []string{"lower", "upper", "title"} {
		if caseOf(fn, s.target) != s.target {
			continue
		}
		for _, in := range ins {
			for _, x := range foldedParts(in.value, s.target) {
				sub := s.sub(x)
				best := sub.runNamed([]input{in}, "trim", "replace", "substr", "regex", "regex_replace", "split")
				if best == nil {
					continue
				}
				s.parts = []string{best.Family, "case"}
				s.fam, s.famIdx = &families[familyIndex("case")], familyIndex("case")
				s.add(call(fn, best.Expr), best.Penalty, 0)
			}
		}
	}
	inner := []string{"case", "trim", "replace", "substr", "regex", "regex_replace", "split"}
	for _, in := range ins {
		for _, d := range derived(in, s.target) {
			s.parts = []string{d.kind, ""}
			for _, name := range inner {
				if name != d.kind {
					s.runFamily(familyIndex(name), []input{d.input})
				}
			}
		}
	}
}

// derivation is a source prepared by a first family.
type derivation struct {
	input
	kind string
}

// derived returns the sources prepared for target: trimmed when the source
// has space around it, in lower or upper case when the target's letters are
// all in that case.
func derived(in input, target string) []derivation {
	var out []derivation
	if t := strings.TrimSpace(in.value); t != in.value && t != "" {
		out = append(out, derivation{input{call("trimspace", in.expr), t}, "trim"})
	}
	for _, fn := range []string{"lower", "upper"} {
		if caseOf(fn, target) != target {
			continue
		}
		if v := caseOf(fn, in.value); v != in.value {
			out = append(out, derivation{input{call(fn, in.expr), v}, "case"})
		}
	}
	return out
}

// foldedParts returns the distinct parts of v that equal t but for case.
func foldedParts(v, t string) []string {
	rv, n := []rune(v), len([]rune(t))
	var out []string
	for i := 0; i+n <= len(rv); i++ {
		x := string(rv[i : i+n])
		if x != t && strings.EqualFold(x, t) && !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
