package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cogflow/cogflow/lang/suggest"
)

// decodeStrict decodes data into v (a pointer to a struct), rejecting what
// encoding/json would let through — unknown or duplicate fields, fields
// in the wrong case, null, missing required fields (those without
// omitempty or omitzero), numbers that do not fit — with the JSON path of
// the offending value. It walks encoding/json's token stream against v's
// type and fills v as it goes. Empty arrays decode as empty, not nil,
// slices; v may be partly filled when there is an error.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := &walker{dec: dec, data: data}
	tok, err := w.token()
	if err != nil {
		return err
	}
	if err := w.value(tok, reflect.ValueOf(v).Elem()); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return w.syntaxError(err)
		}
		return jpath("$").errorf("unexpected data after the end of the trace at line %s", w.lineCol(dec.InputOffset()))
	}
	return nil
}

type walker struct {
	dec  *json.Decoder
	data []byte
	// at is the path of the value being checked, rendered only for an
	// error: a key, or an index when key is "".
	at []segment
}

type segment struct {
	key   string
	index int
}

func (w *walker) push(key string, index int) { w.at = append(w.at, segment{key, index}) }
func (w *walker) pop()                       { w.at = w.at[:len(w.at)-1] }

func (w *walker) path() jpath {
	p := jpath("$")
	for _, s := range w.at {
		if s.key != "" || s.index < 0 {
			p = p.field(s.key)
		} else {
			p = p.index(s.index)
		}
	}
	return p
}

func (w *walker) errorf(format string, args ...any) error { return w.path().errorf(format, args...) }

func (w *walker) token() (json.Token, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, w.syntaxError(err)
	}
	return tok, nil
}

func (w *walker) syntaxError(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return w.errorf("invalid JSON at line %s: %s", w.lineCol(se.Offset), se.Error())
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return w.errorf("invalid JSON: unexpected end of the file")
	}
	return w.errorf("invalid JSON: %v", err)
}

// lineCol renders a byte offset as "line, column" (both 1-based).
func (w *walker) lineCol(off int64) string {
	if off > int64(len(w.data)) {
		off = int64(len(w.data))
	}
	before := w.data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return fmt.Sprintf("%d, column %d", line, col)
}

var timeType = reflect.TypeFor[time.Time]()

