package trace

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// The example in docs/trace-format.md is the trace of testdata (laid out
// differently), and the kinds and fields the document lists are the ones
// this package knows.
func TestDocsExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/trace-format.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	const marker = "<!-- trace example: runtime/trace/testdata/keyword.trace.json -->\n```json\n"
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatal("docs/trace-format.md: no example marker")
	}
	block := text[i+len(marker):]
	block = block[:strings.Index(block, "\n```")]
	got, err := Parse([]byte(block))
	if err != nil {
		t.Fatalf("the example in docs/trace-format.md: %v", err)
	}
	want, err := Load("testdata/keyword.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		a, _ := Marshal(got)
		b, _ := Marshal(want)
		t.Errorf("the example in docs/trace-format.md differs from testdata/keyword.trace.json:\n%s", firstDiff(string(b), string(a)))
	}
	for _, k := range Kinds() {
		if !strings.Contains(text, "| `"+string(k)+"` |") {
			t.Errorf("docs/trace-format.md: kind %s is not in the kinds table", k)
		}
	}
	for _, typ := range []any{Trace{}, Event{}, Key{}, Window{}, Target{}, Context{}, Element{}} {
		for _, f := range fieldsOf(reflect.TypeOf(typ)).fields {
			if !strings.Contains(text, "`"+f.name+"`") {
				t.Errorf("docs/trace-format.md does not mention the field %s of %T", f.name, typ)
			}
		}
	}
}
