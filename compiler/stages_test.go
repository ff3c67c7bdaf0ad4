package compiler

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

func actions(ops []operation) []string {
	var out []string
	for _, op := range ops {
		s := string(op.Action)
		if op.Text != "" {
			s += "(" + op.Text + ")"
		}
		out = append(out, s)
	}
	return out
}

func TestExtractRules(t *testing.T) {
	ops := extractOps(load(t, "testdata/extract.trace.json"))
	want := []string{
		"open(http://127.0.0.1:8088/files)", // navigate without a cause
		"type(ac)",                          // click + keystrokes + backspace → one type, final value
		"key(Ctrl+A)",                       // chord
		"copy(ac)",                          // Ctrl+C with the copy event
		"enter",                             // Enter; the submit and navigate it caused are absorbed
		"double_click",                      // by kind
		"right_click",
		"save",                                 // Ctrl+S
		"key(Ctrl+Shift+Z)",                    // other chords
		"new_tab(http://127.0.0.1:8088/notes)", // tab_open + switch to it
		"select_text(hello)",
		"scroll(down)", // two scrolls down merged
		"close_tab",
		"switch_window(Files)",
		"drag", // drag_start + drop
		"open(http://127.0.0.1:8088/done)",
	}
	got := actions(ops)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every event belongs to exactly one op, in order.
	var ids []string
	for _, op := range ops {
		ids = append(ids, op.Events...)
	}
	if len(ids) != 33 || ids[0] != "e1" || ids[32] != "e33" {
		t.Fatalf("events not all kept: %v", ids)
	}
	if got := strings.Join(ops[1].Events, ","); got != "e2,e3,e4,e5,e6,e7,e8,e9,e10,e11" {
		t.Errorf("type events = %s", got)
	}
	if ops[14].Dest == nil || ops[14].Dest.Name != "Archive" {
		t.Errorf("drag without its drop target: %+v", ops[14])
	}
}

func TestExtractRecordedTraces(t *testing.T) {
	got := actions(extractOps(load(t, "../runtime/trace/testdata/keyword.trace.json")))
	want := "open(http://127.0.0.1:8088/wiki) type(Denali) click click select_text(Denali is the highest mountain peak in North America.) switch_window(Notes) type(Alaska)"
	if g := strings.Join(got, " "); !strings.HasPrefix(g, "open(http://127.0.0.1:8088/wiki) type(Denali) click click select_text(") || !strings.HasSuffix(g, "switch_window(Notes) type(Alaska)") {
		t.Fatalf("got %s\nwant about %s", g, want)
	}
	rl := actions(extractOps(load(t, "../runtime/trace/testdata/reading_list.trace.json")))
	if rl[0] != "double_click" || rl[3] != "new_tab(http://127.0.0.1:8088/wiki)" {
		t.Fatalf("reading list: %v", rl)
	}
}

func TestDescribe(t *testing.T) {
	tr := load(t, "testdata/enrich.trace.json")
	cases := []struct{ ref, want string }{
		{"r2", `textbox(name: "Search", id: "q")`},                        // the id is unique: kept with its name
		{"r9", `button(name: "Upload")`},                                  // the name is unique
		{"r8", `button(name: "Delete", within: listitem(text: "b.txt"))`}, // two Delete buttons: within its item
		{"r4", `list(name: "Files")`},
		{"r3", `textbox(path: "main/aside/input")`},          // nothing else tells it from r2
		{"r11", `element(role: "div", path: "main/div[2]")`}, // only a path
	}
	for _, c := range cases {
		d := describeTarget(tr, &trace.Target{Ref: c.ref}, "s1")
		if got := d.String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.ref, got, c.want)
		}
		if !d.Unique {
			t.Errorf("%s: %s not verified unique", c.ref, d)
		}
	}
	// Without a snapshot, the id and name are taken unverified.
	d := describeTarget(tr, &trace.Target{Attributes: trace.Attributes{Role: "textbox", Name: "Notes", ID: "notes"}}, "")
	if got := d.String(); got != `textbox(name: "Notes", id: "notes")` || d.Unique {
		t.Errorf("no snapshot: %s (unique %v)", got, d.Unique)
	}
}

func stepOf(t *testing.T, res *Result, name string) string {
	t.Helper()
	var find func(stmts []ast.Stmt) string
	find = func(stmts []ast.Stmt) string {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.Step:
				if s.Name.Name == name {
					return printer.ExprString(s.Value)
				}
			case *ast.ForStmt:
				if v := find(s.Body.Stmts); v != "" {
					return v
				}
			}
		}
		return ""
	}
	v := find(res.File.Decls[0].(*ast.Task).Body.Stmts)
	if v == "" {
		t.Fatalf("no step %s in\n%s", name, res.Source)
	}
	return v
}

