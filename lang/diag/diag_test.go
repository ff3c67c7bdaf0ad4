package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
)

func rng(file string, line, col, off, endCol int) ast.Range {
	return ast.Range{Filename: file,
		Start: ast.Pos{Line: line, Column: col, Offset: off},
		End:   ast.Pos{Line: line, Column: endCol, Offset: off + endCol - col}}
}

// TestRender covers each kind of position the one renderer prints.
func TestRender(t *testing.T) {
	src := []byte("task t {\n  op1 = clik(x)\n}\n")
	tests := []struct {
		name string
		d    *Diagnostic
		src  []byte
		want string
	}{
		{"source range with caret and suggestion",
			&Diagnostic{Range: rng("a.cog", 2, 9, 17, 13), Message: "unknown action clik", Suggestion: "did you mean click?"}, src,
			"a.cog:2:9: error: unknown action clik\n    op1 = clik(x)\n          ^~~~\n  = help: did you mean click?\n"},
		{"source range without text",
			&Diagnostic{Severity: Warning, Range: rng("a.cog", 2, 9, 17, 13), Message: "m", Notes: []string{"n"}}, nil,
			"a.cog:2:9: warning: m\n  = n\n"},
		{"position that does not match the text gives no line",
			&Diagnostic{Range: rng("a.cog", 2, 9, 4, 13), Message: "m"}, src,
			"a.cog:2:9: error: m\n"},
		{"JSON path",
			AtPath("t.json", "$.events[3].target", "unknown field %q", "Kind"), src,
			"t.json: $.events[3].target: error: unknown field \"Kind\"\n"},
		{"JSON path without a file name",
			&Diagnostic{Path: "$", Message: "m"}, nil, "$: error: m\n"},
		{"whole file",
			&Diagnostic{Range: ast.Range{Filename: "k.hcl"}, Message: "cannot read"}, src, "k.hcl: error: cannot read\n"},
		{"nothing known", &Diagnostic{Message: "m"}, nil, "error: m\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			List{tt.d}.Render(&b, Text(tt.src))
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestSortKeepsPathOrder(t *testing.T) {
	l := List{
		AtPath("t.json", "$.events[10]", "b"),
		AtPath("t.json", "$.events[2]", "c"),
		{Range: rng("a.cog", 2, 1, 9, 2), Message: "e"},
		{Range: rng("a.cog", 1, 1, 0, 2), Message: "d"},
	}
	l.Sort()
	if got := strings.Join(l.Messages(), ""); got != "debc" {
		t.Errorf("order %q, want debc", got)
	}
}

func TestListError(t *testing.T) {
	d := AtPath("t.json", "$.kind", "unknown field %q", "Kind")
	d.Suggestion = `did you mean "kind"?`
	l := List{d, {Severity: Warning, Message: "w"}}
	err := l.Err()
	want := "t.json: $.kind: error: unknown field \"Kind\" (did you mean \"kind\"?)\nwarning: w"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	var got *Diagnostic
	if !errors.As(err, &got) || got != d {
		t.Errorf("errors.As gave %v, want the first diagnostic", got)
	}
	if (List{l[1]}).Err() != nil {
		t.Error("a list of warnings is not an error")
	}
	if w := l.Warnings(); len(w) != 1 || w[0] != l[1] {
		t.Errorf("warnings %v", w)
	}
}

func TestFromError(t *testing.T) {
	d := AtPath("t.json", "$", "m")
	wrapped := fmt.Errorf("compiling: %w", ListError{d})
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{wrapped, "t.json: $: error: m"},
		{d, "t.json: $: error: m"},
		{errors.New("plain"), "error: plain"},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range FromError(tt.err) {
			got = append(got, d.String())
		}
		if strings.Join(got, "\n") != tt.want {
			t.Errorf("FromError(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
