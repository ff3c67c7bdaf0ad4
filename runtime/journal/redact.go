package journal

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Redacted replaces every secret in what the journal writes.
const Redacted = "[secret]"

// redactor replaces secret values, in the forms they take when a value is
// rendered raw, as JSON, with %q or in a URL, by Redacted.
type redactor struct {
	secrets  []string // raw values, longest first
	replacer *strings.Replacer
}

func newRedactor(secrets []string) *redactor {
	var raw, forms []string
	seenRaw, seenForm := map[string]bool{}, map[string]bool{}
	for _, s := range secrets {
		if s == "" || seenRaw[s] {
			continue
		}
		seenRaw[s] = true
		raw = append(raw, s)
		for _, f := range []string{s, strings.TrimSpace(s), jsonEscape(s, false), jsonEscape(s, true),
			quoteInner(strconv.Quote(s)), quoteInner(strconv.QuoteToASCII(s)),
			url.QueryEscape(s), url.PathEscape(s)} {
			if f != "" && !seenForm[f] {
				seenForm[f] = true
				forms = append(forms, f)
			}
		}
	}
	if len(forms) == 0 {
		return &redactor{}
	}
	// strings.Replacer tries the old strings in argument order at each
	// position: longest first, so a secret that contains another goes whole.
	byLength := func(a, b string) int { return len(b) - len(a) }
	slices.SortStableFunc(raw, byLength)
	slices.SortStableFunc(forms, byLength)
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Redacted)
	}
	return &redactor{secrets: raw, replacer: strings.NewReplacer(pairs...)}
}

// jsonEscape is s as it appears between the quotes of a JSON string.
func jsonEscape(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(s) // a string always encodes
	return quoteInner(strings.TrimSuffix(b.String(), "\n"))
}

func quoteInner(q string) string { return q[1 : len(q)-1] }

// String redacts s. If a secret survives the replacement (it overlapped
// another, or contains Redacted itself) the whole string is withheld.
func (r *redactor) String(s string) string {
	if r.replacer == nil || s == "" {
		return s
	}
	out := r.replacer.Replace(s)
	for _, sec := range r.secrets {
		if strings.Contains(out, sec) {
			return Redacted
		}
	}
	return out
}

// Contains reports whether s holds any secret, in any form.
func (r *redactor) Contains(s string) bool {
	return r.replacer != nil && r.String(s) != s
}

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
	if r.replacer == nil {
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
