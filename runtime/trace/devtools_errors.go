package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// jsonError rewrites an error of encoding/json about data, the JSON value
// at base, as an Error with the JSON path of the offending value and the
// JSON kinds involved, instead of Go's struct and type names ("cannot
// unmarshal string into Go struct field devtoolsStep.offsetX of type
// float64" becomes "$.steps[3].offsetX: must be a number, not a string").
func jsonError(base jpath, data []byte, err error) *Error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		got := article(te.Value)
		if num, ok := strings.CutPrefix(te.Value, "number "); ok {
			got = "the number " + num
			if f, err := strconv.ParseFloat(num, 64); err != nil || f == math.Trunc(f) {
				got += ", which is out of range" // not merely a fraction
			}
		}
		return pathAt(base, data, te.Offset).errorf("must be %s, not %s", jsonKind(te.Type), got)
	case errors.As(err, &se):
		w := &walker{data: data}
		return base.errorf("invalid JSON at line %s: %s", w.lineCol(se.Offset), se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return base.errorf("invalid JSON: unexpected end of the file")
	}
	return base.errorf("%v", err)
}

// jsonKind names the JSON that decodes into a Go type.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another kind of value"
}

// pathAt is the JSON path of the value of data that ends at byte offset
// off, or whose opening bracket does (encoding/json reports a type error
// there). base is the path of data itself.
func pathAt(base jpath, data []byte, off int64) jpath {
	type container struct {
		object  bool
		key     string // the current member's key, in an object
		n       int    // the current element's index, in an array
		wantKey bool
	}
	var stack []*container
	path := func() jpath {
		p := base
		for _, c := range stack {
			if c.object {
				p = p.field(c.key)
			} else {
				p = p.index(c.n)
			}
		}
		return p
	}
	next := func() { // the current value is done: on to the next member
		if len(stack) == 0 {
			return
		}
		if top := stack[len(stack)-1]; top.object {
			top.wantKey = true
		} else {
			top.n++
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return path()
		}
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.object && top.wantKey {
				if key, ok := tok.(string); ok {
					top.key, top.wantKey = key, false
					continue
				}
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if dec.InputOffset() >= off {
				return path()
			}
			stack = append(stack, &container{object: tok == json.Delim('{'), wantKey: tok == json.Delim('{')})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if dec.InputOffset() >= off {
			return path()
		}
		next()
	}
}

// schemeRE is a URL scheme (RFC 3986).
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// checkURL says why s, at path p, is not an absolute URL, or returns nil.
// It checks the shape only (a scheme; a host after http:// and its
// kind): a recording may hold a placeholder for what a test fills in
// later, such as http://127.0.0.1:PORT/.
func checkURL(p jpath, s string) *Error {
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || !schemeRE.MatchString(scheme) {
		return p.errorf("%q is not an absolute URL: it does not begin with a scheme (like https:)", s)
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "ws", "wss":
		host, _, _ := strings.Cut(strings.TrimPrefix(rest, "//"), "/")
		if !strings.HasPrefix(rest, "//") || host == "" {
			return p.errorf("%q has no host (want %s://HOST/…)", s, scheme)
		}
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return p.errorf("%q is not a URL: it holds a space or a control character", s)
	}
	return nil
}

// fail records an error that makes the recording unusable: the import
// stops with every such error, each with its JSON path.
func (c *converter) fail(e *Error) { c.errs = append(c.errs, e) }

// stepPath is the JSON path of the step being converted.
func (c *converter) stepPath() jpath { return jpath("$").field("steps").index(c.cur.i) }
