// Package types defines the value types of the cogflow language and their
// mapping onto go-cty, the value system the runtime and function library use.
//
// The language has a small closed set of types: text, number, bool, element,
// url, window, key, secret and list<T>. Any is used by the checker for values
// whose type it cannot know (an error already reported, say) so that one
// mistake does not cascade into many.
package types

import (
	"reflect"

	"github.com/zclconf/go-cty/cty"
)

// Kind is the basic shape of a type.
type Kind int

// The kinds of the language. Void is the "type" of actions that produce no
// value; it is never written in source.
const (
	Invalid Kind = iota
	Any
	Void
	Text
	Number
	Bool
	Element
	URL
	Window
	Key
	Secret
	List
)

// Type is a language type. Elem is set for lists only.
type Type struct {
	Kind Kind
	Elem *Type
}

// Convenient values for the basic types.
var (
	AnyT     = Type{Kind: Any}
	VoidT    = Type{Kind: Void}
	TextT    = Type{Kind: Text}
	NumberT  = Type{Kind: Number}
	BoolT    = Type{Kind: Bool}
	ElementT = Type{Kind: Element}
	URLT     = Type{Kind: URL}
	WindowT  = Type{Kind: Window}
	KeyT     = Type{Kind: Key}
	SecretT  = Type{Kind: Secret}
)

// ListOf returns the type list<elem>.
func ListOf(elem Type) Type { return Type{Kind: List, Elem: &elem} }

var basicNames = map[string]Kind{
	"text": Text, "number": Number, "bool": Bool, "element": Element,
	"url": URL, "window": Window, "key": Key, "secret": Secret,
}

// Lookup returns the basic type with the given source name ("list" is not a
// basic type: it needs an element type).
func Lookup(name string) (Type, bool) {
	k, ok := basicNames[name]
	return Type{Kind: k}, ok
}

// Names returns the source names of the basic types plus "list".
func Names() []string {
	return []string{"text", "number", "bool", "element", "list", "url", "window", "key", "secret"}
}

// String renders the type as it is written in source.
func (t Type) String() string {
	switch t.Kind {
	case Any:
		return "any"
	case Void:
		return "nothing"
	case Text:
		return "text"
	case Number:
		return "number"
	case Bool:
		return "bool"
	case Element:
		return "element"
	case URL:
		return "url"
	case Window:
		return "window"
	case Key:
		return "key"
	case Secret:
		return "secret"
	case List:
		if t.Elem == nil {
			return "list<any>"
		}
		return "list<" + t.Elem.String() + ">"
	}
	return "invalid"
}

// Equal reports whether two types are the same.
func (t Type) Equal(u Type) bool {
	if t.Kind != u.Kind {
		return false
	}
	if t.Kind != List {
		return true
	}
	if t.Elem == nil || u.Elem == nil {
		return t.Elem == u.Elem
	}
	return t.Elem.Equal(*u.Elem)
}

// HasAny reports whether the type is, or contains, Any.
func (t Type) HasAny() bool {
	if t.Kind == List {
		return t.Elem == nil || t.Elem.HasAny()
	}
	return t.Kind == Any
}

// IsTextual reports whether values of t are strings at run time.
func (t Type) IsTextual() bool {
	switch t.Kind {
	case Text, URL, Key, Secret:
		return true
	}
	return false
}

// AssignableTo reports whether a value of type t may be passed where a value
// of type to is expected. Strings flow freely between text, url and key (the
// checker validates literals separately); numbers may become text because the
// runtime formats them; secrets may become text, and the checker tracks them
// separately so they never reach a prompt.
func (t Type) AssignableTo(to Type) bool {
	if t.Kind == Any || to.Kind == Any {
		return true
	}
	if t.Equal(to) {
		return true
	}
	switch to.Kind {
	case Text:
		return t.IsTextual() || t.Kind == Number
	case URL, Key:
		return t.Kind == Text
	case List:
		return t.Kind == List && (t.Elem == nil || to.Elem == nil || t.Elem.AssignableTo(*to.Elem))
	}
	return false
}

// ElementCapsule is the cty type of UI elements. The runtime stores its own
// element handles in it; the language only needs the type's identity.
var ElementCapsule = cty.Capsule("element", reflect.TypeOf((*any)(nil)).Elem())

// WindowCapsule is the cty type of windows and tabs.
var WindowCapsule = cty.Capsule("window", reflect.TypeOf((*any)(nil)).Elem())

// ToCty maps a language type to the cty type that carries its values.
func (t Type) ToCty() cty.Type {
	switch t.Kind {
	case Text, URL, Key, Secret:
		return cty.String
	case Number:
		return cty.Number
	case Bool:
		return cty.Bool
	case Element:
		return ElementCapsule
	case Window:
		return WindowCapsule
	case List:
		if t.Elem == nil {
			return cty.List(cty.DynamicPseudoType)
		}
		return cty.List(t.Elem.ToCty())
	}
	return cty.DynamicPseudoType
}

// FromCty maps a cty type back to the language. Types the language has no name
// for (objects, maps, tuples) become Any so that the checker stays quiet about
// what it cannot describe.
func FromCty(ct cty.Type) Type {
	switch {
	case ct == cty.String:
		return TextT
	case ct == cty.Number:
		return NumberT
	case ct == cty.Bool:
		return BoolT
	case ct.Equals(ElementCapsule):
		return ElementT
	case ct.Equals(WindowCapsule):
		return WindowT
	case ct.IsListType() || ct.IsSetType():
		return ListOf(FromCty(ct.ElementType()))
	case ct.IsTupleType():
		return ListOf(AnyT)
	}
	return AnyT
}
