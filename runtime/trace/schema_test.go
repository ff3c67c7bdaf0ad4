package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The schema file is checked in two ways, without a schema library: its
// property lists, required lists and enums must agree with the Go types,
// and every testdata trace must satisfy it under a small validator of the
// keywords the schema uses.

type schema = map[string]any

func loadSchema(t testing.TB) schema {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(Schema()))
	dec.UseNumber()
	var s schema
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("schema.json: %v", err)
	}
	if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("schema.json: $schema is %v", s["$schema"])
	}
	return s
}

func def(t testing.TB, root schema, name string) schema {
	t.Helper()
	if name == "" {
		return root
	}
	d, ok := root["$defs"].(schema)[name].(schema)
	if !ok {
		t.Fatalf("schema.json: no $defs/%s", name)
	}
	return d
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// properties lists a definition's property names, with those of a $ref'd
// definition (target and element take the attributes that way).
func properties(t testing.TB, root, d schema) []string {
	var names []string
	for k := range d["properties"].(schema) {
		names = append(names, k)
	}
	if ref, ok := d["$ref"].(string); ok {
		names = append(names, properties(t, root, def(t, root, strings.TrimPrefix(ref, "#/$defs/")))...)
	}
	sort.Strings(names)
	return names
}

func TestSchemaMatchesGoTypes(t *testing.T) {
	root := loadSchema(t)
	types := map[string]reflect.Type{
		"":             reflect.TypeFor[Trace](),
		"start":        reflect.TypeFor[Start](),
		"viewport":     reflect.TypeFor[Viewport](),
		"event":        reflect.TypeFor[Event](),
		"key":          reflect.TypeFor[Key](),
		"window":       reflect.TypeFor[Window](),
		"rect":         reflect.TypeFor[Rect](),
		"attributes":   reflect.TypeFor[Attributes](),
		"target":       reflect.TypeFor[Target](),
		"context":      reflect.TypeFor[Context](),
		"headers":      reflect.TypeFor[Headers](),
		"list_context": reflect.TypeFor[ListContext](),
		"snapshot":     reflect.TypeFor[Snapshot](),
		"element":      reflect.TypeFor[Element](),
		"list_info":    reflect.TypeFor[ListInfo](),
		"cell_info":    reflect.TypeFor[CellInfo](),
		"form_info":    reflect.TypeFor[FormInfo](),
		"dialog":       reflect.TypeFor[Dialog](),
	}
	if n := len(root["$defs"].(schema)) + 1; n != len(types) {
		t.Errorf("schema.json has %d definitions, the test knows %d", n, len(types))
	}
	for name, typ := range types {
		d := def(t, root, name)
		var fields, required []string
		for _, f := range fieldsOf(typ).fields {
			fields = append(fields, f.name)
			if f.required {
				required = append(required, f.name)
			}
		}
		sort.Strings(fields)
		if got := properties(t, root, d); !slices.Equal(got, fields) {
			t.Errorf("$defs/%s: properties %v, Go %s has %v", name, got, typ, fields)
		}
		var req []string
		if r, ok := d["required"]; ok {
			req = strs(r)
		}
		sort.Strings(req)
		sort.Strings(required)
		if name != "attributes" && !slices.Equal(req, required) {
			t.Errorf("$defs/%s: required %v, Go %s requires %v", name, req, typ, required)
		}
		if name != "attributes" && d["additionalProperties"] != false && d["unevaluatedProperties"] != false {
			t.Errorf("$defs/%s allows other properties", name)
		}
	}

	event := def(t, root, "event")
	kindEnum := strs(event["properties"].(schema)["kind"].(schema)["enum"])
	var goKinds []string
	for _, k := range Kinds() {
		goKinds = append(goKinds, string(k))
	}
	if !slices.Equal(kindEnum, goKinds) {
		t.Errorf("schema kinds %v, Go kinds %v", kindEnum, goKinds)
	}
	if got := strs(root["properties"].(schema)["driver"].(schema)["enum"]); !slices.Equal(got, Drivers()) {
		t.Errorf("schema drivers %v, Go %v", got, Drivers())
	}
	if got := strs(event["properties"].(schema)["button"].(schema)["enum"]); !slices.Equal(got, buttons) {
		t.Errorf("schema buttons %v, Go %v", got, buttons)
	}
	// The kinds that need a target.
	var needTarget []string
	for _, k := range Kinds() {
		if k.NeedsTarget() {
			needTarget = append(needTarget, string(k))
		}
	}
	found := false
	for _, rule := range event["allOf"].([]any) {
		r := rule.(schema)
		if slices.Equal(strs(r["then"].(schema)["required"]), []string{"target"}) {
			found = true
			got := strs(r["if"].(schema)["properties"].(schema)["kind"].(schema)["enum"])
			if !slices.Equal(got, needTarget) {
				t.Errorf("schema: kinds that need a target %v, Go %v", got, needTarget)
			}
		}
	}
	if !found {
		t.Error("schema: no rule for the kinds that need a target")
	}
}

func TestTestdataSatisfiesSchema(t *testing.T) {
	root := loadSchema(t)
	topRequired := strs(root["required"])
	kindEnum := strs(def(t, root, "event")["properties"].(schema)["kind"].(schema)["enum"])
	for _, file := range traceFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			if err := dec.Decode(&doc); err != nil {
				t.Fatal(err)
			}
			// What the brief asks for in so many words: top-level keys
			// and event kinds agree with the schema's lists.
			for _, k := range topRequired {
				if _, ok := doc[k]; !ok {
					t.Errorf("required top-level key %q missing", k)
				}
			}
			for k := range doc {
				if _, ok := root["properties"].(schema)[k]; !ok {
					t.Errorf("top-level key %q not in the schema", k)
				}
			}
			for i, e := range doc["events"].([]any) {
				if k := e.(map[string]any)["kind"].(string); !slices.Contains(kindEnum, k) {
					t.Errorf("events[%d]: kind %q not in the schema's enum", i, k)
				}
			}
			// And the whole document.
			v := &schemaValidator{root: root}
			v.check(root, any(doc), "$")
			for _, e := range v.errs {
				t.Error(e)
			}
		})
	}
}

