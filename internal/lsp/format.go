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

// maxDiffCells bounds the table of the line diff (lines changed before ×
// lines changed after, once the common head and tail are set aside); past
// it the changed middle is one edit, so a huge rewrite costs no quadratic
// memory.
const maxDiffCells = 4 << 20

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
		hunks = []hunk{{0, len(ma), 0, len(mb)}}
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
