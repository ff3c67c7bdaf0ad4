package lsp

import (
	"context"
	"encoding/json"
	"fmt"
)

// Handler answers one request or notification. params is the message's
// raw params; the result is marshalled as the response's result (nil is
// null). A notification's result is dropped. ctx is cancelled when the
// client sends $/cancelRequest for the request, or the server shuts down.
type Handler func(ctx context.Context, s *Server, params json.RawMessage) (any, error)

type registration struct {
	handler Handler
	// capability adds what the method needs to the initialize result's
	// capabilities; nil for methods that need none (notifications).
	capability func(caps map[string]any)
}

var handlers = map[string]registration{}

// register makes h answer method, and announces capability. Each feature
// file calls it from its init function.
func register(method string, h Handler, capability func(caps map[string]any)) {
	if _, dup := handlers[method]; dup {
		panic(fmt.Sprintf("lsp: %s registered twice", method))
	}
	handlers[method] = registration{handler: h, capability: capability}
}

// decode unmarshals params into v, as a protocol error the client sees.
func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return &ResponseError{Code: CodeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return nil
}

// requestedDocument decodes the params of a request about a whole
// document (outline, folding, semantic tokens, code lenses …) and returns
// that document as analyzed at its latest text.
func requestedDocument(s *Server, params json.RawMessage) (*Document, error) {
	var p struct {
		TextDocument TextDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	return s.Document(p.TextDocument.URI)
}
