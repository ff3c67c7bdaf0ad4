package compiler

// Alignment of several demonstrations' steps (the merge stage, merge.go).

import (
	"sort"
	"strconv"
	"strings"
)

// column is one place of the alignment: the item each demonstration that
// did it there did (by demonstration number), nil for the others.
type column struct {
	key string
	at  []*mergeItem
	rep *mergeItem // the item written, when not the first (merge_programs.go)
}

// present reports which demonstrations did the column's step, as a set
// written "0,2" so that columns done by the same demonstrations group.
func (c *column) present() string {
	var b strings.Builder
	for i, it := range c.at {
		if it != nil {
			b.WriteString(strconv.Itoa(i) + ",")
		}
	}
	return b.String()
}

// all reports whether every demonstration did the column's step.
func (c *column) all() bool {
	for _, it := range c.at {
		if it == nil {
			return false
		}
	}
	return true
}

// first is the first demonstration that did the column's step: its item
// is the one the merged workflow writes.
func (c *column) first() *mergeItem {
	if c.rep != nil {
		return c.rep
	}
	for _, it := range c.at {
		if it != nil {
			return it
		}
	}
	return nil
}

// align lines up the demonstrations' items. The shortest demonstration's
// items are the first columns (what every instance needs is in it; a
// dialog or a repetition makes a demonstration longer); each next one, by
// length, is aligned with the columns so far by a common subsequence of
// keys that keeps the most demonstrations together, its other items
// becoming new columns where they happened (after the columns of earlier
// demonstrations in the same gap).
func align(demos []*mergeDemo) []*column {
	n := len(demos)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(demos[order[a]].items) < len(demos[order[b]].items) })
	var cols []*column
	for _, it := range demos[order[0]].items {
		c := &column{key: it.key, at: make([]*mergeItem, n)}
		c.at[order[0]] = it
		cols = append(cols, c)
	}
	for _, d := range order[1:] {
		items := demos[d].items
		pairs := lcs(cols, items)
		var out []*column
		ci, ii := 0, 0
		for _, p := range append(pairs, [2]int{len(cols), len(items)}) {
			for ; ci < p[0]; ci++ {
				out = append(out, cols[ci])
			}
			for ; ii < p[1]; ii++ {
				c := &column{key: items[ii].key, at: make([]*mergeItem, n)}
				c.at[d] = items[ii]
				out = append(out, c)
			}
			if p[0] < len(cols) {
				cols[p[0]].at[d] = items[p[1]]
				out = append(out, cols[p[0]])
				ci, ii = p[0]+1, p[1]+1
			}
		}
		cols = out
	}
	return cols
}

// lcs returns the matched (column, item) index pairs of a common
// subsequence of the columns' and the items' keys, in order, that is
// heaviest when a column weighs as many demonstrations as did it: of two
// ways to align, the one that keeps a step every demonstration did.
func lcs(cols []*column, items []*mergeItem) [][2]int {
	a, b := len(cols), len(items)
	t := make([][]int, a+1)
	for i := range t {
		t[i] = make([]int, b+1)
	}
	for i := a - 1; i >= 0; i-- {
		w := strings.Count(cols[i].present(), ",")
		for j := b - 1; j >= 0; j-- {
			t[i][j] = max(t[i+1][j], t[i][j+1])
			if cols[i].key == items[j].key {
				t[i][j] = max(t[i][j], t[i+1][j+1]+w)
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < a && j < b; {
		w := strings.Count(cols[i].present(), ",")
		switch {
		case cols[i].key == items[j].key && t[i][j] == t[i+1][j+1]+w:
			out = append(out, [2]int{i, j})
			i++
			j++
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// gapRun is a run of consecutive columns done by the same demonstrations.
type gapRun struct {
	set  string
	cols []*column
}

// runsOf splits a gap (columns not every demonstration did) into runs.
func runsOf(cols []*column) []*gapRun {
	var out []*gapRun
	for _, c := range cols {
		if k := len(out) - 1; k >= 0 && out[k].set == c.present() {
			out[k].cols = append(out[k].cols, c)
			continue
		}
		out = append(out, &gapRun{set: c.present(), cols: []*column{c}})
	}
	return out
}

// disjoint reports whether no demonstration did two of the runs: they are
// alternatives, one per kind of instance.
func disjoint(runs []*gapRun) bool {
	seen := map[int]bool{}
	for _, r := range runs {
		for i, it := range r.cols[0].at {
			if it != nil {
				if seen[i] {
					return false
				}
				seen[i] = true
			}
		}
	}
	return len(runs) > 1
}
