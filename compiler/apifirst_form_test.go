package compiler

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// formTrace is the GET-form demonstration of testdata/stages/api-first.txtar:
// "Mount Kenya" typed into the wiki's search box, Enter, the result page.
func formTrace(t *testing.T) *trace.Trace {
	t.Helper()
	_, _, tr := readCase(t, filepath.Join("testdata", "stages", "api-first.txtar"))
	return tr
}

// eachForm changes the form facts of every snapshot element that has them.
func eachForm(tr *trace.Trace, fn func(el *trace.Element)) {
	for id, s := range tr.Snapshots {
		for i := range s.Elements {
			if s.Elements[i].Form != nil {
				fn(&s.Elements[i])
			}
		}
		tr.Snapshots[id] = s
	}
}

// clickSubmit makes the demonstration submit with a click on the Search
// button instead of Enter.
func clickSubmit(tr *trace.Trace) {
	b := tr.Event("e6")
	b.Cause, b.X, b.Y = "", 180, 40
	var evs []trace.Event
	for _, e := range tr.Events {
		switch e.ID {
		case "e5":
			continue
		case "e7", "e8":
			e.Cause = "e6"
		}
		evs = append(evs, e)
	}
	tr.Events = evs
}

// The rule rewrites only what the demonstration proves: a GET form with no
// hidden input, no other field with a value, no script handling the
// submission (checked), submitted by Enter or its unnamed submit button,
// whose navigation is exactly action?field=value.
func TestAPIFirstGetForm(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(tr *trace.Trace)
		opts    Options
		rewrite bool
	}{
		{name: "enter", rewrite: true},
		{name: "click on the submit button", change: clickSubmit, rewrite: true},
		{name: "no-api-first", opts: Options{NoAPIFirst: true}},
		{name: "literal", opts: Options{Literal: true}},
		{name: "hidden input", change: func(tr *trace.Trace) { eachForm(tr, func(el *trace.Element) { el.Form.Hidden = 1 }) }},
		{name: "post form", change: func(tr *trace.Trace) { eachForm(tr, func(el *trace.Element) { el.Form.Method = "post" }) }},
		{name: "onsubmit", change: func(tr *trace.Trace) {
			eachForm(tr, func(el *trace.Element) { el.Form.Script = trace.FormScriptOnsubmit })
		}},
		{name: "submit listener", change: func(tr *trace.Trace) {
			eachForm(tr, func(el *trace.Element) { el.Form.Script = trace.FormScriptListener })
		}},
		{name: "script not checked", change: func(tr *trace.Trace) {
			eachForm(tr, func(el *trace.Element) { el.Form.Script = trace.FormScriptUnknown })
		}},
		{name: "script check failed at the submission", change: func(tr *trace.Trace) {
			tr.Snapshots["s2"].ByRef("q").Form.Script = trace.FormScriptUnknown // the last check, s1's, said none
		}, rewrite: true},
		{name: "listener found at the last check", change: func(tr *trace.Trace) {
			tr.Snapshots["s2"].ByRef("q").Form.Script = trace.FormScriptListener
		}},
		{name: "another field filled", change: func(tr *trace.Trace) {
			eachForm(tr, func(el *trace.Element) { el.Form.Filled = append(el.Form.Filled, "lang") })
		}},
		{name: "no form facts", change: func(tr *trace.Trace) { eachForm(tr, func(el *trace.Element) { el.Form = nil }) }},
		// urlquery builds UTF-8; a form of another encoding sends other
		// bytes for the same keyword, and an old trace proves nothing.
		{name: "form of another encoding", change: func(tr *trace.Trace) {
			eachForm(tr, func(el *trace.Element) { el.Form.Charset = "windows-1252" })
		}},
		{name: "encoding not recorded", change: func(tr *trace.Trace) { eachForm(tr, func(el *trace.Element) { el.Form.Charset = "" }) }},
		{name: "encoding spelt utf8", change: func(tr *trace.Trace) { eachForm(tr, func(el *trace.Element) { el.Form.Charset = "utf8" }) }, rewrite: true},
		{name: "navigation has another parameter", change: func(tr *trace.Trace) {
			tr.Event("e8").URL = "http://127.0.0.1:8088/wiki?q=Mount+Kenya&lang=en"
		}},
		{name: "navigation to another path", change: func(tr *trace.Trace) {
			tr.Event("e8").URL = "http://127.0.0.1:8088/search?q=Mount+Kenya"
		}},
		{name: "navigation with another value", change: func(tr *trace.Trace) {
			tr.Event("e8").URL = "http://127.0.0.1:8088/wiki?q=Mount+Kenya+volcano"
		}},
		{name: "no navigation", change: func(tr *trace.Trace) {
			tr.Events = append(tr.Events[:7], tr.Events[8:]...)
		}},
		{name: "named submit button", change: func(tr *trace.Trace) {
			clickSubmit(tr)
			for _, s := range tr.Snapshots {
				if b := s.ByRef("b"); b != nil && b.Form != nil {
					b.Form.Field = "go"
				}
			}
		}},
		{name: "password field", change: func(tr *trace.Trace) {
			for i := range tr.Events {
				if tg := tr.Events[i].Target; tg != nil && tg.Ref == "q" {
					tg.Secret = true
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := formTrace(t)
			if tc.change != nil {
				tc.change(tr)
			}
			if err := tr.Validate(); err != nil {
				t.Fatalf("the changed trace: %v", err)
			}
			res, err := Compile(tr, tc.opts)
			if err != nil {
				t.Fatalf("compile: %v\n%s", err, res.Source)
			}
			src := string(res.Source)
			api := strings.Contains(src, `open("http://127.0.0.1:8088/wiki?q=" + urlquery(`)
			ui := strings.Contains(src, "\n  op2 = type(") && strings.Contains(src, "\n  op3 = ")
			if api != tc.rewrite || ui == tc.rewrite {
				t.Errorf("rewritten = %v (type step kept: %v), want %v:\n%s", api, ui, tc.rewrite, src)
			}
			if tc.rewrite && !strings.Contains(src, "# api-first: ") {
				t.Errorf("the new step does not say what it replaced:\n%s", src)
			}
			warned := strings.Contains(strings.Join(res.Warnings.Messages(), "; "), "could not check whether a script handles")
			if warned != (tc.name == "script not checked") {
				t.Errorf("warned that the script was not checked: %v (%s)", warned, strings.Join(res.Warnings.Messages(), "; "))
			}
		})
	}
}

// A url input whose value the form's address starts with carries the
// address to another site, as every open of the workflow does.
func TestAPIFirstSiteInput(t *testing.T) {
	for _, tc := range []struct{ typ, def, want string }{
		{"url", "http://127.0.0.1:8088", "site"},
		{"url", "http://127.0.0.1:8088/", "site"},
		{"url", "http://127.0.0.1:80", ""}, // a prefix, not the site
		{"text", "http://127.0.0.1:8088", ""},
	} {
		c := &compiler{inputs: []*ast.InputDecl{{Name: ast.Ident{Name: "site"}, Type: &ast.TypeExpr{Name: tc.typ}, Default: str(tc.def)}}}
		got := ""
		if d := c.siteInput("http://127.0.0.1:8088/wiki?q="); d != nil {
			got = d.Name.Name
		}
		if got != tc.want {
			t.Errorf("site: %s = %q: %q, want %q", tc.typ, tc.def, got, tc.want)
		}
	}
}
