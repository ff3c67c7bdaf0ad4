package compiler

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// The compiler's uniqueness and the runtime's anchoring settle twins
// alike: identical siblings are one control unless their action cannot be
// undone or the text before each tells them apart.
func TestTwinsAgree(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		label string // the text before the second button, "" for none
		want  int    // the element chosen for button(name: X), -1 ambiguous
	}{
		{"alike: the first", []string{"a|button|OK", "b|button|OK"}, "", 1},
		{"delete: never guessed", []string{"a|button|Delete", "b|button|Delete"}, "", -1},
		{"told apart by the text before", []string{"a|button|Edit", "b|button|Edit"}, "Invoice 2", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := snapshotOf(tc.lines...)
			if tc.label != "" {
				// A span between the twins, under the same parent.
				span := trace.Element{Ref: "s", Parent: 0, Attributes: trace.Attributes{Role: "text", Text: tc.label, Path: "main/span", Visible: true}}
				s.Elements = append(s.Elements[:2], append([]trace.Element{span}, s.Elements[2:]...)...)
			}
			name := s.Elements[1].Name
			attrs := []describedAttr{{Name: "name", Value: name}}
			got := chosen(s, "button", attrs, -1)
			if got != tc.want {
				t.Fatalf("the compiler chose %d, want %d", got, tc.want)
			}
			if rt := runtimePicks(t, s, &targetDesc{Ctor: "button", Attrs: attrs}); rt != got {
				t.Fatalf("the runtime chose %d, the compiler %d", rt, got)
			}
		})
	}
}
