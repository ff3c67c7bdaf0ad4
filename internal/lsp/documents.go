package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"
)

// docState is what the server holds for one open document: its latest
// text, and the latest analysis, which may be of an older text.
type docState struct {
	uri, path string
	version   int32
	text      []byte
	gen       uint64    // counts changes, so that an analysis knows if it is stale
	edits     uint64    // counts the client's edits (gen also counts re-analyses)
	analyzed  *Document // the analysis of generation analyzedGen
	analyzedGen,
	publishedGen uint64
	timer *time.Timer
}

type didOpenParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
		Text    string `json:"text"`
	} `json:"textDocument"`
}

type contentChange struct {
	Range *Range `json:"range"` // nil: the whole text
	Text  string `json:"text"`
}

type didChangeParams struct {
	TextDocument   VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

func init() {
	register("textDocument/didOpen", didOpen, nil)
	register("textDocument/didChange", didChange, nil)
	register("textDocument/didClose", didClose, nil)
	register("textDocument/didSave", func(context.Context, *Server, json.RawMessage) (any, error) { return nil, nil }, nil)
}

func didOpen(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p didOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, ok := uriToPath(p.TextDocument.URI)
	if !ok {
		path = p.TextDocument.URI // an untitled buffer: checked, named by its URI
	}
	s.mu.Lock()
	st := &docState{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text), gen: 1}
	if old := s.docs[st.uri]; old != nil && old.timer != nil {
		old.timer.Stop()
	}
	s.docs[st.uri] = st
	s.scheduleLocked(st, 0)
	s.mu.Unlock()
	return nil, nil
}

func didChange(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.docs[p.TextDocument.URI]
	if st == nil {
		return nil, fmt.Errorf("didChange of %s, which is not open", p.TextDocument.URI)
	}
	text := st.text
	for _, c := range p.ContentChanges {
		text = applyChange(text, c)
	}
	st.text = text
	st.version = p.TextDocument.Version
	st.gen++
	st.edits++
	s.scheduleLocked(st, s.opts.Debounce)
	return nil, nil
}

// applyChange applies one content change. Each change's range is in the
// text as the previous changes left it, as the protocol says.
func applyChange(text []byte, c contentChange) []byte {
	if c.Range == nil {
		return []byte(c.Text)
	}
	li := NewLineIndex(text)
	start, end := li.Offset(c.Range.Start), li.Offset(c.Range.End)
	if end < start {
		start, end = end, start
	}
	out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
	out = append(out, text[:start]...)
	out = append(out, c.Text...)
	return append(out, text[end:]...)
}

func didClose(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument TextDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	st := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	if st != nil && st.timer != nil {
		st.timer.Stop()
	}
	s.mu.Unlock()
	if st != nil {
		// A closed file's problems are no longer shown.
		s.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: st.uri, Diagnostics: []Diagnostic{}})
	}
	return nil, nil
}

// Document returns the open document uri, analyzed at its latest text:
// a handler never answers from a stale tree. It fails when the document
// is not open.
func (s *Server) Document(uri string) (*Document, error) {
	s.mu.Lock()
	st := s.docs[uri]
	if st == nil {
		s.mu.Unlock()
		return nil, &ResponseError{Code: CodeInvalidParams, Message: "the document is not open: " + uri}
	}
	if st.analyzed != nil && st.analyzedGen == st.gen {
		d := st.analyzed
		s.mu.Unlock()
		return d, nil
	}
	uriCopy, path, version, text, gen := st.uri, st.path, st.version, st.text, st.gen
	s.mu.Unlock()
	k, dir := s.projectFor(path)
	d := analyze(uriCopy, path, version, text, k, dir)
	s.mu.Lock()
	if st.gen == gen && (st.analyzed == nil || st.analyzedGen != gen) {
		st.analyzed, st.analyzedGen = d, gen
	}
	s.mu.Unlock()
	return d, nil
}

// OpenDocuments returns the URIs of the open documents.
func (s *Server) OpenDocuments() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := make([]string, 0, len(s.docs))
	for u := range s.docs {
		uris = append(uris, u)
	}
	return uris
}

// scheduleLocked analyzes and publishes st after delay, replacing an
// earlier schedule. s.mu is held.
func (s *Server) scheduleLocked(st *docState, delay time.Duration) {
	if st.timer != nil {
		st.timer.Stop()
	}
	st.timer = time.AfterFunc(delay, func() { s.publish(st.uri) })
}

// publish sends the diagnostics of the document's latest text, unless a
// newer edit came in while it was analyzed: then that edit's own publish
// follows, and the client never sees diagnostics of an older text after
// those of a newer one.
func (s *Server) publish(uri string) {
	if s.ctx.Err() != nil {
		return
	}
	defer func() {
		// A bug in the checker must not end the session the person is
		// typing in; it is logged, and the next edit tries again.
		if p := recover(); p != nil {
			if onPanic != nil {
				onPanic("publishDiagnostics", p)
			}
			s.logf("panic analyzing %s: %v\n%s", uri, p, debug.Stack())
		}
	}()
	d, err := s.Document(uri)
	if err != nil {
		return // closed meanwhile
	}
	s.mu.Lock()
	st := s.docs[uri]
	if st == nil || st.gen != st.analyzedGen || st.publishedGen == st.gen {
		s.mu.Unlock()
		return
	}
	// A request may have analyzed the same text at the same time and
	// stored its analysis first: publish that one, rather than none.
	d = st.analyzed
	st.publishedGen = st.gen
	// Sent under the lock, so that two publishes of one document cannot
	// swap places on the wire.
	version := d.Version
	s.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.URI, Version: &version, Diagnostics: d.ProtocolDiagnostics()})
	s.mu.Unlock()
}

// reanalyzeAll marks every open document stale and publishes it again:
// its project's knowledge base or folders changed.
func (s *Server) reanalyzeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.docs {
		st.gen++
		s.scheduleLocked(st, 0)
	}
}

func (s *Server) stopTimers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.docs {
		if st.timer != nil {
			st.timer.Stop()
		}
	}
}
