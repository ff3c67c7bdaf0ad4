package syntax_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
)

func mustParse(t *testing.T, src string) *ast.File {
	t.Helper()
	f, diags := syntax.Parse("t.cog", []byte(src))
	if f == nil || diags.HasErrors() {
		t.Fatalf("parse failed: %v", diags.Err())
	}
	return f
}

func firstTask(t *testing.T, f *ast.File) *ast.Task {
	t.Helper()
	task, ok := f.Decls[0].(*ast.Task)
	if !ok {
		t.Fatalf("first declaration is %T", f.Decls[0])
	}
	return task
}

// text returns the source text a range covers.
func text(src string, r ast.Range) string { return src[r.Start.Offset:r.End.Offset] }

func TestRangesCoverTheirText(t *testing.T) {
	src := "task demo \"goal\" {\n" +
		"  driver browser\n" +
		"  op1 = click(contextual_selection.match_element<\"the best result\">(op0, x: 1))\n" +
		"  op2 = type(textbox(name: \"Notes\"), op1.text + \"!\")\n" +
		"}\n"
	f := mustParse(t, src)
	task := firstTask(t, f)
	step := task.Body.Stmts[1].(*ast.Step)
	call := step.Value.(*ast.Call)
	dep := call.Args[0].Value.(*ast.Dependency)
	step2 := task.Body.Stmts[2].(*ast.Step)
	bin := step2.Value.(*ast.Call).Args[1].Value.(*ast.Binary)
	tests := []struct {
		name string
		rng  ast.Range
		want string
	}{
		{"task name", task.Name.Range, "demo"},
		{"goal", task.Goal.Range, `"goal"`},
		{"step", step.Range, `op1 = click(contextual_selection.match_element<"the best result">(op0, x: 1))`},
		{"step name", step.Name.Range, "op1"},
		{"call", call.Range, `click(contextual_selection.match_element<"the best result">(op0, x: 1))`},
		{"dependency", dep.Range, `contextual_selection.match_element<"the best result">(op0, x: 1)`},
		{"main", dep.Main.Range, "contextual_selection"},
		{"sub", dep.Sub.Range, "match_element"},
		{"description", dep.Description.Range, `"the best result"`},
		{"named input", dep.Inputs[1].Range, "x: 1"},
		{"input name", dep.Inputs[1].Name.Range, "x"},
		{"binary", bin.Range, `op1.text + "!"`},
		{"member", bin.X.Rng(), "op1.text"},
	}
	for _, tt := range tests {
		if got := text(src, tt.rng); got != tt.want {
			t.Errorf("%s: range covers %q, want %q", tt.name, got, tt.want)
		}
	}
	if p := dep.Sub.Range.Start; p.Line != 3 || p.Column != 36 {
		t.Errorf("sub position = %d:%d, want 3:36", p.Line, p.Column)
	}
}

