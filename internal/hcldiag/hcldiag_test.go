package hcldiag

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/cogflow/cogflow/lang/diag"
)

func TestConvert(t *testing.T) {
	text := []byte("a = \"é\" x\n")
	at := func(line, col, byteOff int) hcl.Pos { return hcl.Pos{Line: line, Column: col, Byte: byteOff} }
	tests := []struct {
		name string
		d    *hcl.Diagnostic
		want string // the first line and the suggestion, as rendered
	}{
		{"summary and detail", &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing newline", Detail: "End it.",
			Subject: &hcl.Range{Filename: "c.hcl", Start: at(1, 9, 9), End: at(1, 10, 10)}},
			// The é takes two bytes: column 9 in characters is 10 in bytes.
			"c.hcl:1:10: error: missing newline: End it\n  a = \"é\" x\n          ^\n"},
		{"suggestion split off", &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unsupported argument",
			Detail:  `An argument named "b" is not expected here. Did you mean "a"?`,
			Subject: &hcl.Range{Filename: "c.hcl", Start: at(1, 1, 0), End: at(1, 2, 1)}},
			"c.hcl:1:1: warning: unsupported argument: An argument named \"b\" is not expected here\n  a = \"é\" x\n  ^\n  = help: did you mean \"a\"?\n"},
		{"no range: the file", &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read knowledge base", Detail: "permission denied"},
			"k.hcl: error: cannot read knowledge base: permission denied\n"},
		{"acronym kept", &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "LLM block"}, "k.hcl: error: LLM block\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := Convert(hcl.Diagnostics{tt.d}, diag.Text(text), "k.hcl")
			var b strings.Builder
			l.Render(&b, diag.Text(text))
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}
