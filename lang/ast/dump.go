package ast

import (
	"fmt"
	"reflect"
	"strings"
)

var rangeType = reflect.TypeOf(Range{})

// Dump renders a node as an indented tree without source positions. Two
// trees that differ only in where their text stood dump the same, which is
// what tests of the printer's round trip compare.
func Dump(n any) string {
	var b strings.Builder
	dump(&b, reflect.ValueOf(n), 0)
	return b.String()
}

func dump(b *strings.Builder, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dump(b, v.Elem(), depth)
	case reflect.Struct:
		b.WriteString(v.Type().Name())
		b.WriteString("{")
		first := true
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type == rangeType || !f.IsExported() {
				continue
			}
			if !first {
				b.WriteString(" ")
			}
			first = false
			if !f.Anonymous {
				b.WriteString(f.Name + ":")
			}
			dump(b, v.Field(i), depth)
		}
		b.WriteString("}")
	case reflect.Slice:
		if v.Len() == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(strings.Repeat("  ", depth+1))
			dump(b, v.Index(i), depth+1)
			b.WriteString("\n")
		}
		b.WriteString(strings.Repeat("  ", depth) + "]")
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}
