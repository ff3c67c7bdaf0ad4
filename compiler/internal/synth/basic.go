package synth

import (
	"strings"
	"unicode/utf8"
)

// identityFamily: the typed text is a source's value, as in
// type(search_box, keyword).
func identityFamily(s *search, in input) {
	if in.value == s.target {
		s.add(in.expr, 0, 0)
	}
}

// caseFamily: upper(x), lower(x), title(x).
func caseFamily(s *search, in input) {
	if in.value == s.target || !strings.EqualFold(in.value, s.target) {
		return
	}
	for _, fn := range []string{"lower", "upper", "title"} {
		s.add(call(fn, in.expr), 0, 0)
	}
}

// trimFamily: trimspace(x), trim(x, cutset), trim_prefix(x, p),
// trim_suffix(x, s), when the target is the source without something at its
// ends.
func trimFamily(s *search, in input) {
	v, t := in.value, s.target
	i := strings.Index(v, t)
	if i < 0 || v == t {
		return
	}
	head, tail := v[:i], v[i+len(t):]
	if strings.TrimSpace(head) == "" && strings.TrimSpace(tail) == "" {
		s.add(call("trimspace", in.expr), 0, 0)
	}
	if !hasAlnum(head) && !hasAlnum(tail) {
		s.add(call("trim", in.expr, str(cutset(head+tail))), 0, 1)
	}
	rs := []rune(v)
	hi, ti := utf8.RuneCountInString(head), len(rs)-utf8.RuneCountInString(tail)
	if tail == "" && boundary(rs, hi) {
		s.add(call("trim_prefix", in.expr, str(head)), affixPenalty(head), 0)
	}
	if head == "" && boundary(rs, ti) {
		s.add(call("trim_suffix", in.expr, str(tail)), affixPenalty(tail), 0)
	}
}

// cutset returns the distinct characters of s in order.
func cutset(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !strings.ContainsRune(b.String(), r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// affixPenalty rates a literal taken from a source: structure costs
// nothing, a bare word of content costs 1.
func affixPenalty(lit string) int {
	if labelLike(lit) {
		return 0
	}
	return 1
}
