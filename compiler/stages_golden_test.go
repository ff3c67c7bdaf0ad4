package compiler

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Sections of a testdata/stages/NAME.txtar case, NAME a stage of doc.go's
// table. trace.json and screen are as in testdata/golden.
const (
	stageLLM  = "llm"  // the model's reply, for the semantic stage
	stageWant = "want" // what the stage left: ops, descriptions, loops or the file
)

// afterCompile are the stages Compile runs after stages: their output is
// the Result's.
var afterCompile = []string{"print", "check", "merge"}

// TestStageGoldens compiles the trace of testdata/stages/NAME.txtar and
// compares what stage NAME left with the case's want section, so that a
// reader sees each stage's output for a given input. Every stage has a
// case. `go test ./compiler -run StageGoldens -update` rewrites the want
// sections.
func TestStageGoldens(t *testing.T) {
	var names []string
	for _, s := range stages {
		names = append(names, s.name)
	}
	names = append(names, afterCompile...)
	files, err := filepath.Glob("testdata/stages/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(names) {
		t.Errorf("%d stage cases for %d stages (%s)", len(files), len(names), strings.Join(names, ", "))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) { stageGolden(t, name, filepath.Join("testdata", "stages", name+".txtar")) })
	}
}

func stageGolden(t *testing.T, name, path string) {
	if name == "merge" { // several traces (merge_test.go)
		mergeGolden(t, path, nil)
		return
	}
	ar, sections, tr := readCase(t, path)
	opts := Options{Filename: name + ".cog", Trace: name + ".trace.json", stub: goldenStub(t, sections[goldenScreen])}
	if r := sections[stageLLM]; r != nil {
		opts.LLM, opts.Model = &fakeLLM{reply: string(r.Data)}, "test-model"
	}
	got, ran := "", false
	opts.afterStage = func(stage string, c *compiler, file *ast.File) {
		if stage == name {
			got, ran = showStage(stage, c, file), true
		}
	}
	res, err := Compile(tr, opts)
	switch name {
	case "print":
		got, ran = string(res.Source), true
	case "check":
		got, ran = showCheck(res, err), true
	default:
		if err != nil {
			t.Fatalf("%v\n%s", err, res.Source)
		}
	}
	if !ran {
		t.Fatalf("Compile ran no stage %q", name)
	}
	if *update {
		var kept []txtar.File
		for _, f := range ar.Files {
			if f.Name != stageWant {
				kept = append(kept, f)
			}
		}
		ar.Files = append(kept, txtar.File{Name: stageWant, Data: []byte(got)})
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := sections[stageWant]
	if want == nil {
		t.Fatalf("%s has no %s section (run with -update)", path, stageWant)
	}
	if got != string(want.Data) {
		t.Errorf("stage %s left\n%s--- want\n%s", name, got, want.Data)
	}
}

// readCase reads a golden case (testdata/golden, testdata/stages): the
// archive, its sections by name and the trace of its trace.json section.
func readCase(t *testing.T, path string) (*txtar.Archive, map[string]*txtar.File, *trace.Trace) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]*txtar.File{}
	for i := range ar.Files {
		sections[ar.Files[i].Name] = &ar.Files[i]
	}
	in := sections[goldenTrace]
	if in == nil {
		t.Fatalf("%s has no %s section", path, goldenTrace)
	}
	tr, err := trace.Read(bytes.NewReader(in.Data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ar, sections, tr
}

// showStage writes what stage name left in c: the ops, their
// descriptions, the loops found, or the file.
func showStage(name string, c *compiler, file *ast.File) string {
	switch name {
	case "extract", "android", "navigation-waits":
		return showOps(c.ops)
	case "describe":
		return showInfos(c)
	case "item-loop", "choice-loops", "value-loops":
		return showLoops(c)
	}
	return string(printer.Format(file))
}

func showOps(ops []operation) string {
	var b strings.Builder
	for i, op := range ops {
		fmt.Fprintf(&b, "op%d %s", i+1, op.Action)
		if op.Text != "" {
			fmt.Fprintf(&b, " %q", op.Text)
		}
		if op.Target != nil {
			fmt.Fprintf(&b, " on %s", showTarget(op.Target))
		}
		if op.Dest != nil {
			fmt.Fprintf(&b, " to %s", showTarget(op.Dest))
		}
		fmt.Fprintf(&b, " <- %s", strings.Join(op.Events, " "))
		if op.Note != "" {
			fmt.Fprintf(&b, " (note: %s)", op.Note)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// showTarget is a target as the recorder gave it: its role and name, or
// only its ref when the recorder left the attributes to the snapshot.
func showTarget(t *trace.Target) string {
	switch {
	case t.Role == "" && t.Name == "":
		return "ref " + t.Ref
	case t.Role == "":
		return strconv.Quote(t.Name)
	}
	return fmt.Sprintf("%s %q", t.Role, t.Name)
}

func showInfos(c *compiler) string {
	var b strings.Builder
	for _, in := range c.infos {
		fmt.Fprintf(&b, "%s %s", in.name, in.Action)
		if in.desc != nil {
			fmt.Fprintf(&b, " %s", in.desc)
		}
		if in.dsc != nil {
			fmt.Fprintf(&b, " to %s", in.dsc)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func showLoops(c *compiler) string {
	var b strings.Builder
	if c.loopLo < 0 {
		b.WriteString("no item loop\n")
	} else {
		what, of := "rows", "row"
		if c.loopItems {
			what, of = "items", "item"
		}
		fmt.Fprintf(&b, "item loop over the %s of %s: body op%d..op%d, demonstrated on %s %d and %d more alike\n",
			what, c.loopDesc, c.loopLo+1, c.loopHi+1, of, c.loopRow, c.loopReps)
	}
	for _, l := range c.numberLoops {
		fmt.Fprintf(&b, "choice loop over the items of %s: op%d..op%d, op%d when the item's number is %s, else op%d\n",
			l.list, l.lo+1, l.hi+1, l.yes+1, l.rule.name, l.no+1)
	}
	for _, vl := range c.valueLoops {
		fmt.Fprintf(&b, "value loop: op%d..op%d once per value of %s (demonstrated %q)\n",
			vl.lo+1, vl.hi+1, printer.ExprString(vl.iter), vl.values)
	}
	var folded []int
	for i := range c.folded {
		folded = append(folded, i)
	}
	sort.Ints(folded)
	for k, i := range folded {
		if k == 0 {
			b.WriteString("later iterations, done by a loop:")
		}
		fmt.Fprintf(&b, " op%d", i+1)
		if k == len(folded)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func showCheck(res *Result, err error) string {
	var b strings.Builder
	for i := range res.Warnings {
		fmt.Fprintf(&b, "%s\n", res.Warnings[i].String())
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	} else {
		b.WriteString("checks\n")
	}
	return b.String()
}

// TestDocListsStages checks that doc.go's table has a row for every
// stage, in the order Compile runs them.
func TestDocListsStages(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(doc), "\n") {
		if f := strings.Fields(strings.TrimPrefix(line, "//\t")); strings.HasPrefix(line, "//\t") && len(f) > 0 && !strings.HasPrefix(line, "//\t ") {
			rows = append(rows, f[0])
		}
	}
	want := []string{"stage"}
	for _, s := range stages {
		want = append(want, s.name)
	}
	want = append(want, afterCompile...)
	if strings.Join(rows, " ") != strings.Join(want, " ") {
		t.Errorf("doc.go's table rows: %v\nstages: %v", rows, want)
	}
}
