package lsp

import (
	"fmt"
	"strings"
	"testing"
)

const navOutlineSrc = `# é 中 😀 an outline
# of two comment lines
task outline "é 中 😀 goal" {
  driver browser
  input word: text = "é"
  anchor box = textbox(name: "é 中 😀")

  op1 = type(box, word)
  if op1 == "é 中 😀" {
    op2 = click(button(name: "A"))
  } else if op1 == "b" {
    op3 = click(button(name: "B"))
  } else {
    op4 = click(button(name: "C"))
  }
  try {
    op5 = click(button(name: "D"))
  } fallback {
    # one
    # two
    op6 = click(button(name: "E"))
  }
  repeat 2 {
    op7 = click(button(name: "F"))
  }
}

skill press(target: element) {
  s1 = click(target)
}
`

// The outline as text: one symbol a line, indented by depth, with its
// kind and detail.
const navOutlineWant = `outline 2 é 中 😀 goal
  word 8 input text
  box 7 anchor textbox(name: "é 中 😀")
  op1 13 type(box, word)
  if op1 == "é 中 😀" 3
    op2 13 click(button(name: "A"))
    else if op1 == "b" 3
      op3 13 click(button(name: "B"))
    else 3
      op4 13 click(button(name: "C"))
  try 3
    op5 13 click(button(name: "D"))
    fallback 3
      op6 13 click(button(name: "E"))
  repeat 2 3
    op7 13 click(button(name: "F"))
press 12 skill
  target 13 element
  s1 13 click(target)
`

func TestDocumentSymbols(t *testing.T) {
	broken := strings.Replace(navOutlineSrc, "\n\n  op1", "\n  zz = click(((\n  op1", 1)
	for _, src := range []struct{ name, text string }{{"ok", navOutlineSrc}, {"syntax error", broken}} {
		t.Run(src.name, func(t *testing.T) {
			c := newTestClient(t, "", Options{})
			uri := c.open("s.cog", src.text)
			var syms []DocumentSymbol
			c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
			var b strings.Builder
			var walk func(ss []DocumentSymbol, depth int, parent *Range)
			walk = func(ss []DocumentSymbol, depth int, parent *Range) {
				for _, s := range ss {
					fmt.Fprintf(&b, "%s%s %d", strings.Repeat("  ", depth), s.Name, s.Kind)
					if s.Detail != "" {
						b.WriteString(" " + s.Detail)
					}
					b.WriteString("\n")
					if !navWithin(s.SelectionRange, s.Range) || parent != nil && !navWithin(s.Range, *parent) {
						t.Errorf("%s: selection %v, range %v, parent %v: not nested", s.Name, s.SelectionRange, s.Range, parent)
					}
					walk(s.Children, depth+1, &s.Range)
				}
			}
			walk(syms, 0, nil)
			if b.String() != navOutlineWant {
				t.Errorf("outline:\n%s\nwant:\n%s", b.String(), navOutlineWant)
			}
			// The anchor's range ends after 😀's two units and the ")".
			box := syms[0].Children[1]
			if want := navAt(t, src.text, "😀\")\n", 0, len("😀\")")); box.Range.End != want {
				t.Errorf("anchor box ends at %v, want %v", box.Range.End, want)
			}
			if want := navAt(t, src.text, "box =", 0, 0); box.SelectionRange.Start != want {
				t.Errorf("anchor box selected at %v, want %v", box.SelectionRange.Start, want)
			}
		})
	}
}

func navWithin(in, out Range) bool {
	before := func(a, b Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Character <= b.Character }
	return before(out.Start, in.Start) && before(in.End, out.End)
}

func TestFoldingRanges(t *testing.T) {
	want := "0-1 comment, 2-24 region, 8-9 region, 10-11 region, 12-13 region, 15-16 region, 17-20 region, 18-19 comment, 22-23 region, 27-28 region"
	broken := strings.Replace(navOutlineSrc, "\n\n  op1", "\n  zz = click(((\n  op1", 1)
	for _, src := range []struct{ name, text string }{{"ok", navOutlineSrc}, {"syntax error", broken}} {
		c := newTestClient(t, "", Options{})
		uri := c.open("s.cog", src.text)
		var rs []FoldingRange
		c.request("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": uri}}, &rs)
		var got []string
		for _, r := range rs {
			got = append(got, fmt.Sprintf("%d-%d %s", r.StartLine, r.EndLine, r.Kind))
		}
		navSortStrings(got)
		if g := strings.Join(got, ", "); g != want {
			t.Errorf("%s: folding ranges\n%s\nwant\n%s", src.name, g, want)
		}
	}
}

// navSortStrings sorts "a-b kind" entries by their first line, numerically.
func navSortStrings(ss []string) {
	key := func(s string) int {
		var a int
		fmt.Sscanf(s, "%d", &a)
		return a
	}
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && key(ss[j]) < key(ss[j-1]); j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
}