func TestExpressionShapes(t *testing.T) {
	tests := []struct{ expr, want string }{
		{`1 + 2 * 3`, `Binary{Op:"+" X:NumberLit{Raw:"1"} Y:Binary{Op:"*" X:NumberLit{Raw:"2"} Y:NumberLit{Raw:"3"}}}`},
		{`a - b - c`, `Binary{Op:"-" X:Binary{Op:"-" X:Ref{Ident{Name:"a"}} Y:Ref{Ident{Name:"b"}}} Y:Ref{Ident{Name:"c"}}}`},
		{`a < b && !c || d`, `Binary{Op:"||" X:Binary{Op:"&&" X:Binary{Op:"<" X:Ref{Ident{Name:"a"}} Y:Ref{Ident{Name:"b"}}} Y:Unary{Op:"!" X:Ref{Ident{Name:"c"}}}} Y:Ref{Ident{Name:"d"}}}`},
		{`xs[1:]`, `Slice{X:Ref{Ident{Name:"xs"}} Lo:NumberLit{Raw:"1"} Hi:nil}`},
		{`xs[:2]`, `Slice{X:Ref{Ident{Name:"xs"}} Lo:nil Hi:NumberLit{Raw:"2"}}`},
		{`xs[0]`, `Index{X:Ref{Ident{Name:"xs"}} Index:NumberLit{Raw:"0"}}`},
		{`row.cell("T")`, `Call{Fun:Member{X:Ref{Ident{Name:"row"}} Name:Ident{Name:"cell"}} Args:[`},
		{`sub<"d">()`, `Dependency{Main:nil Sub:Ident{Name:"sub"} Description:StringLit{Value:"d"} Inputs:[]}`},
		{`sub< "d" >()`, `Dependency{Main:nil Sub:Ident{Name:"sub"} Description:StringLit{Value:"d"} Inputs:[]}`},
		{`a < "d"`, `Binary{Op:"<" X:Ref{Ident{Name:"a"}} Y:StringLit{Value:"d"}}`},
		{`(1 + 2) * 3`, `Binary{Op:"*" X:Paren{X:Binary{Op:"+"`},
		{`-x.y`, `Unary{Op:"-" X:Member{X:Ref{Ident{Name:"x"}} Name:Ident{Name:"y"}}}`},
		{`[1, 2,]`, `ListLit{Elems:[`},
		{`"a\tb\u00e9"`, `StringLit{Value:"a\tbé"}`},
		{`1.5e3`, `NumberLit{Raw:"1.5e3"}`},
		{`true`, `BoolLit{Value:true}`},
	}
	for _, tt := range tests {
		f := mustParse(t, "task t {\n  s = f("+tt.expr+")\n}\n")
		arg := firstTask(t, f).Body.Stmts[0].(*ast.Step).Value.(*ast.Call).Args[0].Value
		if got := ast.Dump(arg); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s\n got: %s\nwant: %s", tt.expr, got, tt.want)
		}
	}
}

func TestCommentsAttach(t *testing.T) {
	src := `# file header
task t {  # opens the task
  driver browser  # the driver

  # before op1
  op1 = click(button("A",
    # inside the call
    id: "a"))
  for x in xs {
    op2 = click(x)  # in loop
    # end of loop body
  }  # after loop
  # block tail
}  # after task
# file tail
`
	f := mustParse(t, src)
	task := firstTask(t, f)
	checks := []struct {
		name string
		got  []ast.Comment
		want []string
	}{
		{"task leading", task.Comments.Leading, []string{"# file header"}},
		{"driver leading", task.Body.Stmts[0].Meta().Comments.Leading, []string{"# opens the task"}},
		{"op1 leading", task.Body.Stmts[1].Meta().Comments.Leading, []string{"# before op1", "# inside the call"}},
		{"loop tail", task.Body.Stmts[2].(*ast.ForStmt).Body.Tail, []string{"# end of loop body"}},
		{"block tail", task.Body.Tail, []string{"# block tail"}},
		{"file tail", f.Tail, []string{"# file tail"}},
	}
	for _, c := range checks {
		var got []string
		for _, cm := range c.got {
			got = append(got, cm.Text)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	trailing := map[string]*ast.Comment{
		"# the driver": task.Body.Stmts[0].Meta().Comments.Trailing,
		"# in loop":    task.Body.Stmts[2].(*ast.ForStmt).Body.Stmts[0].Meta().Comments.Trailing,
		"# after loop": task.Body.Stmts[2].Meta().Comments.Trailing,
		"# after task": task.Comments.Trailing,
	}
	for want, got := range trailing {
		if got == nil || got.Text != want {
			t.Errorf("trailing %q: got %v", want, got)
		}
	}
	if !task.Body.Stmts[1].Meta().BlankLine {
		t.Error("op1 should remember the blank line above its comment")
	}
	if task.Body.Stmts[2].Meta().BlankLine {
		t.Error("the loop has no blank line above it")
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		line, col       int
	}{
		{"missing brace", "task t {\n  driver browser\n", "this { is never closed", 1, 8},
		{"mismatched bracket", "task t {\n  op1 = f(x]\n}\n", "this ( is not closed: expected ) before the ] at line 2, column 12", 2, 10},
		{"stray closer", "task t {}\n}\n", "no open bracket", 2, 1},
		{"expected list", "task t {\n  op1 open(\"http://x/\")\n}\n", `unexpected "open", expected "="`, 2, 7},
		{"unterminated string", "task t {\n  op1 = open(\"http://x\n}\n", "string literal is not terminated", 2, 14},
		{"stray character", "task t {\n  op1 = click($x)\n}\n", `unexpected character "$"`, 2, 15},
		{"bad escape", "task t {\n  op1 = open(\"a\\qb\")\n}\n", "invalid escape sequence \\q", 2, 16},
		{"keyword as step", "task t {\n  confirm for = click(x)\n}\n", "keyword", 2, 11},
		{"dependency without inputs", "task t {\n  op1 = type(x, summarize<\"s\">)\n}\n", "needs its inputs in parentheses", 2, 26},
		{"keyword as value", "task t {\n  op1 = copy(repeat)\n}\n", `keyword "repeat" cannot be used as a value`, 2, 14},
		{"else without if", "task t {\n  else { op1 = f() }\n}\n", "else follows only the } of an if's branch", 2, 3},
		{"else after a repeat", "task t {\n  repeat 2 { op1 = f() } else { op2 = f() }\n}\n", "else follows only the } of an if's branch", 2, 26},
		{"if without block", "task t {\n  if x\n}\n", `unexpected "}"`, 3, 1},
		{"empty index", "task t {\n  op1 = click(xs[])\n}\n", "an index needs one value", 2, 15},
		{"deep nesting", "task t {\n  op1 = f(" + strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70) + ")\n}\n", "nest more than 64 deep", 2, 73},
		{"invalid utf-8", "task t {\n  op1 = open(\"\xff\")\n}\n", "not valid UTF-8", 2, 15},
		{"top level junk", "op1 = click(x)\n", `unexpected "op1"`, 1, 1},
		// A byte-order mark is skipped; columns on line 1 begin after it.
		{"junk after a byte-order mark", "\ufeffop1 = click(x)\n", `unexpected "op1"`, 1, 1},
		{"error after a byte-order mark", "\ufefftask t {\n  op1 = click($x)\n}\n", `unexpected character "$"`, 2, 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := syntax.Parse("t.cog", []byte(tt.src))
			if f != nil {
				t.Fatalf("parse succeeded, want error %q", tt.want)
			}
			if len(diags) == 0 {
				t.Fatal("no diagnostics")
			}
			d := diags[0]
			if !strings.Contains(d.Message, tt.want) {
				t.Errorf("message %q does not contain %q", d.Message, tt.want)
			}
			if d.Range.Start.Line != tt.line || d.Range.Start.Column != tt.col {
				t.Errorf("position %d:%d, want %d:%d (%s)", d.Range.Start.Line, d.Range.Start.Column, tt.line, tt.col, d.Message)
			}
		})
	}
}

