package compiler

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/runtime/trace"
)

// screenState is what the screen search keeps between values: each
// snapshot's index, built on first use, and the events by id.
type screenState struct {
	screens  map[string]*screenIndex // snapshot id → its texts, indexed once
	eventIdx map[string]int          // event id → position in the trace
}

// screenIndex is the text of one snapshot, indexed once: every element's
// text as the run time reads it (elementText), and a map from each word
// of it to the elements that hold the word. A value is looked up through
// its rarest word, so finding it costs the length of one posting list, not
// a scan of every text (the compile benchmark holds it to that).
type screenIndex struct {
	id      string
	snap    *trace.Snapshot
	texts   []string         // per element: its text, white space collapsed
	folded  []string         // texts, lower-cased
	member  []string         // per element: the member that reads its text, "text" or "value"
	numeric []int            // the elements whose text holds a digit
	words   map[string][]int // folded word → elements holding it, in document order
}

// screenIndexOf returns the index of snapshot id, building it on first use.
func (c *compiler) screenIndexOf(id string) *screenIndex {
	if x, ok := c.screens[id]; ok {
		return x
	}
	s, ok := c.tr.Snapshots[id]
	var x *screenIndex
	if ok {
		x = newScreenIndex(id, &s)
	}
	if c.screens == nil {
		c.screens = map[string]*screenIndex{}
	}
	c.screens[id] = x
	return x
}

func newScreenIndex(id string, s *trace.Snapshot) *screenIndex {
	x := &screenIndex{id: id, snap: s, texts: make([]string, len(s.Elements)),
		folded: make([]string, len(s.Elements)), member: make([]string, len(s.Elements)), words: map[string][]int{}}
	for i := range s.Elements {
		raw, member := snapshotText(&s.Elements[i])
		x.member[i] = member
		t := strings.Join(strings.Fields(raw), " ")
		x.texts[i] = t
		if strings.ContainsAny(t, "0123456789") {
			x.numeric = append(x.numeric, i)
		}
		x.folded[i] = strings.ToLower(t)
		for _, w := range wordsOf(t) {
			if p := x.words[w]; len(p) == 0 || p[len(p)-1] != i {
				x.words[w] = append(p, i)
			}
		}
	}
	return x
}

// snapshotText is what `.text` reads from the element at run time (an
// editable element's value, else its visible text, else its value), or
// the value read by `.value` when it holds more than the visible text (a
// read-only text area, whose visible text the driver caps).
func snapshotText(e *trace.Element) (string, string) {
	switch {
	case e.Editable && e.Value != "":
		return e.Value, "text"
	case e.Value != "" && len(e.Value) > len(e.Text):
		return e.Value, "value"
	case e.Text != "":
		return e.Text, "text"
	}
	return e.Value, "text"
}

// wordsOf returns the folded words of s: runs of letters and digits, a
// number without its leading zeros ("08" and "8" are one word, so that a
// time typed as "08:22" finds "8:22 AM").
func wordsOf(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if allDigits(f) {
			if t := strings.TrimLeft(f, "0"); t != "" {
				f = t
			} else {
				f = "0"
			}
		}
		out = append(out, f)
	}
	return out
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// holding returns the elements whose text holds every word of value, the
// innermost first-class: an element is left out when one of its
// descendants holds them too. exact reports whether the texts contain the
// value itself (case aside); otherwise they only hold all its words, as a
// reformatted date or a changed case does.
func (x *screenIndex) holding(value string) (els []int, exact bool) {
	ws := wordsOf(value)
	if len(ws) == 0 {
		return nil, false
	}
	rare := ws[0]
	for _, w := range ws[1:] {
		if len(x.words[w]) < len(x.words[rare]) {
			rare = w
		}
	}
	folded := strings.ToLower(strings.Join(strings.Fields(value), " "))
	var all, contain []int
	for _, i := range x.words[rare] {
		if strings.Contains(x.folded[i], folded) {
			contain = append(contain, i)
		}
		if x.holdsAll(i, ws) {
			all = append(all, i)
		}
	}
	if len(contain) > 0 {
		return x.innermost(contain), true
	}
	return x.innermost(all), false
}

func (x *screenIndex) holdsAll(i int, ws []string) bool {
	for _, w := range ws {
		if !x.has(w, i) {
			return false
		}
	}
	return true
}

// has reports whether element i holds word w (a binary search of w's
// postings).
func (x *screenIndex) has(w string, i int) bool {
	p := x.words[w]
	lo, hi := 0, len(p)
	for lo < hi {
		m := (lo + hi) / 2
		if p[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(p) && p[lo] == i
}

// innermost keeps the elements of els none of whose descendants is in els.
func (x *screenIndex) innermost(els []int) []int {
	in := map[int]bool{}
	for _, i := range els {
		in[i] = true
	}
	outer := map[int]bool{}
	for _, i := range els {
		for k, n := x.snap.Elements[i].Parent, 0; k >= 0 && k < len(x.snap.Elements) && n < len(x.snap.Elements); k, n = x.snap.Elements[k].Parent, n+1 {
			if in[k] {
				outer[k] = true
			}
		}
	}
	var out []int
	for _, i := range els {
		if !outer[i] {
			out = append(out, i)
		}
	}
	return out
}

// holdingMost returns the innermost elements holding the most words of
// value (at least one), for a value the page writes otherwise: "18:09"
// typed from "6:09 PM" shares only its minutes with the page.
func (x *screenIndex) holdingMost(value string, limit int) []int {
	n := map[int]int{}
	best := 0
	for _, w := range wordsOf(value) {
		for _, i := range x.words[w] {
			n[i]++
			best = max(best, n[i])
		}
	}
	var els []int
	for i, k := range n {
		if k == best {
			els = append(els, i)
		}
	}
	slices.Sort(els)
	els = x.innermost(els)
	if len(els) > limit {
		els = els[:limit]
	}
	return els
}

// numbered returns the innermost elements whose text holds a number, for
// values computed by arithmetic from numbers the screen shows.
func (x *screenIndex) numbered(limit int) []int {
	els := x.innermost(x.numeric)
	if len(els) > limit {
		els = els[:limit]
	}
	return els
}
