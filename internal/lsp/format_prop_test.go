package lsp

import (
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

// clientApply applies edits as a client that follows the protocol to the
// letter does, independently of LineIndex: lines end at "\n", "\r\n" or
// a lone "\r", characters are UTF-16 code units, and every range is in
// the text before any edit.
func clientApply(t *testing.T, text string, edits []TextEdit) string {
	t.Helper()
	var starts []int // byte offset of each line's start
	starts = append(starts, 0)
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
			starts = append(starts, i+2)
			i++
		case text[i] == '\r' || text[i] == '\n':
			starts = append(starts, i+1)
		}
	}
	offset := func(p Position) int {
		if int(p.Line) >= len(starts) {
			return len(text)
		}
		i, units := starts[p.Line], 0
		for i < len(text) && text[i] != '\r' && text[i] != '\n' && units < int(p.Character) {
			r, size := utf8.DecodeRuneInString(text[i:])
			units += len(utf16.Encode([]rune{r}))
			i += size
		}
		return i
	}
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{offset(e.Range.Start), offset(e.Range.End), e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			t.Fatalf("edits overlap: %+v", edits)
		}
	}
	for i := len(spans) - 1; i >= 0; i-- {
		text = text[:spans[i].start] + spans[i].text + text[spans[i].end:]
	}
	return text
}

// reformat lays src out at random without changing what it means: other
// indentation, spaces after commas and around =, trailing blanks, blank
// lines, comments in other scripts, CRLF or mixed line breaks, and lone
// carriage returns between tokens.
func reformat(r *rand.Rand, src string) string {
	lines := strings.Split(src, "\n")
	var b strings.Builder
	crlf := r.Intn(3) // 0: LF, 1: CRLF, 2: mixed
	for i, l := range lines {
		body := strings.TrimLeft(l, " \t")
		if r.Intn(3) == 0 {
			body = strings.Repeat([]string{" ", "\t", "  "}[r.Intn(3)], r.Intn(5)) + body
		} else {
			body = l[:len(l)-len(body)] + body
		}
		if !strings.Contains(body, "\"") && !strings.Contains(body, "#") {
			if r.Intn(3) == 0 {
				body = strings.ReplaceAll(body, ", ", ","+strings.Repeat(" ", r.Intn(3)))
			}
			if r.Intn(3) == 0 {
				body = strings.Replace(body, " = ", strings.Repeat(" ", r.Intn(4))+"="+strings.Repeat(" ", r.Intn(4)), 1)
			}
			if r.Intn(10) == 0 {
				body = strings.Replace(body, " = ", " =\r ", 1) // a lone CR: white space to cogflow, a line break to the client
			}
		}
		if r.Intn(4) == 0 {
			body += strings.Repeat(" ", 1+r.Intn(3))
		}
		if r.Intn(6) == 0 && strings.TrimSpace(body) != "" && !strings.HasSuffix(strings.TrimSpace(body), "{") {
			body += "  # é 中 😀"
		}
		b.WriteString(body)
		if i == len(lines)-1 {
			break
		}
		if crlf == 1 || crlf == 2 && r.Intn(2) == 0 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
		if r.Intn(8) == 0 {
			b.WriteString(strings.Repeat("\n", 1+r.Intn(2)))
		}
	}
	return b.String()
}

// Applied by a client, the formatting edits of any layout of any example
// give exactly `cogflow fmt`'s output, CRLF and non-ASCII included.
func TestFormattingEditsReproduceFmt(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.cog")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	r := rand.New(rand.NewSource(17))
	checked := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40; i++ {
			text := string(src)
			if i > 0 {
				text = reformat(r, text)
			}
			f, _ := syntax.Parse(path, []byte(text))
			if f == nil {
				continue // the random layout broke it: nothing to format
			}
			want := string(printer.Format(f))
			d := &Document{Path: "/x.cog", Text: []byte(text), Lines: NewLineIndex([]byte(text))}
			edits := formatEdits(d)
			if got := clientApply(t, text, edits); got != want {
				t.Fatalf("%s, layout %d:\n%q\nthe edits give\n%q\nwant\n%q", filepath.Base(path), i, text, got, want)
			}
			checked++
		}
	}
	if checked < len(files)*20 {
		t.Errorf("only %d layouts parsed", checked)
	}
}

// A lone carriage return ends a line for the client (the protocol counts
// "\n", "\r\n" and "\r"), so every position after one must count it.
func TestFormattingLoneCarriageReturn(t *testing.T) {
	for _, text := range []string{
		"task t {\n  # a note\r  driver browser\n    op1 = click(button(name: \"é\"))\n}\n",
		"task t {\r  driver browser\r\n    op1 = click(button(name: \"😀\"))\r\n}\r\n",
	} {
		f, _ := syntax.Parse("x.cog", []byte(text))
		if f == nil {
			t.Fatalf("%q does not parse", text)
		}
		d := analyze("file:///x.cog", "/x.cog", 1, []byte(text), nil, "")
		if got, want := clientApply(t, text, formatEdits(d)), string(printer.Format(f)); got != want {
			t.Errorf("%q: the edits give\n%q\nwant\n%q", text, got, want)
		}
	}
}
