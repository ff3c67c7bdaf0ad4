package synth

import "slices"

// substrFamily: substr(x, offset, length), the target cut from the source
// by position. Positions generalize only where the format is fixed, so an
// anchored cut (the first n characters, the last n) is penalized a little
// and a cut in the middle more; extraction by pattern usually ranks first.
//
// A cut that starts inside the text is only proposed when everything before
// it is digits and punctuation ("2024-05-17"): fixed-width formats are
// where offsets generalize, and in words they do not ("red,green,blue").
func substrFamily(s *search, in input) {
	v, t := []rune(in.value), []rune(s.target)
	if len(t) >= len(v) {
		return
	}
	for _, at := range runeIndex(v, t, 3) {
		end := at + len(t)
		fixed := !slices.ContainsFunc(v[:at], func(r rune) bool { return kindOf(r) == kLetter })
		switch {
		case at == 0:
			s.add(call("substr", in.expr, num(0), num(len(t))), 1, 0)
		case end == len(v):
			s.add(call("substr", in.expr, num(-len(t)), num(-1)), 1, 0)
			if fixed {
				s.add(call("substr", in.expr, num(at), num(-1)), 2, 1)
			}
		case fixed:
			s.add(call("substr", in.expr, num(at), num(len(t))), 2, 0)
		}
	}
}
