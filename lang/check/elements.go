package check

import (
	"sort"

	"github.com/cogflow/cogflow/lang/types"
)

// ElementRoles are the element constructors: `button(name: "Search")`
// describes an element of role button. `element(…)` leaves the role open.
var ElementRoles = map[string]bool{
	"element": true, "button": true, "link": true, "textbox": true, "checkbox": true,
	"radio": true, "combobox": true, "listbox": true, "list": true, "listitem": true,
	"menu": true, "menuitem": true, "option": true, "tab": true, "table": true,
	"row": true, "cell": true, "heading": true, "image": true, "text": true,
	"dialog": true, "region": true, "slider": true, "switch": true, "tree": true,
	"treeitem": true,
}

// ElementAttrs are the attributes an element description may state, with
// their types. They are what the runtime scores live elements against.
var ElementAttrs = map[string]types.Type{
	"id": txt, "name": txt, "text": txt, "role": txt, "description": txt,
	"path": txt, "class": txt, "value": txt, "placeholder": txt, "label": txt,
	"href": txt, "index": num, "within": el,
}

// elementMembers are the properties of an element value.
var elementMembers = map[string]types.Type{
	"text": txt, "name": txt, "value": txt, "id": txt, "role": txt,
	"description": txt, "href": txt, "index": num, "class": txt,
	"checked": types.BoolT, "enabled": types.BoolT, "visible": types.BoolT,
}

// ElementPredicates are the functions that test the screen for an
// element, for conditions: exists(e) is true when the description picks
// exactly one element now, visible(e) when it exists and is shown. Neither
// waits for the element, and an ambiguous description is an error.
var ElementPredicates = map[string]bool{"exists": true, "visible": true}

// windowMembers are the properties of a window value.
var windowMembers = map[string]types.Type{"title": txt, "url": txt}

// Method is a method callable on an element value.
type Method struct {
	Params []Param
	Result types.Type
}

var elementMethods = map[string]Method{
	"cell": {Params: []Param{req("header", txt)}, Result: el},
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
