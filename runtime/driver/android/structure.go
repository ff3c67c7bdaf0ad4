package android

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// minGenericItems is how many children of one structure a container
// without a list class needs to count as a list (a Deepest Iterative
// Ancestor): two similar rows are often just a form.
const minGenericItems = 3

// lists marks list items. RecyclerView, ListView and GridView children
// are items whatever their shape (a settings screen mixes categories and
// rows); another container is a list when at least three of its children
// share one structure — their class and their children's classes, two
// levels down — and those children are its items.
func (b *builder) lists() {
	for i, e := range b.t.Elements {
		kids := b.kids[i]
		if e.Role == "list" {
			if simpleName(e.Class) == "TabWidget" {
				for _, k := range kids {
					if b.t.Elements[k].Role == "" || b.t.Elements[k].Role == "text" {
						b.t.Elements[k].Role = "tab"
					}
				}
			}
			b.mark(e, kids)
			continue
		}
		if len(kids) < minGenericItems || e.Role == "textbox" {
			continue
		}
		groups := map[string][]int{}
		for _, k := range kids {
			s := b.shape(k, 2)
			groups[s] = append(groups[s], k)
		}
		best := ""
		for s, g := range groups {
			if len(g) > len(groups[best]) || (len(g) == len(groups[best]) && s < best) {
				best = s
			}
		}
		items := groups[best]
		// Texts side by side are a paragraph, not a list; items must be
		// something a person acts on or that groups several things.
		if len(items) < minGenericItems || !b.actionable(items[0]) {
			continue
		}
		if e.Role == "" {
			e.Role = "list"
		}
		b.mark(e, items)
	}
}

// actionable reports whether an item candidate looks like a list item: a
// group of views (icon and label, title and summary) without a text field
// in it. Rows of fields are a form; a row of lone icons is a toolbar.
func (b *builder) actionable(k int) bool {
	return len(b.kids[k]) > 0 && !b.hasField(k)
}

func (b *builder) hasField(k int) bool {
	if b.t.Elements[k].Role == "textbox" {
		return true
	}
	for _, c := range b.kids[k] {
		if b.hasField(c) {
			return true
		}
	}
	return false
}

func (b *builder) mark(list *driver.Element, items []int) {
	for idx, k := range items {
		b.t.Elements[k].List = &driver.ListInfo{Container: list.Ref, Index: idx, Size: len(items)}
	}
}

// shape is an element's structure to depth levels: its class and its
// children's shapes.
func (b *builder) shape(i, depth int) string {
	s := simpleName(b.t.Elements[i].Class)
	if depth == 0 || len(b.kids[i]) == 0 {
		return s
	}
	parts := make([]string, len(b.kids[i]))
	for j, k := range b.kids[i] {
		parts[j] = b.shape(k, depth-1)
	}
	return s + "(" + strings.Join(parts, ",") + ")"
}

// roles refines class roles by place and behavior: list items, toolbar
// titles as headings, dialogs, links in web content, and clickable layouts
// or images as buttons (they are what a person taps).
func (b *builder) roles() {
	for i, e := range b.t.Elements {
		r := b.raw(i)
		n := r.n
		switch {
		case simpleName(n.Class) == "CheckedTextView" && n.Checkable:
			e.Role = "checkbox" // a choice list's row (simple_list_item_multiple_choice)
		case e.List != nil && (e.Role == "" || e.Role == "text"):
			e.Role = "listitem" // ListView rows are often a bare TextView (simple_list_item_1)
		case r.bar && e.Role == "text" && !n.Clickable:
			e.Role = "heading"
		case strings.HasSuffix(n.ResourceID, "id/alertTitle"):
			e.Role = "heading"
		case n.ResourceID == "android:id/parentPanel" || simpleName(n.Class) == "Dialog":
			e.Role = "dialog"
		case r.web && n.Clickable && (e.Role == "" || e.Role == "text") && b.own(i) != "":
			e.Role = "link"
		case (e.Role == "" || e.Role == "image" || e.Role == "text") && (n.Clickable || n.LongClickable) && !n.Scrollable:
			e.Role = "button"
		case e.Role == "" && n.Scrollable:
			e.Role = "region"
		case e.Role == "" && len(b.kids[i]) == 0 && r.text != "":
			e.Role = "text" // web content's text nodes are plain Views
		}
		if e.List != nil && e.Role == "button" && isLayout(e.Class) {
			e.Role = "listitem"
		}
		if e.Role == "listitem" && b.inTabs(e.List.Container) {
			e.Role = "tab"
		}
	}
}

