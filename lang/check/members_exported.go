package check

import "github.com/cogflow/cogflow/lang/types"

// Properties returns the properties `x.name` reads on a value of type t
// (an element's text, value …; a window's title, url) by name, nil for a
// type without properties: the checker's own table, for an editor's
// completion after the dot.
func Properties(t types.Type) map[string]types.Type {
	switch t.Kind {
	case types.Element:
		return elementMembers
	case types.Window:
		return windowMembers
	}
	return nil
}

// Methods returns the methods callable on a value of type t (an
// element's cell(header)), nil for a type without methods.
func Methods(t types.Type) map[string]Method {
	if t.Kind == types.Element {
		return elementMethods
	}
	return nil
}