// TestControlFlowShapes: else if chains into ElseIf, and a keyword may
// head a dependency: repeat<"…">(x) is the subcategory repeat.
func TestControlFlowShapes(t *testing.T) {
	src := "task t {\n  if a { op1 = f() } else if b { op2 = f() } else { op3 = f() }\n  repeat 2 { op4 = g(repeat<\"the number\">(op0)) }\n}\n"
	task := firstTask(t, mustParse(t, src))
	s, ok := task.Body.Stmts[0].(*ast.IfStmt)
	if !ok || s.ElseIf == nil || s.Else != nil || s.ElseIf.Else == nil || s.ElseIf.ElseIf != nil {
		t.Fatalf("if parsed as %s", ast.Dump(task.Body.Stmts[0]))
	}
	if got := text(src, s.Range); !strings.HasPrefix(got, "if a {") || !strings.HasSuffix(got, "op3 = f() }") {
		t.Errorf("if covers %q", got)
	}
	if len(ast.Bodies(s)) != 3 {
		t.Errorf("%d bodies, want 3", len(ast.Bodies(s)))
	}
	r := task.Body.Stmts[1].(*ast.RepeatStmt)
	call := r.Body.Stmts[0].(*ast.Step).Value.(*ast.Call)
	if d, ok := call.Args[0].Value.(*ast.Dependency); !ok || d.Sub.Name != "repeat" {
		t.Errorf("repeat<…> parsed as %s", ast.Dump(call.Args[0].Value))
	}
}

