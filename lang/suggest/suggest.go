// Package suggest finds the known names closest to a misspelled one, for
// "did you mean …" hints in diagnostics.
package suggest

import "sort"

// Closest returns up to n candidates nearest to name by edit distance,
// nearest first, keeping only those close enough to be a plausible typo
// (at most a third of the name's length, and at least 1 edit).
func Closest(name string, candidates []string, n int) []string {
	limit := max(len(name)/3, 1)
	type scored struct {
		name string
		dist int
	}
	var out []scored
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := Distance(name, c); d <= limit {
			out = append(out, scored{c, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].dist != out[j].dist {
			return out[i].dist < out[j].dist
		}
		return out[i].name < out[j].name
	})
	names := make([]string, 0, n)
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].name)
	}
	return names
}

// Distance is the edit distance between two strings where swapping two
// neighbouring characters counts as one edit, as people type ("nmae" for
// "name"). It counts bytes: names in cogflow are ASCII.
func Distance(a, b string) int {
	// Three rows: the one before the previous is needed for swaps.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
