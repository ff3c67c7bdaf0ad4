package compiler

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// Golden cases of choices and loops by values read from the screen give
// the programs the screen search would find in a "screen" section, so that
// they test what the compiler builds on a program, not which program the
// search prefers:
//
//	"previous" => regex("\"([^\"]+)\"", text(id: "query").text)
//	["A", "B"] => split(", ", regex("Select (.+) and", text(id: "query").text))
//
// A value (a JSON string) or a list of values (a JSON list) the section
// does not name is not found. A "heldout" section names other instances:
// each line is a snapshot id of the trace (an instance the demonstration
// never saw) and the refs of the elements the compiled workflow must click,
// in order, when it runs on that snapshot with the real interpreter and an
// in-memory driver:
//
//	h1: r7 r9

// goldenStub parses a screen section; nil when there is none.
func goldenStub(t *testing.T, f *txtar.File) *screenStub {
	t.Helper()
	if f == nil {
		return nil
	}
	values, lists := map[string]string{}, map[string]string{}
	for n, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
		key, src, ok := strings.Cut(line, " => ")
		if !ok {
			t.Fatalf("screen:%d: want `value => program`", n+1)
		}
		parseExpr(t, src) // fail early on a bad program
		var v string
		var vs []string
		switch {
		case json.Unmarshal([]byte(key), &v) == nil:
			values[v] = src
		case json.Unmarshal([]byte(key), &vs) == nil:
			lists[strings.Join(vs, "\x00")] = src
		default:
			t.Fatalf("screen:%d: %s is neither a JSON string nor a list", n+1, key)
		}
	}
	return &screenStub{
		value: func(_ int, v string) (ast.Expr, bool) {
			src, ok := values[v]
			if !ok {
				return nil, false
			}
			return parseExpr(t, src), true
		},
		list: func(_ int, vs []string) (ast.Expr, bool) {
			src, ok := lists[strings.Join(vs, "\x00")]
			if !ok {
				return nil, false
			}
			return parseExpr(t, src), true
		},
	}
}

// parseExpr parses one expression of the language.
func parseExpr(t *testing.T, src string) ast.Expr {
	t.Helper()
	f, ds := syntax.Parse("screen", []byte("task t {\n  driver browser\n  op1 = assert("+src+")\n}\n"))
	if ds.HasErrors() {
		t.Fatalf("screen program %s: %v", src, ds.Err())
	}
	for _, d := range f.Decls {
		if task, ok := d.(*ast.Task); ok {
			for _, st := range task.Body.Stmts {
				if step, ok := st.(*ast.Step); ok {
					return step.Value.(*ast.Call).Args[0].Value
				}
			}
		}
	}
	t.Fatalf("screen program %s: no expression", src)
	return nil
}

// missingFuncs returns the functions of a needs section the library lacks.
func missingFuncs(f *txtar.File) string {
	if f == nil {
		return ""
	}
	var missing []string
	for _, name := range strings.Fields(string(f.Data)) {
		if _, ok := library[name]; !ok {
			missing = append(missing, name)
		}
	}
	return strings.Join(missing, ", ")
}

// checkHeldOut runs the compiled workflow on each held-out snapshot and
// compares the elements it clicked with the section's.
func checkHeldOut(t *testing.T, tr *trace.Trace, src []byte, f *txtar.File) {
	t.Helper()
	if f == nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
		id, refs, ok := strings.Cut(line, ":")
		snap, found := tr.Snapshots[strings.TrimSpace(id)]
		if !ok || !found {
			t.Fatalf("heldout: %q: want `snapshot: ref…` naming a snapshot of the trace", line)
		}
		got, err := runOn(src, driver.TreeOf(snap))
		if want := strings.Join(strings.Fields(refs), " "); err != nil || got != want {
			t.Errorf("held-out instance %s: clicked %q (error: %v), want %q", id, got, err, want)
		}
	}
}

// runOn runs a compiled workflow with every page showing tree, and returns
// the refs of the elements it clicked, in order.
func runOn(src []byte, tree *driver.Tree) (string, error) {
	file, ds := syntax.Parse("heldout.cog", src)
	if ds.HasErrors() {
		return "", ds.Err()
	}
	info, ds := check.Check(file, kb.CheckEnv(nil))
	if ds.HasErrors() {
		return "", ds.Err()
	}
	fake := drivertest.New(tree)
	for _, d := range file.Decls {
		task, ok := d.(*ast.Task)
		if !ok {
			continue
		}
		for _, st := range task.Body.Stmts {
			if s, ok := st.(*ast.Step); ok {
				if c, ok := s.Value.(*ast.Call); ok && len(c.Args) > 0 {
					if r, ok := c.Fun.(*ast.Ref); ok && r.Name == "open" {
						fake.Pages[c.Args[0].Value.(*ast.StringLit).Value] = func() *driver.Tree { return tree }
					}
				}
			}
		}
		_, err := runtime.New(file, task, info, fake, runtime.Options{}).Run(context.Background())
		var clicked []string
		for _, a := range fake.Log {
			switch {
			case a.Op == "click" && a.Target != nil:
				clicked = append(clicked, a.Target.Ref)
			case a.Op == "multi_select":
				for _, e := range a.Targets {
					clicked = append(clicked, e.Ref)
				}
			}
		}
		return strings.Join(clicked, " "), err
	}
	return "", fmt.Errorf("no task")
}
