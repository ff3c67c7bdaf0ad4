package runtime

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// The named-only arguments of intent and content_query reach the driver
// action whole; anything that is not text fails rather than being dropped.
func TestFillAndroidArgs(t *testing.T) {
	texts := func(ss ...string) cty.Value {
		vs := make([]cty.Value, len(ss))
		for i, s := range ss {
			vs[i] = cty.StringVal(s)
		}
		return cty.ListVal(vs)
	}
	tests := []struct {
		name string
		op   action.Name
		args map[string]cty.Value
		want driver.Action
		msg  string
	}{
		{"intent", action.Intent, map[string]cty.Value{"package": cty.StringVal("com.x"), "extras": texts("a=1", "b=x=y")},
			driver.Action{Op: action.Intent, Package: "com.x", Extras: []string{"a=1", "b=x=y"}}, ""},
		{"query", action.ContentQuery, map[string]cty.Value{"columns": texts("a", "b"), "where": cty.StringVal("a = 'x'")},
			driver.Action{Op: action.ContentQuery, Columns: []string{"a", "b"}, Where: "a = 'x'"}, ""},
		{"tuple of texts", action.ContentQuery, map[string]cty.Value{"columns": cty.TupleVal([]cty.Value{cty.StringVal("a")})},
			driver.Action{Op: action.ContentQuery, Columns: []string{"a"}}, ""},
		{"absent and null", action.Intent, map[string]cty.Value{"package": cty.NullVal(cty.String)},
			driver.Action{Op: action.Intent}, ""},
		{"null extra", action.Intent, map[string]cty.Value{"extras": cty.ListVal([]cty.Value{cty.StringVal("a=1"), cty.NullVal(cty.String)})},
			driver.Action{}, "extras[1] must be text"},
		{"where not text", action.ContentQuery, map[string]cty.Value{"where": cty.NumberIntVal(1)}, driver.Action{}, "where must be text"},
		{"other actions untouched", action.Click, map[string]cty.Value{"where": cty.NumberIntVal(1)}, driver.Action{Op: action.Click}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := driver.Action{Op: tc.op}
			err := fillAndroidArgs(&a, tc.args)
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("error %v, want %q", err, tc.msg)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(a, tc.want) {
				t.Fatalf("got %+v, %v; want %+v", a, err, tc.want)
			}
		})
	}
}

func TestHoldsSecret(t *testing.T) {
	holds := func(s string) bool { return strings.Contains(s, "hunter2") }
	for _, a := range []driver.Action{{Data: "smsto:hunter2"}, {Extras: []string{"k=hunter2"}}, {Where: "x = 'hunter2'"}} {
		if !holdsSecret(a, holds) {
			t.Errorf("%+v: secret not seen", a)
		}
	}
	if holdsSecret(driver.Action{Data: "tel:1", Extras: []string{"a=b"}}, holds) {
		t.Error("no secret, yet seen")
	}
	if v := rowsVal(nil); !v.Type().Equals(cty.List(cty.String)) || v.LengthInt() != 0 {
		t.Errorf("no rows: %#v", v)
	}
}
