package lsp

import (
	"context"
	"encoding/json"
)

func init() {
	register("textDocument/documentHighlight", documentHighlight, func(caps map[string]any) { caps["documentHighlightProvider"] = true })
}

// Document highlight kinds: a read of the name, its declaration (where
// it is written).
const (
	highlightRead  = 2
	highlightWrite = 3
)

// DocumentHighlight marks one occurrence of the name under the cursor.
type DocumentHighlight struct {
	Range Range `json:"range"`
	Kind  int   `json:"kind"`
}

// documentHighlight marks every occurrence of the name under the cursor
// in the file, its declaration as a write and its uses as reads: what an
// editor shows when the cursor rests on a name.
func documentHighlight(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	d, ix, o, err := navOccAt(s, params, &p, &p)
	if err != nil || o == nil {
		return nil, err
	}
	out := []DocumentHighlight{}
	for _, u := range ix.uses(o.decl) {
		kind := highlightRead
		if u.isDecl {
			kind = highlightWrite
		}
		out = append(out, DocumentHighlight{Range: d.Range(u.id.Range), Kind: kind})
	}
	return out, nil
}
