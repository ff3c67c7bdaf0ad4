package syntax

import (
	"strings"
	"testing"
)

// TestMisplacedConstructs: a control construct in the wrong place gets a
// summary of its own, a note of what is allowed there and, where one fix
// is likely, a suggestion (the rendered form is in
// internal/diaggolden/testdata/cog_misplaced.txtar).
func TestMisplacedConstructs(t *testing.T) {
	tests := []struct{ src, message, note, help string }{
		{"task t {\n  else { op1 = f() }\n}\n", "else follows only the }", "allowed in a task", ""},
		{"task t {\n  fallback { op1 = f() }\n}\n", "fallback without a try", "allowed in a task", "try { … } fallback { … }"},
		{"task t {\n  try { op1 = f() }\n  op2 = g()\n}\n", "this try has no fallback", "allowed in a task", "fallback"},
		{"task t {\n  explore { op1 = f() }\n}\n", "explore needs a goal", "allowed in a task", `explore "`},
		{"task t {\n  repeat { op1 = f() }\n}\n", "repeat needs a count", "allowed in a task", "repeat 3"},
		{"task t {\n  until { op1 = f() }\n}\n", "until needs a condition", "allowed in a task", "until COND"},
		{"task t {\n  while x max: 3 { op1 = f() }\n}\n", `unexpected "max"`, "", "after a comma"},
		{"task t {\n  if x then { op1 = f() }\n}\n", "there is no then", "allowed in a task", "if COND {"},
		{"task t {\n  if x { op1 = f() } elsif y { op2 = g() }\n}\n", "elsif is not a keyword", "allowed in a task", "else if"},
		{"task t {\n  for i = 1 to 3 { op1 = f() }\n}\n", "a for loop walks a list", "allowed in a task", "repeat 3"},
		{"task t {\n  if op1 = click(x) { op2 = f() }\n}\n", "a condition cannot hold a step", "allowed in a task", "op1 = click(…)"},
		{"task t {\n  while n = 3 { break }\n}\n", "compares with ==", "allowed in a task", "=="},
		{"task t {\n  42\n}\n", `expected a statement or "}"`, "allowed in a task", ""},
		{"if x { op1 = f() }\n", "if is a statement", "allowed at the top", "task NAME { if"},
		{"break\n", "break is a statement", "allowed at the top", "repeat 3"},
		{"op1 = f()\n", "a step goes inside a task", "allowed at the top", "task NAME { op1 ="},
		{"click(x)\n", "and needs a name", "allowed at the top", "op1 = click"},
		// A declaration missing its name is not a step out of place.
		{"task = f()\n", `unexpected "=", expected a name`, "", ""},
		{"skill(x: string) { op1 = f() }\n", `unexpected "(", expected a name`, "", ""},
	}
	for _, tt := range tests {
		_, ds := Parse("f.cog", []byte(tt.src))
		if len(ds) != 1 {
			t.Errorf("%q: %d diagnostics, want 1: %v", tt.src, len(ds), ds)
			continue
		}
		d := ds[0]
		notes := strings.Join(d.Notes, "\n")
		if !strings.Contains(d.Message, tt.message) || !strings.Contains(notes, tt.note) || !strings.Contains(d.Suggestion, tt.help) {
			t.Errorf("%q:\n got %q / %q / %q\nwant %q / %q / %q", tt.src, d.Message, notes, d.Suggestion, tt.message, tt.note, tt.help)
		}
	}
}