func TestSchemaValidatorCatchesProblems(t *testing.T) {
	root := loadSchema(t)
	tests := []struct{ doc, want string }{
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [], "x": 1}`, `$.x: not allowed`},
		{`{"format": "cogflow-trace", "version": 2, "driver": "browser", "events": []}`, `$.version: want 1`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "web", "events": []}`, `$.driver: "web" not in enum`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser"}`, `$: "events" is required`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [{"id": "e1", "time": 0, "kind": "click"}]}`, `$.events[0]: "target" is required`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [{"id": "e1", "time": 0, "kind": "keyup", "key": {}}]}`, `$.events[0].key: "key" is required`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [{"id": "e1", "time": 0, "kind": "click", "target": {"rol": "x"}}]}`, `$.events[0].target.rol: not allowed`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [{"id": "e1", "time": -1, "kind": "scroll"}]}`, `$.events[0].time: -1 is less than 0`},
		{`{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [{"id": "e1", "time": 0.5, "kind": "scroll"}]}`, `$.events[0].time: want integer`},
	}
	for _, tt := range tests {
		var doc any
		dec := json.NewDecoder(strings.NewReader(tt.doc))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		v := &schemaValidator{root: root}
		v.check(root, doc, "$")
		if !slices.Contains(v.errs, tt.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.doc, v.errs, tt.want)
		}
	}
}

// schemaValidator implements the JSON Schema keywords schema.json uses:
// type, const, enum, required, properties, additionalProperties,
// unevaluatedProperties (false, over properties and a $ref), items, $ref,
// allOf, if/then, minimum, minLength. Annotations (title, description,
// format) are ignored.
type schemaValidator struct {
	root schema
	errs []string
}