func TestWhileUntilBreakContinue(t *testing.T) {
	src := "task t {\n  while a, max: 20, within: 60 { op1 = f() break }\n  until b { continue }\n}\n"
	task := firstTask(t, mustParse(t, src))
	w, ok := task.Body.Stmts[0].(*ast.WhileStmt)
	if !ok || w.Until || len(w.Options) != 2 || w.Option("max") == nil || w.Option("within") == nil || w.Option("x") != nil {
		t.Fatalf("while parsed as %s", ast.Dump(task.Body.Stmts[0]))
	}
	if got := text(src, w.Range); !strings.HasPrefix(got, "while a,") || !strings.HasSuffix(got, "break }") {
		t.Errorf("while covers %q", got)
	}
	if j, ok := w.Body.Stmts[1].(*ast.JumpStmt); !ok || j.Continue || text(src, j.Range) != "break" {
		t.Errorf("break parsed as %s", ast.Dump(w.Body.Stmts[1]))
	}
	u, ok := task.Body.Stmts[1].(*ast.WhileStmt)
	if !ok || !u.Until || len(u.Options) != 0 {
		t.Fatalf("until parsed as %s", ast.Dump(task.Body.Stmts[1]))
	}
	if j, ok := u.Body.Stmts[0].(*ast.JumpStmt); !ok || !j.Continue {
		t.Errorf("continue parsed as %s", ast.Dump(u.Body.Stmts[0]))
	}
}

// TestTryAndExplore: try's two blocks, explore's goal and options, and
// explore<"…">(x) as the dependency whose subcategory is explore.
func TestTryAndExplore(t *testing.T) {
	src := "task t {\n  try { op1 = f() } fallback { op2 = g() }\n  explore \"the file\", budget: 30 { op3 = click(explore<\"the file\">(op1)) }\n}\n"
	task := firstTask(t, mustParse(t, src))
	tr, ok := task.Body.Stmts[0].(*ast.TryStmt)
	if !ok || len(tr.Body.Stmts) != 1 || len(tr.Fallback.Stmts) != 1 {
		t.Fatalf("try parsed as %s", ast.Dump(task.Body.Stmts[0]))
	}
	if got := text(src, tr.Range); got != "try { op1 = f() } fallback { op2 = g() }" {
		t.Errorf("try covers %q", got)
	}
	if b := ast.Bodies(tr); len(b) != 2 || b[0] != tr.Body || b[1] != tr.Fallback {
		t.Errorf("try's bodies are %v", b)
	}
	ex, ok := task.Body.Stmts[1].(*ast.ExploreStmt)
	if !ok || ex.Goal.Value != "the file" || ex.Option("budget") == nil || ex.Option("max") != nil || len(ast.Bodies(ex)) != 1 {
		t.Fatalf("explore parsed as %s", ast.Dump(task.Body.Stmts[1]))
	}
	call := ex.Body.Stmts[0].(*ast.Step).Value.(*ast.Call)
	if d, ok := call.Args[0].Value.(*ast.Dependency); !ok || d.Sub.Name != "explore" || d.Description.Value != "the file" {
		t.Errorf("explore<…> parsed as %s", ast.Dump(call.Args[0].Value))
	}
	for _, bad := range []string{"task t {\n  try { }\n}\n", "task t {\n  explore { }\n}\n", "task t {\n  try = f()\n}\n"} {
		if f, diags := syntax.Parse("t.cog", []byte(bad)); f != nil || !diags.HasErrors() {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

// TestByteOrderMark parses files that begin with a UTF-8 byte-order mark,
// as some Windows editors write them: the mark is not an error, offsets
// stay those of the file, and columns on line 1 begin after the mark.
func TestByteOrderMark(t *testing.T) {
	for _, src := range []string{"\ufeff", "\ufeff# a comment\n", "\ufefftask t \"x\" {\n  driver browser\n}\n"} {
		f, diags := syntax.Parse("t.cog", []byte(src))
		if f == nil || diags.HasErrors() {
			t.Errorf("%q: %v", src, diags)
			continue
		}
		for _, d := range f.Decls {
			if p := d.Rng().Start; p.Line != 1 || p.Column != 1 || p.Offset != 3 {
				t.Errorf("%q: declaration at %d:%d (offset %d), want 1:1 (offset 3)", src, p.Line, p.Column, p.Offset)
			}
		}
		if len(f.Decls) == 0 && strings.Contains(src, "task") {
			t.Errorf("%q: no declaration", src)
		}
	}
}
