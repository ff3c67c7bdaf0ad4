package graph

import (
	"slices"
	"sort"
	"unicode/utf8"
)

// The page's geometry, in CSS pixels. Labels are drawn in a monospace font
// so that a label's width can be told from its length here, without a
// browser measuring text.
const (
	pageLeft   = 28.0 // room for the order edges of the outermost column
	pageTop    = 12.0
	rowHeight  = 32.0
	boxHeight  = 24.0
	indent     = 18.0 // how far a cluster's body is moved in, each side
	charWidth  = 7.3  // one character at 12px monospace
	labelRunes = 56   // longer labels are cut on the page (the title keeps them whole)
	laneGap    = 14.0 // between the columns of the right-hand edges
	labelRoom  = 150.0
)

// box is where one node is drawn. For a cluster, the box holds the
// cluster's head row and its whole body; Y and Height are the head's row.
type box struct {
	node          *Node
	X, Y, W       float64
	Height        float64 // the whole box: one row for a step, head and body for a cluster
	depth         int
	first, parent string // the first node of a cluster's body; the enclosing cluster
}

// right is the x where the node's right-hand edges start and end.
func (b *box) right() float64 { return b.X + b.W }

// mid is the y of the middle of the node's own row (a cluster's head).
func (b *box) mid() float64 { return b.Y + boxHeight/2 }

// route is one edge's path: left-hand for order edges without a label,
// else in a lane (a column) right of the nodes.
type route struct {
	edge *Edge
	left bool
	lane int
	path string
	// y0, y1 are the top and bottom of the edge's vertical run.
	y0, y1 float64
	// LabelX, LabelY place the edge's label, if it has one.
	labelX, labelY float64
}

// layout is the whole drawing: nodes in source order down one column,
// cluster bodies nested inside their clusters, edges beside.
type layout struct {
	boxes         map[string]*box
	order         []*box
	routes        []*route
	width, height float64
	columnRight   float64
}

// lay out the graph: one row per node in source order (the order Build
// adds them), a cluster's body indented inside its box.
func layOut(g *Graph) *layout {
	l := &layout{boxes: map[string]*box{}}
	children := map[string][]*Node{}
	for _, n := range g.Nodes {
		children[n.Loop] = append(children[n.Loop], n)
	}
	// The column is as wide as its widest row needs, counting the
	// indentation of every cluster around that row.
	width := 200.0
	var measure func(loop string, depth int)
	measure = func(loop string, depth int) {
		for _, n := range children[loop] {
			w := float64(utf8.RuneCountInString(shortLabel(n.Label, labelRunes)))*charWidth + 24 + 2*indent*float64(depth)
			width = max(width, w)
			measure(n.ID, depth+1)
		}
	}
	measure("", 0)
	l.columnRight = pageLeft + width
	y := pageTop
	var place func(loop string, depth int)
	place = func(loop string, depth int) {
		for _, n := range children[loop] {
			b := &box{node: n, X: pageLeft + indent*float64(depth), Y: y, W: width - 2*indent*float64(depth), depth: depth, parent: loop}
			l.boxes[n.ID] = b
			l.order = append(l.order, b)
			y += rowHeight
			if n.cluster() {
				if kids := children[n.ID]; len(kids) > 0 {
					b.first = kids[0].ID
				}
				place(n.ID, depth+1)
				y += 6
				b.Height = y - b.Y
				y += 8
			} else {
				b.Height = boxHeight
			}
		}
	}
	place("", 0)
	l.height = y + pageTop
	l.route(g)
	return l
}

