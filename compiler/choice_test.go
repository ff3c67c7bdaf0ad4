package compiler

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// goldenCaseTrace reads the trace of a golden case.
func goldenCaseTrace(t *testing.T, name string) *trace.Trace {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/golden/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == goldenTrace {
			tr, err := trace.Read(bytes.NewReader(f.Data))
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}
	}
	t.Fatalf("%s has no trace", name)
	return nil
}

// stubOf is a screen search that finds each value of programs, by source.
func stubOf(t *testing.T, programs map[string]string) *screenStub {
	return &screenStub{value: func(_ int, v string) (ast.Expr, bool) {
		src, ok := programs[v]
		if !ok {
			return nil, false
		}
		return parseExpr(t, src), true
	}}
}

// TestChoiceEvidence checks the cases where a click must keep its
// demonstrated description although the screen search found a program:
// each would make a choice that is not one, or not by a value the screen
// shows, or that would not pick the demonstrated element alone.
func TestChoiceEvidence(t *testing.T) {
	quoted := `regex("\"([^\"]+)\"", text(id: "query").text)`
	tests := []struct {
		name     string
		edit     func(tr *trace.Trace) // changes the choice_button trace
		programs map[string]string
		want     string // in the workflow
		why      string // in the choice's evidence; "" when none is recorded
	}{
		{"a choice by value", nil, map[string]string{"previous": quoted},
			`click(button(name: regex(`, "one of 3 of its kind"},
		{"no program: the demonstrated button", nil, nil,
			`click(button(name: "previous"))`, ""},
		{"the value read from the button itself", nil, map[string]string{"previous": `button(name: "previous").text`},
			`click(button(name: "previous"))`, "the chosen element or one around it"},
		{"a computed value is a coincidence", nil, map[string]string{"previous": `format("%s", regex("(p\\w+)", text(id: "query").text))`},
			`click(button(name: "previous"))`, "computes the value"},
		{"a lone button is no choice", func(tr *trace.Trace) { keepOnly(tr, "r0", "r1", "r2", "r4") },
			map[string]string{"previous": `regex("on the (\\w+) button", text(id: "query").text)`}, `click(button(name: "previous"))`, ""},
		{"a lone button the screen quotes is chosen", func(tr *trace.Trace) { keepOnly(tr, "r0", "r1", "r2", "r4") },
			map[string]string{"previous": quoted}, `click(button(name: regex(`, "one of 1 of its kind"},
		{"a one-letter value is no evidence", func(tr *trace.Trace) { rename(tr, "r4", "x") },
			map[string]string{"x": `regex("on the (\\w+) button", text(id: "query").text)`}, `click(button(name: "x"))`, ""},
		{"a one-letter value the screen quotes", func(tr *trace.Trace) { rename(tr, "r4", "x"); rename(tr, "r1", `Click on the "x" button.`) },
			map[string]string{"x": quoted}, `click(button(name: regex(`, "one of 3 of its kind"},
		// The runtime compares names case-folded, and among names that tie
		// so the one written exactly as the screen writes it wins
		// (runtime/match/ties.go): "previous" picks "previous", not
		// "Previous", and the choice by value stands.
		{"two buttons show the value in two cases", func(tr *trace.Trace) { rename(tr, "r5", "Previous") },
			map[string]string{"previous": quoted}, `name: regex("\"([^\"]+)\"", text(id: "query").text)), example: "previous")`, "one of 3 of its kind"},
		{"literal compilation reads nothing", func(tr *trace.Trace) {}, map[string]string{"previous": quoted},
			`click(button(name: "previous"))`, "literal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := goldenCaseTrace(t, "choice_button")
			if tt.edit != nil {
				tt.edit(tr)
			}
			opts := Options{stub: stubOf(t, tt.programs)}
			if tt.why == "literal" {
				opts.Literal, tt.why = true, ""
			}
			res, err := Compile(tr, opts)
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Source)
			}
			assertSource(t, string(res.Source), []string{tt.want}, nil)
			var why []string
			for _, ev := range res.Evidence {
				if ev.Step == "op2" {
					why = append(why, ev.Why)
				}
			}
			switch {
			case tt.why == "" && len(why) > 0:
				t.Errorf("evidence %q, want none", why)
			case tt.why != "" && !strings.Contains(strings.Join(why, "\n"), tt.why):
				t.Errorf("evidence %q, want one saying %q", why, tt.why)
			}
		})
	}
}

// keepOnly drops every element of s1 but the given refs.
func keepOnly(tr *trace.Trace, refs ...string) {
	s := tr.Snapshots["s1"]
	var kept []trace.Element
	index := map[int]int{}
	for k, e := range s.Elements {
		for _, r := range refs {
			if e.Ref == r {
				index[k] = len(kept)
				kept = append(kept, e)
			}
		}
	}
	for k := range kept {
		if p, ok := index[kept[k].Parent]; ok {
			kept[k].Parent = p
		}
	}
	s.Elements = kept
	tr.Snapshots["s1"] = s
}

// rename gives element ref of s1 another name and text.
func rename(tr *trace.Trace, ref, name string) {
	s := tr.Snapshots["s1"]
	for k := range s.Elements {
		if s.Elements[k].Ref == ref {
			s.Elements[k].Name, s.Elements[k].Text = name, name
		}
	}
	tr.Snapshots["s1"] = s
}