// names gives elements their accessible names, labels and descriptions,
// the way TalkBack would announce them: content-desc first; a button or
// item is named by its first text and described by the rest; a field by
// its label (a text just before it) or its hint; an unnamed toggle in a
// settings row by the row's title.
func (b *builder) names() {
	for i, e := range b.t.Elements {
		r := b.raw(i)
		texts := b.all[i]
		switch e.Role {
		case "textbox":
			e.Label = b.labelBefore(i)
			e.Name = first(r.desc, e.Label, e.Placeholder)
			if p := e.Parent; p >= 0 && len(b.kids[p]) <= 3 {
				e.Description = b.context(i) // helper or error text in the field's own wrapper
			}
		case "button", "listitem", "tab", "link", "menuitem", "checkbox", "radio", "switch", "dialog":
			e.Name = r.desc
			if e.Name == "" && len(texts) > 0 {
				e.Name = texts[0]
				texts = texts[1:]
			}
			if e.Name == "" {
				e.Name = b.descIn(i)
			}
			if e.Name == "" && (e.Role == "checkbox" || e.Role == "switch" || e.Role == "radio") {
				e.Label = b.rowTitle(i)
				e.Name = e.Label
			}
			if e.Role != "dialog" {
				e.Description = clip(strings.Join(texts, " "), maxText)
			}
		case "image", "region", "list", "combobox", "slider":
			e.Name = first(r.desc, r.text)
		default:
			e.Name = r.desc
		}
		e.Name = clip(e.Name, maxName)
		if e.Role == "listitem" || e.Role == "list" {
			e.Description = ""
		}
	}
}

// labelBefore is the text that labels field i: the nearest text sibling
// before it, or, for a field wrapped alone in a layout, the text before
// the wrapper.
func (b *builder) labelBefore(i int) string {
	for k, hops := i, 0; k >= 0 && hops < 2; k, hops = b.t.Elements[k].Parent, hops+1 {
		p := b.t.Elements[k].Parent
		if p < 0 {
			return ""
		}
		sibs := b.kids[p]
		for j := len(sibs) - 1; j >= 0; j-- {
			s := sibs[j]
			if s >= k {
				continue
			}
			se := b.t.Elements[s]
			if se.Role == "text" && len(b.kids[s]) == 0 && !b.raw(s).n.Clickable {
				return clip(se.Text, maxName)
			}
			if se.Role != "image" {
				break // something else sits between them
			}
		}
		if len(sibs) > 1 {
			return ""
		}
	}
	return ""
}

// context describes a field by the texts after it in its group (helper
// or error text).
func (b *builder) context(i int) string {
	p := b.t.Elements[i].Parent
	if p < 0 {
		return ""
	}
	var out []string
	after := false
	for _, s := range b.kids[p] {
		if s == i {
			after = true
			continue
		}
		if after && b.t.Elements[s].Role == "text" {
			out = append(out, b.t.Elements[s].Text)
		}
	}
	return clip(strings.Join(out, " "), maxText)
}

// rowTitle is the first text of the nearest ancestor with text: the title
// of the settings row a switch sits in.
func (b *builder) rowTitle(i int) string {
	for k, hops := b.t.Elements[i].Parent, 0; k >= 0 && hops < 3; k, hops = b.t.Elements[k].Parent, hops+1 {
		if len(b.all[k]) > 0 {
			return clip(b.all[k][0], maxName)
		}
	}
	return ""
}

// paths give each element its structural path: simple class names from
// the root, with a 1-based index among same-named kept siblings when
// there are several.
func (b *builder) paths() {
	for i, e := range b.t.Elements {
		seg := simpleName(e.Class)
		if seg == "" {
			seg = "node"
		}
		if e.Parent >= 0 {
			n, at := 0, 0
			for _, s := range b.kids[e.Parent] {
				if simpleName(b.t.Elements[s].Class) == simpleName(e.Class) {
					n++
					if s == i {
						at = n
					}
				}
			}
			if n > 1 {
				seg += "[" + strconv.Itoa(at) + "]"
			}
			e.Path = b.t.Elements[e.Parent].Path + "/" + seg
			continue
		}
		e.Path = seg
	}
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// inTabs reports whether a list is a tab strip: it or the view holding it
// has "tab" in its resource-id (TabLayout, tab_layout, tabs), as Material
// tab strips that report themselves as plain layouts do.
func (b *builder) inTabs(ref string) bool {
	for i, e := range b.t.Elements {
		if e.Ref != ref {
			continue
		}
		for k, hops := i, 0; k >= 0 && hops < 2; k, hops = b.t.Elements[k].Parent, hops+1 {
			if tabID.MatchString(strings.ToLower(b.t.Elements[k].ID)) {
				return true
			}
		}
		return false
	}
	return false
}

// tabID matches resource-ids of tab strips: tabs, tab_layout, tabLayout,
// main_tabs, but not table or stable.
var tabID = regexp.MustCompile(`(^|[_./:])tabs?($|[_.])|tablayout`)
