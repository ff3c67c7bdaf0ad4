package lsp

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

// Formatting is `cogflow fmt` on the open text: the same parse (a file
// with syntax errors is not formatted) and the same printer, so the editor
// and the command line never disagree about the layout.
//
// The answer is the smallest set of whole-line edits that turns the text
// into the canonical one (a line diff), not one edit of the whole
// document: an editor keeps the cursor, folds and marks of the lines an
// edit does not touch, and most formattings change a few lines.
//
// A file with syntax errors gets no edits (an empty list), as gopls does
// for Go: formatting is often run on save, and an error popping up at
// every save of a half-typed file would only repeat the diagnostics the
// person sees already.

type documentFormattingParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

func init() {
	register("textDocument/formatting", formatting, func(caps map[string]any) {
		caps["documentFormattingProvider"] = true
	})
}

func formatting(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p documentFormattingParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.Document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return formatEdits(d), nil
}

// formatEdits returns the edits that give d the layout of `cogflow fmt`,
// none when it has syntax errors or is canonical already.
func formatEdits(d *Document) []TextEdit {
	f, _ := syntax.Parse(d.Path, d.Text)
	if f == nil {
		return []TextEdit{}
	}
	return lineEdits(d, printer.Format(f))
}

// maxDiffCells bounds the table of the exact line diff (lines changed
// before × lines changed after, once the common head and tail are set
// aside); past it a linear diff that looks a few lines ahead takes over,
// so formatting a big file costs no quadratic time or memory.
const maxDiffCells = 1 << 20

// lineEdits diffs d's text against out line by line and returns one edit
// per run of changed lines.
func lineEdits(d *Document, out []byte) []TextEdit {
	if bytes.Equal(d.Text, out) {
		return []TextEdit{}
	}
	a, b := splitLinesKeep(d.Text), splitLinesKeep(out)
	starts := make([]int, len(a)+1) // byte offset of each old line, and the end
	for i, l := range a {
		starts[i+1] = starts[i] + len(l)
	}
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	var hunks []hunk
	if len(ma)*len(mb) > maxDiffCells {
		hunks = windowHunks(ma, mb)
	} else {
		hunks = diffHunks(ma, mb)
	}
	edits := []TextEdit{}
	for _, h := range hunks {
		var text bytes.Buffer
		for _, l := range mb[h.b0:h.b1] {
			text.WriteString(l)
		}
		start, end := starts[head+h.a0], starts[head+h.a1]
		edits = append(edits, TextEdit{Range: Range{Start: d.Lines.Position(start), End: d.Lines.Position(end)}, NewText: text.String()})
	}
	return edits
}

// splitLinesKeep splits text after each line break, keeping the breaks; a
// last line without one is kept as it is.
func splitLinesKeep(text []byte) []string {
	var out []string
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, string(text))
			break
		}
		out = append(out, string(text[:i+1]))
		text = text[i+1:]
	}
	return out
}

// hunk replaces old lines [a0, a1) by new lines [b0, b1).
type hunk struct{ a0, a1, b0, b1 int }

// diffHunks is a longest-common-subsequence diff of two line lists, as
// the runs of lines that differ.
func diffHunks(a, b []string) []hunk {
	n, m := len(a), len(b)
	// lcs[i][j] is the LCS length of a[i:] and b[j:], in one flat slice.
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var out []hunk
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && a[i] == b[j] {
			i, j = i+1, j+1
			continue
		}
		h := hunk{a0: i, b0: j}
		for (i < n || j < m) && !(i < n && j < m && a[i] == b[j]) {
			if j == m || (i < n && lcs[(i+1)*w+j] >= lcs[i*w+j+1]) {
				i++
			} else {
				j++
			}
		}
		h.a1, h.b1 = i, j
		out = append(out, h)
	}
	return out
}

// resyncWindow is how far windowHunks looks ahead for lines that match
// again after a difference.
const resyncWindow = 8

// windowHunks is a linear line diff: after a difference it takes the
// nearest pair of equal lines within resyncWindow on either side, and
// otherwise counts one line of each as changed. Not always minimal, always
// correct: any alignment of the two texts gives edits that turn one into
// the other.
func windowHunks(a, b []string) []hunk {
	var out []hunk
	emit := func(h hunk) {
		if n := len(out); n > 0 && out[n-1].a1 == h.a0 && out[n-1].b1 == h.b0 {
			out[n-1].a1, out[n-1].b1 = h.a1, h.b1
			return
		}
		out = append(out, h)
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if i < len(a) && j < len(b) && a[i] == b[j] {
			i, j = i+1, j+1
			continue
		}
		x, y, ok := resync(a, b, i, j)
		if !ok {
			x, y = min(1, len(a)-i), min(1, len(b)-j)
		}
		emit(hunk{a0: i, a1: i + x, b0: j, b1: j + y})
		i, j = i+x, j+y
	}
	return out
}

// resync finds the smallest x+y (within the window) with a[i+x] == b[j+y].
func resync(a, b []string, i, j int) (int, int, bool) {
	for k := 1; k <= 2*resyncWindow; k++ {
		for x := max(0, k-resyncWindow); x <= min(k, resyncWindow); x++ {
			y := k - x
			if i+x < len(a) && j+y < len(b) && a[i+x] == b[j+y] {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}
