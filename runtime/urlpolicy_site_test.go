package runtime_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestURLPolicySiteInput: the examples' shape, where the demo site's
// address is an input and URLs are built from it (`site + "/notes"`), in
// the task and through a skill's parameter. A person gives the input, so a
// URL built from it alone is opened on any port without an allow list;
// a model's text appended to it is checked, and refused when it moves the
// URL to another origin ("http://127.0.0.1:9000" + "@evil.example/x").
func TestURLPolicySiteInput(t *testing.T) {
	const src = `skill visit(site: url) {
  v1 = new_tab(site + "/wiki")
}
task go "Open the site" {
  driver browser
  input site: url = "http://127.0.0.1:8088"
  op1 = open(site + "/notes")
  op2 = visit(site)
  op3 = open(site + summarize<"the path of the next page">("x"))
}`
	const site = "http://127.0.0.1:9000"
	for _, tc := range []struct {
		name, path string
		opened     []string
		want       string // "" when the run succeeds
	}{
		{name: "a path from the model", path: "/page2",
			opened: []string{site + "/notes", site + "/wiki", site + "/page2"}},
		{name: "a model's text that leaves the origin", path: "@evil.example/x",
			opened: []string{site + "/notes", site + "/wiki"},
			want:   "the origin http://evil.example:80 is not one the workflow visits or names"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, task, info := load(t, src)
			page := func() *driver.Tree { return &driver.Tree{URL: site + "/", Title: "Demo"} }
			f := drivertest.New(page())
			for _, u := range []string{site + "/notes", site + "/wiki", site + tc.path} {
				f.Pages[u] = page
			}
			opts := runtime.Options{
				Inputs:    map[string]string{"site": site},
				Answerers: []dependency.Answerer{model{name: "llm", text: tc.path}},
			}
			_, err := runtime.New(file, task, info, f, opts).Run(context.Background())
			var opened []string
			for _, a := range f.Log {
				if a.Op == "open" || a.Op == "new_tab" {
					opened = append(opened, a.Text)
				}
			}
			if !slices.Equal(opened, tc.opened) {
				t.Errorf("opened %q, want %q", opened, tc.opened)
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "refused to open")):
				t.Errorf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}
