package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestBinary(t *testing.T) {
	n := cty.NumberIntVal
	s := cty.StringVal
	tests := []struct {
		op   string
		x, y cty.Value
		want cty.Value
		err  bool
	}{
		{"+", n(2), n(3), n(5), false},
		{"+", s("v"), n(2), s("v2"), false},
		{"+", n(1), s(".md"), s("1.md"), false},
		{"+", s("a"), cty.BoolVal(true), s("atrue"), false},
		{"-", n(5), n(7), n(-2), false},
		{"*", n(4), n(2), n(8), false},
		{"/", n(7), n(2), cty.NumberFloatVal(3.5), false},
		{"/", n(7), n(0), cty.NilVal, true},
		{"%", n(7), n(4), n(3), false},
		{"<", n(1), n(2), cty.True, false},
		{">=", n(1), n(2), cty.False, false},
		{"==", s("a"), s("a"), cty.True, false},
		{"!=", n(1), n(1), cty.False, false},
		{"&&", cty.True, cty.False, cty.False, false},
		{"||", cty.False, cty.True, cty.True, false},
		{"-", s("a"), n(1), cty.NilVal, true}, // a mistyped operand is an error, not a panic
		{"^", n(1), n(1), cty.NilVal, true},
	}
	for _, tt := range tests {
		got, err := Binary(tt.op, tt.x, tt.y)
		if (err != nil) != tt.err {
			t.Errorf("%#v %s %#v: err = %v", tt.x, tt.op, tt.y, err)
			continue
		}
		if !tt.err && !got.RawEquals(tt.want) && !got.Equals(tt.want).True() {
			t.Errorf("%#v %s %#v = %#v, want %#v", tt.x, tt.op, tt.y, got, tt.want)
		}
	}
}

func TestCallConverts(t *testing.T) {
	// upper takes text; the language lets a number stand there.
	got, err := Call(Library(nil)["upper"], []cty.Value{cty.NumberIntVal(42)})
	if err != nil || got.AsString() != "42" {
		t.Errorf("upper(42) = %#v, %v", got, err)
	}
	if _, err := Call(Library(nil)["parse_number"], []cty.Value{cty.StringVal("abc")}); err == nil {
		t.Error("parse_number(\"abc\") should fail")
	}
	if s, ok := Text(cty.NumberFloatVal(1234.5)); !ok || s != "1234.5" {
		t.Errorf("Text(1234.5) = %q, %v", s, ok)
	}
	if _, ok := Text(cty.NullVal(cty.String)); ok {
		t.Error("a null value has no text")
	}
}
