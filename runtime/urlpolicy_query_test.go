package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// An address built the way the compiler's api-first stage builds it — a
// form's address and urlquery of the value — obeys the URL policy like any
// other open: a value from a model goes only into the query (escaped),
// and a base that came from one is checked.
func TestURLPolicyBuiltAddress(t *testing.T) {
	for _, tc := range []struct {
		name, src, answer, opened, want string
	}{
		{name: "model's value in the query", answer: "javascript:alert(1)#x",
			src:    `op1 = open("http://wiki/w?q=" + urlquery(summarize<"the keyword">("x")))`,
			opened: "http://wiki/w?q=javascript%3Aalert%281%29%23x"},
		{name: "model's base off origin", answer: "http://evil.example/w",
			src:  `op1 = open(summarize<"the wiki">("x") + "?q=" + urlquery("a b"))`,
			want: "the origin http://evil.example:80 is not one the workflow visits or names"},
		{name: "model's base on a named origin", answer: "http://wiki/w",
			src:    "op0 = open(\"http://wiki/\")\n  op1 = open(summarize<\"the wiki\">(\"x\") + \"?q=\" + urlquery(\"a b\"))",
			opened: "http://wiki/w?q=a+b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, task, info := load(t, "task go \"Search\" {\n  driver browser\n  "+tc.src+"\n}")
			home := func() *driver.Tree { return &driver.Tree{URL: "http://wiki/", Title: "Wiki"} }
			f := drivertest.New(home())
			f.Pages["http://wiki/"] = home
			if tc.opened != "" {
				f.Pages[tc.opened] = home
			}
			rs := []dependency.Answerer{model{name: "llm", text: tc.answer}}
			_, err := runtime.New(file, task, info, f, runtime.Options{Answerers: rs}).Run(context.Background())
			var opened []string
			for _, a := range f.Log {
				if a.Op == "open" {
					opened = append(opened, a.Text)
				}
			}
			if tc.want == "" {
				if err != nil || len(opened) == 0 || opened[len(opened)-1] != tc.opened {
					t.Fatalf("err = %v, opened %q; want %q opened", err, opened, tc.opened)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if len(opened) > 0 {
				t.Errorf("the refused URL reached the driver: %q", opened)
			}
		})
	}
}
