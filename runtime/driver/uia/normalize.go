package uia

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// maxText caps an element's Text, in runes, as the browser driver does:
// elements carry enough text to anchor and describe them, ScreenText
// carries the rest.
const maxText = 200

// Normalize turns a UIA node tree into the elements of a driver.Tree:
// pre-order, parents before children, with Parent indexes, Paths, list
// membership and table cells. It prunes what a person neither sees nor
// names — see prune — so the tree holds what a workflow can refer to.
//
// It makes every node's Ref unique (a node without a RuntimeId, or with a
// repeated one, gets "p:" and its path), so the driver can map an
// element's Ref back to its node; it changes nothing else.
func Normalize(root *Node) []*driver.Element {
	if root == nil {
		return nil
	}
	n := &normalizer{index: map[*Node]int{}, refs: map[string]bool{}}
	n.emit(root, -1, segment(root))
	n.lists(root)
	n.tables(root)
	return n.els
}

// normalizer holds the state of one Normalize call.
type normalizer struct {
	els   []*driver.Element
	index map[*Node]int // element index of a kept node
	refs  map[string]bool
}

// pruning decisions.
const (
	keep    = iota
	drop    // the node and its subtree are left out
	flatten // the node is left out, its children take its place
)

// prune decides what the normalized tree keeps of a node, following
// AutoTask's low-importance criteria: chrome that is offscreen and has no
// size and no name (the collapsed scroll bars of a text box) is dropped
// with its subtree; unnamed layout containers (pane, group, custom)
// without an id or a pattern to act with are flattened into their parent;
// the same without children are dropped. Lists and tables are never
// flattened: they carry ListInfo and CellInfo.
func prune(n *Node) int {
	if n.Offscreen && n.Rect.W <= 0 && n.Rect.H <= 0 && n.Name == "" {
		return drop
	}
	switch n.ControlType {
	case ctPane, ctGroup, ctCustom:
	default:
		return keep
	}
	if n.Name != "" || n.AutomationID != "" || actionable(n) || isTable(n) {
		return keep
	}
	if len(n.Children) == 0 {
		return drop
	}
	return flatten
}

// actionable reports whether a node supports a pattern that acts.
func actionable(n *Node) bool {
	if n == nil {
		return false
	}
	for _, p := range []int{PatternInvoke, PatternToggle, PatternSelectionItem, PatternExpandCollapse, PatternValue, PatternSelection, PatternRangeValue, PatternText} {
		if n.Has(p) {
			return true
		}
	}
	return false
}

// kids are the children of n in the normalized tree: flattened children
// replaced by their own kids, dropped ones left out.
func kids(n *Node) []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c == nil {
			continue
		}
		switch prune(c) {
		case keep:
			out = append(out, c)
		case flatten:
			out = append(out, kids(c)...)
		}
	}
	return out
}

// segment is a node's step in a Path: its class name, or its control
// type's name when it has none.
func segment(n *Node) string {
	if n.ClassName != "" {
		return strings.ReplaceAll(n.ClassName, "/", "_")
	}
	return ControlTypeName(n.ControlType)
}

// emit appends n (always kept: the root, or a kept child) and its kept
// subtree.
func (z *normalizer) emit(n *Node, parent int, path string) {
	if n.Ref == "" || z.refs[n.Ref] {
		n.Ref = "p:" + path
	}
	z.refs[n.Ref] = true
	el := element(n)
	el.Parent, el.Path = parent, path
	z.index[n] = len(z.els)
	z.els = append(z.els, el)
	me := len(z.els) - 1
	ks := kids(n)
	counts := map[string]int{}
	for _, k := range ks {
		counts[segment(k)]++
	}
	seen := map[string]int{}
	for _, k := range ks {
		s := segment(k)
		seen[s]++
		step := s
		if counts[s] > 1 {
			step = fmt.Sprintf("%s[%d]", s, seen[s])
		}
		z.emit(k, me, path+"/"+step)
	}
	el.Text = capText(textOf(n, ks))
}

