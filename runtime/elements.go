package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Elem is the value of an element in a running workflow. It remembers how
// to find the element again rather than a handle alone: pages change between
// steps, so every use re-resolves it — by its description for anchors and
// constructors, by its structural origin for rows, cells and list items.
type Elem struct {
	// Desc describes the element for anchoring; nil for structural ones.
	Desc *Locator
	// derive recomputes a structural element (a row, a cell, the next
	// item) from the current UI.
	derive func(ctx context.Context, in *Interp) (*driver.Element, error)
	// Live is what it resolved to last.
	Live *driver.Element
	// Origin says where the value came from, for messages and journals:
	// `anchor search_box`, `rows(reading_list)[2]`.
	Origin string
}

// Locator is an element description: the attributes of a constructor
// such as textbox(name: "Search", id: "q"), or of an element seen earlier.
type Locator struct {
	Role   string
	Attrs  map[string]string // id, name, text, label, placeholder, …
	Index  int               // position among matching list items; -1 when not given
	Within *Elem
}

func (l *Locator) String() string {
	var parts []string
	keys := make([]string, 0, len(l.Attrs))
	for k := range l.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "frame" { // a list of numbers, kept as "0,1"
			parts = append(parts, "frame: ["+strings.ReplaceAll(l.Attrs[k], ",", ", ")+"]")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %q", k, l.Attrs[k]))
	}
	if l.Index >= 0 {
		parts = append(parts, fmt.Sprintf("index: %d", l.Index))
	}
	role := l.Role
	if role == "" {
		role = "element"
	}
	return role + "(" + strings.Join(parts, ", ") + ")"
}

// elemVal wraps an element for cty, the way the function library expects.
func elemVal(e *Elem) cty.Value {
	var h any = e
	return cty.CapsuleVal(types.ElementCapsule, &h)
}

// asElem unwraps an element value.
func asElem(v cty.Value) (*Elem, error) {
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(types.ElementCapsule) {
		return nil, fmt.Errorf("not an element")
	}
	p, ok := v.EncapsulatedValue().(*any)
	if !ok || p == nil {
		return nil, fmt.Errorf("not an element")
	}
	e, ok := (*p).(*Elem)
	if !ok {
		return nil, fmt.Errorf("not an element")
	}
	return e, nil
}

// snapshotLocator describes a live element by what identifies it, so that
// an element chosen once (by a person or an LLM) can be found again. Every
// attribute must hold when it is (anchoring's rule), path included: of two
// "Reply" buttons the path is what tells them apart, and if the chosen one
// is gone the other is not taken for it. A field's text is its content,
// which the workflow may type into, so it is left out.
func snapshotLocator(el *driver.Element) *Locator {
	l := &Locator{Role: el.Role, Attrs: map[string]string{}, Index: -1}
	text := el.Text
	if el.Editable {
		text = ""
	}
	for k, v := range map[string]string{"id": el.ID, "name": el.Name, "text": text, "href": el.Href, "path": el.Path} {
		if v != "" {
			l.Attrs[k] = v
		}
	}
	return l
}

// describe renders a live element for candidate lists.
func describe(el *driver.Element) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			if len(v) > 60 {
				v = v[:57] + "…"
			}
			parts = append(parts, fmt.Sprintf("%s: %q", k, v))
		}
	}
	add("name", el.Name)
	if el.Text != el.Name {
		add("text", el.Text)
	}
	add("id", el.ID)
	add("label", el.Label)
	add("path", el.Path)
	role := el.Role
	if role == "" {
		role = "element"
	}
	return role + "(" + strings.Join(parts, ", ") + ")"
}

// DriftError says that a structural element (a row, a cell, a list item,
// next(…)) found again through its structure is no longer the element it
// was: the list changed under the workflow, and acting on whatever now
// holds the place would act on another element.
type DriftError struct {
	Origin   string
	Was, Now *driver.Element
}

func (e *DriftError) Error() string {
	return fmt.Sprintf("%s was %s and is now %s: the page changed under it, so the step does not act on another element",
		e.Origin, describe(e.Was), describe(e.Now))
}

// sameElement reports whether now, found again through the structure
// that first gave was, is still that element: the driver's handle and its
// name are unchanged (its text may have changed by the workflow typing
// into it), or its role, id, name and text all are (a page that rendered
// it anew). The text of a field is its state, not its identity.
func sameElement(was, now *driver.Element) bool {
	if !strings.EqualFold(was.Role, now.Role) || was.ID != now.ID || normalize(was.Name) != normalize(now.Name) {
		return false
	}
	return was.Ref == now.Ref || was.Editable || normalize(was.Text) == normalize(now.Text)
}

// refind returns the one element of cands that is still was (sameElement),
// or nil when none or several are: an item that moved is followed, an item
// that is gone or has look-alikes is not guessed at.
func refind(cands []*driver.Element, was *driver.Element) *driver.Element {
	var found *driver.Element
	for _, c := range cands {
		if sameElement(was, c) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}