func TestStructureRules(t *testing.T) {
	res := compileOK(t, load(t, "testdata/structure.trace.json"), "structure.cog")
	for name, want := range map[string]string{
		"op1": `click(match_element<"TODO: describe which element">(within: list(path: "main/ul")))`, // a list item chosen: judgement
		"op2": `copy(same(op1))`,                                                                     // the same element again
		"op3": `click(next(op1))`,                                                                    // the next item of the same list
		"op4": `type(notes, replace(op2, ".txt", ".md"))`,                                            // synthesized from the copied text
		"op5": `click(save_button)`,                                                                  // a repeated element is an anchor
		"op7": `paste(notes, op2)`,                                                                   // the value copied earlier
		"op8": `type(textbox(id: "author"), author)`,                                                 // nothing earlier: an input
	} {
		if got := stepOf(t, res, name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	src := string(res.Source)
	for _, want := range []string{`input author: text = "Ada"`, `anchor notes       = textbox(name: "Notes", id: "notes")`, "# e4, e5"} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Message, "op1") {
		t.Errorf("no warning for the TODO placeholder: %v", res.Warnings)
	}
}

// TestIterativeBecomesLoop: a loop only from a demonstration that did two
// rows alike, and the loop starts at the first demonstrated row; one row
// done by hand is no loop, and its steps act on that row.
func TestIterativeBecomesLoop(t *testing.T) {
	tests := []struct {
		trace   string
		want    []string
		notWant []string
	}{
		{"testdata/iterative_rows.trace.json",
			[]string{`for row in rows(table(path: "main/table")) {`, `type(row.cell("Login"), replace(lower(op3), " ", "."))`, "  }\n  op8 = click(", "rows 1–2 of the table alike"},
			[]string{"[1:]", "Alan", "Turing"}},
		{"testdata/iterative.trace.json",
			[]string{`op4 = type(rows(table(path: "main/table"))[0].cell("Login"), replace(lower(op3), " ", "."))`},
			[]string{"for row", "[1:]"}},
		{"../runtime/trace/testdata/reading_list.trace.json",
			[]string{`paste(rows(table(path: "main/table"))[0].cell("Abstract"), op`},
			[]string{"for row"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.trace), func(t *testing.T) {
			src := string(compileOK(t, load(t, tt.trace), "iterative.cog").Source)
			assertSource(t, src, tt.want, tt.notWant)
		})
	}
}

func TestKeywordTask(t *testing.T) {
	res := compileOK(t, load(t, "../runtime/trace/testdata/keyword.trace.json"), "keyword.cog")
	if got := stepOf(t, res, "op4"); got != `click(match_element<"TODO: describe which element">(op2, within: list(name: "Search results")))` {
		t.Errorf("op4 = %s", got)
	}
	if !strings.Contains(string(res.Source), `input search: text = "Denali"`) {
		t.Errorf("no input:\n%s", res.Source)
	}
}

// bigTrace generates a trace of about n events: repeated form fills,
// clicks, copies and pastes, with snapshots.
func bigTrace(n int) *trace.Trace {
	tr := trace.New(trace.DriverBrowser)
	tr.Snapshots = map[string]trace.Snapshot{}
	var els []trace.Element
	els = append(els, trace.Element{Ref: "r0", Attributes: trace.Attributes{Role: "main", Path: "main"}, Parent: -1})
	for i := 1; i <= 40; i++ {
		els = append(els, trace.Element{Ref: fmt.Sprintf("r%d", i), Attributes: trace.Attributes{Role: "textbox", Name: fmt.Sprintf("Field %d", i), ID: fmt.Sprintf("f%d", i)}, Parent: 0})
	}
	tr.Snapshots["s1"] = trace.Snapshot{URL: "http://x/", Elements: els}
	id := 0
	ev := func(e trace.Event) {
		id++
		e.ID = fmt.Sprintf("e%d", id)
		e.Time = int64(id)
		tr.Events = append(tr.Events, e)
	}
	ev(trace.Event{Kind: trace.KindNavigate, URL: "http://x/"})
	for f := 0; len(tr.Events) < n; f++ {
		ref := fmt.Sprintf("r%d", f%40+1)
		tgt := &trace.Target{Ref: ref}
		ev(trace.Event{Kind: trace.KindClick, Target: tgt, Snapshot: "s1", Button: "left"})
		val := ""
		for _, r := range fmt.Sprintf("value %d", f%7) {
			val += string(r)
			ev(trace.Event{Kind: trace.KindKeyDown, Key: &trace.Key{Key: string(r)}})
			ev(trace.Event{Kind: trace.KindInput, Target: tgt, Snapshot: "s1", Text: string(r), Value: val})
		}
		ev(trace.Event{Kind: trace.KindKeyDown, Key: &trace.Key{Key: "c", Ctrl: true}, Target: tgt, Snapshot: "s1"})
		ev(trace.Event{Kind: trace.KindCopy, Target: tgt, Snapshot: "s1", Text: val})
	}
	tr.Events = tr.Events[:n]
	return tr
}

func TestBigTraceCompiles(t *testing.T) {
	compileOK(t, bigTrace(2000), "big.cog")
}

func BenchmarkCompile2000(b *testing.B) {
	tr := bigTrace(2000)
	for b.Loop() {
		if _, err := Compile(tr, Options{NoCheck: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompile2000Checked(b *testing.B) {
	tr := bigTrace(2000)
	for b.Loop() {
		if _, err := Compile(tr, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOneListItemIsNoLoop: three operations inside the first item of a
// plain list (select its name, copy it, open its rename dialog) are one
// item done by hand, not evidence of iteration: no loop, and the
// demonstrated item is the one acted on (a later click in it is
// described within it, not a TODO choice).
func TestOneListItemIsNoLoop(t *testing.T) {
	res := compileOK(t, load(t, "testdata/list_loop.trace.json"), "list_loop.cog")
	src := string(res.Source)
	for _, want := range []string{
		`op2 = select_text(element(text: "report.txt"))`,
		`type(name, replace(op3, ".txt", ".md"))`,
		// The item was chosen by selecting its name: its button is no new
		// choice, it is the one in that item.
		`op4 = click(button(name: "Rename", within: element(role: "form", text: "Rename", within: listitem(text: "report.txt Rename"))))`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
	if strings.Contains(src, "for item") || strings.Contains(src, "TODO") {
		t.Errorf("one item became a loop:\n%s", src)
	}
}