// element converts a node's own properties.
func element(n *Node) *driver.Element {
	el := &driver.Element{
		Ref: n.Ref, Role: n.Role(), Name: clean(n.Name), ID: clean(n.AutomationID),
		Class: clean(n.ClassName), Label: clean(n.LabeledBy), Description: clean(n.HelpText),
		Bounds:  n.Rect,
		Visible: !n.Offscreen && n.Rect.W > 0 && n.Rect.H > 0,
		Enabled: n.Enabled, Focus: n.Focused,
		Checked: n.ToggleState == 1 || n.Selected,
		Secret:  n.Password,
	}
	if !n.Password {
		el.Value = clean(n.Value)
	}
	if n.Has(PatternValue) && !n.ReadOnly && n.Enabled {
		switch el.Role {
		case "textbox", "combobox", "document", "spinbutton", "cell", "custom":
			el.Editable = true
		}
	}
	return el
}

// textOf is what a node shows: a text's name, or the texts of the text
// elements inside it; a button or item with no text inside shows its
// name. Repeats of the same text (a WPF button's name and its TextBlock)
// are given once.
func textOf(n *Node, ks []*Node) string {
	if n.ControlType == ctText {
		return clean(n.Name)
	}
	var parts []string
	var collect func(ns []*Node)
	collect = func(ns []*Node) {
		for _, k := range ns {
			if k.ControlType == ctText {
				if t := clean(k.Name); t != "" && (len(parts) == 0 || parts[len(parts)-1] != t) {
					parts = append(parts, t)
				}
				continue
			}
			collect(kids(k))
		}
	}
	collect(ks)
	if len(parts) == 0 {
		switch n.Role() {
		case "button", "link", "listitem", "menuitem", "tab", "treeitem", "checkbox", "radio", "columnheader":
			return clean(n.Name)
		}
	}
	return strings.Join(parts, " ")
}

// clean trims and collapses whitespace, as the Element contract asks.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func capText(s string) string {
	r := []rune(s)
	if len(r) <= maxText {
		return s
	}
	return string(r[:maxText-1]) + "…"
}

// itemTypes are, for each list container type, the control types of its
// items.
var itemTypes = map[int][]int{
	ctList:     {ctListItem, ctDataItem},
	ctComboBox: {ctListItem},
	ctTree:     {ctTreeItem},
	ctTreeItem: {ctTreeItem},
	ctMenu:     {ctMenuItem},
	ctMenuBar:  {ctMenuItem},
	ctMenuItem: {ctMenuItem},
	ctTab:      {ctTabItem},
	ctDataGrid: {ctDataItem, ctListItem},
	ctTable:    {ctDataItem, ctListItem},
	ctToolBar:  {ctButton, ctSplitButton, ctCheckBox, ctRadioButton},
}

// notItems are control types never taken for items of a generic list:
// decoration repeats without being iterative content.
var notItems = map[int]bool{ctText: true, ctSeparator: true, ctScrollBar: true, ctThumb: true, ctImage: true, ctTitleBar: true, ctHeader: true}

// lists sets ListInfo on the items of lists: the children of a List,
// Tree, Menu, Tab… of its item types, or — the Deepest Iterative Ancestor
// of any other container — three or more children of the same control
// type and class that make up at least half of its children.
func (z *normalizer) lists(n *Node) {
	ks := kids(n)
	var items []*Node
	if types, ok := itemTypes[n.ControlType]; ok {
		for _, k := range ks {
			for _, t := range types {
				if k.ControlType == t {
					items = append(items, k)
					break
				}
			}
		}
	} else {
		items = iterative(ks)
	}
	for i, it := range items {
		z.els[z.index[it]].List = &driver.ListInfo{Container: n.Ref, Index: i, Size: len(items)}
	}
	for _, k := range ks {
		z.lists(k)
	}
}

// iterative finds the largest group of same-signature children, when it
// is a list: three or more, and at least half of the children.
func iterative(ks []*Node) []*Node {
	groups := map[string][]*Node{}
	best := ""
	for _, k := range ks {
		if notItems[k.ControlType] {
			continue
		}
		sig := fmt.Sprintf("%d/%s", k.ControlType, k.ClassName)
		groups[sig] = append(groups[sig], k)
		if len(groups[sig]) > len(groups[best]) {
			best = sig
		}
	}
	if g := groups[best]; len(g) >= 3 && 2*len(g) >= len(ks) {
		return g
	}
	return nil
}