func (v *schemaValidator) errorf(p, format string, args ...any) {
	v.errs = append(v.errs, p+": "+fmt.Sprintf(format, args...))
}

func (v *schemaValidator) resolve(ref string) schema {
	return v.root["$defs"].(schema)[strings.TrimPrefix(ref, "#/$defs/")].(schema)
}

// check validates x against s and returns the property names s
// evaluated (for unevaluatedProperties).
func (v *schemaValidator) check(s schema, x any, p string) map[string]bool {
	known := map[string]bool{
		"$schema": true, "$id": true, "$defs": true, "title": true, "description": true, "format": true,
		"type": true, "const": true, "enum": true, "required": true, "properties": true,
		"additionalProperties": true, "unevaluatedProperties": true, "items": true, "$ref": true,
		"allOf": true, "if": true, "then": true, "minimum": true, "minLength": true,
	}
	for k := range s {
		if !known[k] {
			v.errorf(p, "schema keyword %q not supported by the test's validator", k)
		}
	}
	evaluated := map[string]bool{}
	if ref, ok := s["$ref"].(string); ok {
		for k := range v.check(v.resolve(ref), x, p) {
			evaluated[k] = true
		}
	}
	if typ, ok := s["type"].(string); ok && !hasType(x, typ) {
		v.errorf(p, "want %s", typ)
		return evaluated
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(x) {
		v.errorf(p, "want %v", c)
	}
	if e, ok := s["enum"]; ok && !slices.Contains(strs(e), fmt.Sprint(x)) {
		v.errorf(p, "%q not in enum", fmt.Sprint(x))
	}
	if m, ok := s["minimum"].(json.Number); ok {
		if n, isNum := x.(json.Number); isNum {
			a, _ := strconv.ParseFloat(string(n), 64)
			b, _ := strconv.ParseFloat(string(m), 64)
			if a < b {
				v.errorf(p, "%s is less than %s", n, m)
			}
		}
	}
	if m, ok := s["minLength"].(json.Number); ok {
		if str, isStr := x.(string); isStr {
			n, _ := m.Int64()
			if int64(len([]rune(str))) < n {
				v.errorf(p, "shorter than %d", n)
			}
		}
	}
	if arr, ok := x.([]any); ok {
		if items, ok := s["items"].(schema); ok {
			for i, it := range arr {
				v.check(items, it, p+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	if obj, ok := x.(map[string]any); ok {
		if r, ok := s["required"]; ok {
			for _, k := range strs(r) {
				if _, ok := obj[k]; !ok {
					v.errorf(p, "%q is required", k)
				}
			}
		}
		props, _ := s["properties"].(schema)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(schema); ok {
				v.check(ps, obj[k], p+"."+k)
				evaluated[k] = true
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					v.errorf(p+"."+k, "not allowed")
				}
			case schema:
				v.check(ap, obj[k], p+"."+k)
				evaluated[k] = true
			}
		}
		if s["unevaluatedProperties"] == false {
			for _, k := range keys {
				if !evaluated[k] {
					v.errorf(p+"."+k, "not allowed")
				}
			}
		}
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			for k := range v.check(sub.(schema), x, p) {
				evaluated[k] = true
			}
		}
	}
	if cond, ok := s["if"].(schema); ok {
		probe := &schemaValidator{root: v.root}
		probe.check(cond, x, p)
		if then, ok := s["then"].(schema); ok && len(probe.errs) == 0 {
			v.check(then, x, p)
		}
	}
	return evaluated
}

func hasType(x any, typ string) bool {
	switch typ {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "number":
		_, ok := x.(json.Number)
		return ok
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		_, err := strconv.ParseInt(string(n), 10, 64)
		return err == nil
	}
	return false
}
