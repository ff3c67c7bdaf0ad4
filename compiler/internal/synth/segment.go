package synth

// segScore ranks ways of cutting the target into pieces: fewest constant
// characters, then fewest pieces, then the least specific atoms.
type segScore struct{ constRunes, pieces, pen int }

func (a segScore) less(b segScore) bool {
	if a.constRunes != b.constRunes {
		return a.constRunes < b.constRunes
	}
	if a.pieces != b.pieces {
		return a.pieces < b.pieces
	}
	return a.pen < b.pen
}

// segState is the best way found to write target[:p], ending with an atom
// (last 0) or with constant text (last 1).
type segState struct {
	ok       bool
	score    segScore
	prevP    int
	prevLast int
	atom     int // index into atoms for an atom step, -1 for a constant rune
}

// segment cuts rs into atoms and constant text with the fewest constant
// characters (dynamic programming over positions). An atom may stand where
// it starts and ends on token boundaries of the target, or anywhere when it
// is at least minFreeAtom characters long. The cut is refused when it has
// no atom, or when the constant text dwarfs what the sources contribute:
// then the text is not a template over the sources but a coincidence.
func segment(rs []rune, atoms []atom) ([]piece, bool) {
	pieces, atomRunes, constRunes := cut(rs, atoms)
	if atomRunes == 0 || len(pieces) < 2 {
		return nil, false
	}
	if !mostlyKept(atomRunes, constRunes) {
		return nil, false
	}
	return pieces, true
}

// cut writes rs as atoms and constant text with the fewest constant
// characters, and says how many characters each kind covers.
func cut(rs []rune, atoms []atom) (pieces []piece, atomRunes, constRunes int) {
	n := len(rs)
	starts := make([][][2]int, n) // position → (atom, end)
	for ai, a := range atoms {
		for _, at := range runeIndex(rs, a.value, 0) {
			end := at + len(a.value)
			if fits(rs, &atoms[ai], at) {
				starts[at] = append(starts[at], [2]int{ai, end})
			}
		}
	}
	st := make([][2]segState, n+1)
	st[0][0] = segState{ok: true, atom: -1}
	relax := func(p, last int, cand segState) {
		if cur := st[p][last]; !cur.ok || cand.score.less(cur.score) {
			st[p][last] = cand
		}
	}
	for p := 0; p < n; p++ {
		for last := 0; last < 2; last++ {
			cur := st[p][last]
			if !cur.ok {
				continue
			}
			sc := cur.score
			sc.constRunes++
			if last == 0 {
				sc.pieces++
			}
			relax(p+1, 1, segState{ok: true, score: sc, prevP: p, prevLast: last, atom: -1})
			for _, e := range starts[p] {
				sa := cur.score
				sa.pieces++
				sa.pen += atoms[e[0]].pen
				relax(e[1], 0, segState{ok: true, score: sa, prevP: p, prevLast: last, atom: e[0]})
			}
		}
	}
	end := 0
	if !st[n][0].ok || (st[n][1].ok && st[n][1].score.less(st[n][0].score)) {
		end = 1
	}
	return collect(rs, atoms, st, n, end)
}

// minFreeAtom is the length from which an atom may match inside a token.
const minFreeAtom = 4

// fits reports whether atom a may stand at position at of rs.
func fits(rs []rune, a *atom, at int) bool {
	return a.free || len(a.value) >= minFreeAtom || aligned(rs, at, at+len(a.value))
}

// collect walks the chosen cut back from its end.
func collect(rs []rune, atoms []atom, st [][2]segState, p, last int) (pieces []piece, atomRunes, constRunes int) {
	var rev []piece
	for p > 0 {
		s := st[p][last]
		if s.atom >= 0 {
			a := &atoms[s.atom]
			rev = append(rev, piece{atom: a})
			atomRunes += len(a.value)
		} else {
			// constant runes are collected one by one; merge them
			if k := len(rev); k > 0 && rev[k-1].atom == nil {
				rev[k-1].lit = string(rs[s.prevP]) + rev[k-1].lit
			} else {
				rev = append(rev, piece{lit: string(rs[s.prevP])})
			}
			constRunes++
		}
		p, last = s.prevP, s.prevLast
	}
	pieces = make([]piece, len(rev))
	for i, pc := range rev {
		pieces[len(rev)-1-i] = pc
	}
	return pieces, atomRunes, constRunes
}
