package android

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// hit finds the element a touch at (x, y) went to, as Android dispatches
// it: down through the elements containing the point, later siblings first
// (they are drawn on top), to the deepest; then up to the nearest one that
// takes touches (clickable, long-clickable, checkable or a field). It
// returns the index in t, or -1 when the point is outside the window (the
// soft keyboard and the system bars are other windows).
func hit(t *driver.Tree, h *hierarchy, x, y int) int {
	deepest := descend(t, x, y)
	if deepest < 0 {
		return -1
	}
	flat := flatten(h)
	for k := deepest; k >= 0; k = t.Elements[k].Parent {
		if r := rawOf(flat, t.Elements[k]); r != nil && (r.n.Clickable || r.n.LongClickable || r.n.Checkable || r.role == "textbox") {
			return k
		}
	}
	return deepest
}

// scrollableAt finds the scrollable element a swipe at (x, y) moved, or -1.
func scrollableAt(t *driver.Tree, h *hierarchy, x, y int) int {
	deepest := descend(t, x, y)
	flat := flatten(h)
	for k := deepest; k >= 0; k = t.Elements[k].Parent {
		if r := rawOf(flat, t.Elements[k]); r != nil && r.n.Scrollable {
			return k
		}
	}
	return -1
}

// descend returns the deepest element containing the point, -1 when no
// root does.
func descend(t *driver.Tree, x, y int) int {
	kids := make([][]int, len(t.Elements))
	var roots []int
	for i, e := range t.Elements {
		if e.Parent >= 0 {
			kids[e.Parent] = append(kids[e.Parent], i)
		} else {
			roots = append(roots, i)
		}
	}
	in := func(i int) bool {
		b := t.Elements[i].Bounds
		fx, fy := float64(x), float64(y)
		return fx >= b.X && fx < b.X+b.W && fy >= b.Y && fy < b.Y+b.H
	}
	at := -1
	for level := roots; ; {
		next := -1
		for j := len(level) - 1; j >= 0; j-- {
			if in(level[j]) {
				next = level[j]
				break
			}
		}
		if next < 0 {
			return at
		}
		at, level = next, kids[next]
	}
}

// rawOf is the dump node an element came from (its ref is "n" and the
// node's index in document order).
func rawOf(flat []raw, e *driver.Element) *raw {
	i, err := strconv.Atoi(strings.TrimPrefix(e.Ref, "n"))
	if err != nil || i < 0 || i >= len(flat) {
		return nil
	}
	return &flat[i]
}