// route draws each edge. An order edge without a label runs down the left
// of its nodes; every other edge leaves its source on the right, runs down
// a lane and comes back into its target. Lanes are given shortest edge
// first, each to the innermost lane where it overlaps no edge but those of
// its bus: edges of one kind from one node share a lane, as a bus with a
// branch to each target, so that an input every step uses takes one lane,
// not one per step.
func (l *layout) route(g *Graph) {
	var right []*route
	for _, e := range g.Edges {
		r := &route{edge: e}
		l.routes = append(l.routes, r)
		from, to := l.boxes[e.From], l.boxes[e.To]
		if from == nil || to == nil {
			continue // Build links only nodes it added; nothing to draw
		}
		if e.Kind == Order && e.Label == "" {
			r.left = true
			r.path = leftPath(from, to)
			continue
		}
		right = append(right, r)
	}
	for _, r := range right {
		a, b := l.boxes[r.edge.From].mid(), l.boxes[r.edge.To].mid()
		r.y0, r.y1 = min(a, b), max(a, b)
	}
	sorted := slices.Clone(right)
	slices.SortStableFunc(sorted, func(a, b *route) int {
		switch da, db := a.y1-a.y0, b.y1-b.y0; {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return 0
	})
	var lanes [][]segment
	for _, r := range sorted {
		r.lane = len(lanes)
		for i, lane := range lanes {
			if lo, hi, ok := fits(lane, r); ok {
				r.lane = i
				lanes[i] = occupy(lane, lo, hi, r)
				break
			}
		}
		if r.lane == len(lanes) {
			lanes = append(lanes, occupy(nil, 0, 0, r))
		}
		from, to := l.boxes[r.edge.From], l.boxes[r.edge.To]
		x := l.columnRight + laneGap*float64(r.lane+1)
		r.path = "M" + num(from.right()) + "," + num(from.mid()) + " H" + num(x) + " V" + num(to.mid()) + " H" + num(to.right()+2)
		r.labelX, r.labelY = x+3, (r.y0+r.y1)/2+4
	}
	l.placeLabels(sorted)
	l.width = l.columnRight + laneGap*float64(len(lanes)+1) + labelRoom
}

// bus names the edges that may share a lane: same source, same kind.
type bus struct {
	from string
	kind EdgeKind
}

// segment is a stretch of a lane one bus holds. A lane's segments are
// disjoint and sorted by y, so finding what an edge would overlap is a
// binary search.
type segment struct {
	y0, y1 float64
	bus    bus
}

// fits reports whether r can run in lane: the segments lane[lo:hi] it
// overlaps are all of its own bus.
func fits(lane []segment, r *route) (lo, hi int, ok bool) {
	lo = sort.Search(len(lane), func(i int) bool { return lane[i].y1 >= r.y0 })
	own := bus{r.edge.From, r.edge.Kind}
	for hi = lo; hi < len(lane) && lane[hi].y0 <= r.y1; hi++ {
		if lane[hi].bus != own {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// occupy puts r in lane, merging it with the segments lane[lo:hi] of its
// bus that it overlaps.
func occupy(lane []segment, lo, hi int, r *route) []segment {
	s := segment{r.y0, r.y1, bus{r.edge.From, r.edge.Kind}}
	if hi > lo {
		s.y0, s.y1 = min(s.y0, lane[lo].y0), max(s.y1, lane[hi-1].y1)
	}
	return slices.Replace(lane, lo, hi, s)
}

// leftPath draws an order edge: between two nodes of one block down the
// gutter left of them; from a cluster's head into its body's first node
// down the inside of the cluster.
func leftPath(from, to *box) string {
	if to.parent == from.node.ID {
		x := from.X + indent/2
		return "M" + num(x) + "," + num(from.Y+boxHeight) + " V" + num(to.mid()) + " H" + num(to.X)
	}
	x := min(from.X, to.X) - 7
	return "M" + num(from.X) + "," + num(from.mid()) + " H" + num(x) + " V" + num(to.mid()) + " H" + num(to.X)
}

// labelHeight and labelCharWidth size an edge's label (10px monospace).
const (
	labelHeight    = 12.0
	labelCharWidth = 6.1
)

// placeLabels moves each edge label up or down its lane, within the
// edge's span, to the nearest place where it overlaps no label placed
// before it; a label with no free place stays in the middle.
func (l *layout) placeLabels(routes []*route) {
	type rect struct{ x0, y0, x1, y1 float64 }
	// Placed labels by band of height, so that a label is checked only
	// against those near it.
	const band = 4 * labelHeight
	placed := map[int][]rect{}
	free := func(r rect) bool {
		for k := int(r.y0 / band); k <= int(r.y1/band); k++ {
			if slices.ContainsFunc(placed[k], func(p rect) bool {
				return r.x0 < p.x1 && p.x0 < r.x1 && r.y0 < p.y1 && p.y0 < r.y1
			}) {
				return false
			}
		}
		return true
	}
	place := func(r rect) {
		for k := int(r.y0 / band); k <= int(r.y1/band); k++ {
			placed[k] = append(placed[k], r)
		}
	}
	for _, r := range routes {
		if r.edge.Label == "" {
			continue
		}
		a, b := l.boxes[r.edge.From].mid(), l.boxes[r.edge.To].mid()
		lo, hi := min(a, b)+labelHeight, max(a, b)
		w := float64(utf8.RuneCountInString(shortLabel(edgeWord(r.edge), edgeLabelRunes))) * labelCharWidth
		mid := r.labelY
		box := func(y float64) rect { return rect{r.labelX, y - labelHeight + 2, r.labelX + w, y + 2} }
		for step := 0; step < 40; step++ {
			y := mid + float64((step+1)/2)*labelHeight*float64(1-2*(step%2))
			if y < lo || y > hi {
				continue
			}
			if free(box(y)) {
				r.labelY = y
				break
			}
		}
		place(box(r.labelY))
	}
}
