package lsp

import (
	"context"
	"encoding/json"
)

func init() {
	register("textDocument/inlayHint", inlayHint, func(caps map[string]any) { caps["inlayHintProvider"] = true })
}

// InlayHint is a label the editor shows inside a line, not part of the
// text.
type InlayHint struct {
	Position    Position       `json:"position"`
	Label       string         `json:"label"`
	Kind        int            `json:"kind,omitempty"` // 1 type, 2 parameter
	Tooltip     *MarkupContent `json:"tooltip,omitempty"`
	PaddingLeft bool           `json:"paddingLeft,omitempty"`
}

// inlayHint shows, in a compiled file, at the end of each step's code
// (before its comment), the value the demonstration saw there:
// `saw "Kilimanjaro"`. A file without a readable trace has none.
func inlayHint(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument TextDocumentIdentifier `json:"textDocument"`
		Range        Range                  `json:"range"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.Document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []InlayHint{}
	if demoEvents(d) == nil {
		return out, nil
	}
	from, to := d.Offset(p.Range.Start), d.Offset(p.Range.End)
	for _, st := range newNavIndex(d).steps {
		end := st.Range.End.Offset
		if end < from || end > to {
			continue
		}
		seen, ok := demoFor(d, st)
		if !ok {
			continue
		}
		out = append(out, InlayHint{
			Position: d.Lines.Position(end), Label: "saw " + seen.value, PaddingLeft: true,
			Tooltip: &MarkupContent{Kind: "plaintext", Value: "the demonstration " + seen.verb + " " + seen.value + " here (" + seen.cite + " of " + seen.trace + ")"},
		})
	}
	return out, nil
}