// value decodes the value starting with tok into v, checking it against
// v's type.
func (w *walker) value(tok json.Token, v reflect.Value) error {
	if tok == nil {
		return w.errorf("null is not allowed here: leave the field out instead")
	}
	t := v.Type()
	if t == timeType {
		s, ok := tok.(string)
		if !ok {
			return w.errorf("must be a time (an RFC 3339 string), not %s", describe(tok))
		}
		q, _ := json.Marshal(s)
		var tm time.Time
		if err := tm.UnmarshalJSON(q); err != nil {
			return w.errorf("invalid time %q: want RFC 3339, like 2025-06-01T09:30:00Z", s)
		}
		v.Set(reflect.ValueOf(tm))
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return w.value(tok, v.Elem())
	case reflect.Struct:
		if tok != json.Delim('{') {
			return w.errorf("must be an object, not %s", describe(tok))
		}
		info := fieldsOf(t)
		var seen uint64 // bit i: info.fields[i]
		for w.dec.More() {
			kt, err := w.token()
			if err != nil {
				return err
			}
			key := kt.(string)
			w.push(key, -1)
			f := info.byName[key]
			if f == nil {
				e := w.path().errorf("unknown field %q", key)
				if near := info.suggest(key); near != "" {
					e.Suggestion = fmt.Sprintf("did you mean %q?", near)
				}
				return e
			}
			if seen&(1<<f.n) != 0 {
				return w.errorf("duplicate field %q", key)
			}
			seen |= 1 << f.n
			vt, err := w.token()
			if err != nil {
				return err
			}
			if err := w.value(vt, v.FieldByIndex(f.index)); err != nil {
				return err
			}
			w.pop()
		}
		if _, err := w.token(); err != nil {
			return err
		}
		for _, f := range info.fields {
			if f.required && seen&(1<<f.n) == 0 {
				w.push(f.name, -1)
				return w.errorf("required field is missing")
			}
		}
		return nil
	case reflect.Map:
		if tok != json.Delim('{') {
			return w.errorf("must be an object, not %s", describe(tok))
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		for w.dec.More() {
			kt, err := w.token()
			if err != nil {
				return err
			}
			key := reflect.ValueOf(kt.(string))
			w.push(kt.(string), -1)
			if v.MapIndex(key).IsValid() {
				return w.errorf("duplicate key %q", kt)
			}
			vt, err := w.token()
			if err != nil {
				return err
			}
			elem := reflect.New(t.Elem()).Elem()
			if err := w.value(vt, elem); err != nil {
				return err
			}
			v.SetMapIndex(key, elem)
			w.pop()
		}
		_, err := w.token()
		return err
	case reflect.Slice:
		if tok != json.Delim('[') {
			return w.errorf("must be an array, not %s", describe(tok))
		}
		sl := reflect.MakeSlice(t, 0, 0)
		for i := 0; w.dec.More(); i++ {
			w.push("", i)
			vt, err := w.token()
			if err != nil {
				return err
			}
			sl = reflect.Append(sl, reflect.Zero(t.Elem()))
			if err := w.value(vt, sl.Index(i)); err != nil {
				return err
			}
			w.pop()
		}
		v.Set(sl)
		_, err := w.token()
		return err
	case reflect.String:
		s, ok := tok.(string)
		if !ok {
			return w.errorf("must be a string, not %s", describe(tok))
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		b, ok := tok.(bool)
		if !ok {
			return w.errorf("must be true or false, not %s", describe(tok))
		}
		v.SetBool(b)
		return nil
	case reflect.Int, reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.errorf("must be an integer, not %s", describe(tok))
		}
		i, err := strconv.ParseInt(string(n), 10, t.Bits())
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return w.errorf("integer %s is out of range", n)
			}
			return w.errorf("must be an integer, not %s", n)
		}
		v.SetInt(i)
		return nil
	case reflect.Float64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.errorf("must be a number, not %s", describe(tok))
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return w.errorf("number %s is out of range", n)
		}
		v.SetFloat(f)
		return nil
	}
	panic("trace: decodeStrict: unsupported type " + t.String())
}

func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return "the number " + string(v)
	case string:
		return "a string"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return "an object"
	}
	return fmt.Sprintf("%v", tok)
}

type fieldInfo struct {
	n        int   // position in structInfo.fields
	index    []int // for reflect.Value.FieldByIndex
	name     string
	typ      reflect.Type
	required bool
}

type structInfo struct {
	fields []*fieldInfo // in declaration order
	byName map[string]*fieldInfo
}

// suggest names a field that differs from key only in case or separators,
// or by a typo; "" when none is close.
func (s *structInfo) suggest(key string) string {
	norm := func(s string) string { return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s)) }
	best, bestD := "", 3
	for _, f := range s.fields {
		d := suggest.Distance(norm(f.name), norm(key))
		if d == 0 {
			return f.name
		}
		if d < bestD && len(key) > 2*d {
			best, bestD = f.name, d
		}
	}
	return best
}

var structInfos sync.Map // reflect.Type → *structInfo

// fieldsOf lists the JSON fields of a struct type as encoding/json sees
// them, embedded structs flattened.
func fieldsOf(t reflect.Type) *structInfo {
	if v, ok := structInfos.Load(t); ok {
		return v.(*structInfo)
	}
	info := &structInfo{byName: map[string]*fieldInfo{}}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || (f.Anonymous && f.Type.Kind() == reflect.Struct) {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		opts = "," + opts + ","
		fi := &fieldInfo{n: len(info.fields), index: f.Index, name: name, typ: f.Type,
			required: !strings.Contains(opts, ",omitempty,") && !strings.Contains(opts, ",omitzero,")}
		info.fields = append(info.fields, fi)
		info.byName[name] = fi
	}
	if len(info.fields) > 64 {
		panic("trace: decodeStrict: more than 64 fields in " + t.String())
	}
	structInfos.Store(t, info)
	return info
}
