package journal

import (
	"reflect"

	"github.com/cogflow/cogflow/runtime/redact"
)

// Redacted replaces every secret in what the journal writes.
const Redacted = redact.Redacted

// redactor takes the run's secrets out of every event. Its set grows while
// the run goes on (the interpreter adds every text it derives from a
// secret), so each event is redacted with all that is known when it is
// written.
type redactor struct{ set *redact.Set }

func newRedactor(secrets *redact.Set) *redactor { return &redactor{set: secrets} }

// String redacts s.
func (r *redactor) String(s string) string { return r.set.String(s) }

// Contains reports whether s holds any secret, in any form.
func (r *redactor) Contains(s string) bool { return r.set.Holds(s) }

var (
	outcomeType = reflect.TypeFor[Outcome]()
	sourceType  = reflect.TypeFor[Source]()
)

// redactValue returns a deep copy of v with every string redacted: struct
// fields, slice elements, map keys and values, through pointers and
// interfaces. v itself, and everything it points to, is left untouched.
// Outcome and Source values from the fixed vocabulary stay readable (they
// carry nothing of the user's); any other value of those types is redacted.
func redactValue[T any](r *redactor, v T) T {
	if r.set.Len() == 0 {
		return v
	}
	return r.copy(reflect.ValueOf(&v).Elem()).Interface().(T)
}

func (r *redactor) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if (v.Type() == outcomeType && outcomes[Outcome(s)]) || (v.Type() == sourceType && sources[Source(s)]) {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.SetString(r.String(s))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if f := out.Field(i); f.CanSet() {
				f.Set(r.copy(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(r.copy(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			out.Index(i).Set(r.copy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(r.copy(it.Key()), r.copy(it.Value()))
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(r.copy(v.Elem()))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(r.copy(v.Elem()))
		return out
	default:
		return v
	}
}
