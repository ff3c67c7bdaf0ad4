package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// testClient speaks the protocol to a Server over pipes, as an editor
// does, so that the tests go through framing, dispatch and JSON.
type testClient struct {
	t      testing.TB
	conn   *conn
	mu     sync.Mutex
	nextID int
	waits  map[string]chan *message
	notes  chan *message // notifications and server requests, in order
	done   chan error
	dir    string // the workspace folder
	srv    *Server
	closed bool
}

// newTestClient starts a server and initializes it with dir as the one
// workspace folder (a fresh temporary folder when dir is "").
func newTestClient(t testing.TB, dir string, opts Options) *testClient {
	t.Helper()
	return newTestClientWith(t, dir, opts, map[string]any{
		"textDocument": map[string]any{
			"hover":      map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
			"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": true}},
		},
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": false}},
	})
}

// newTestClientWith is newTestClient with the given client capabilities.
func newTestClientWith(t testing.TB, dir string, opts Options, caps map[string]any) *testClient {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	if opts.Debounce == 0 {
		opts.Debounce = time.Millisecond
	}
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	s := NewServer(opts)
	c := &testClient{t: t, srv: s, conn: newConn(cr, cw), waits: map[string]chan *message{}, notes: make(chan *message, 1000), done: make(chan error, 1), dir: dir}
	go func() {
		err := s.Serve(context.Background(), sr, sw)
		sw.Close()
		c.done <- err
	}()
	go c.readLoop()
	t.Cleanup(func() {
		if !c.closed {
			c.shutdown()
		}
		cw.Close()
	})
	var res map[string]any
	c.request("initialize", map[string]any{
		"processId": nil, "rootUri": PathToURI(dir), "capabilities": caps,
	}, &res)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *testClient) readLoop() {
	for {
		m, err := c.conn.read()
		if err != nil {
			close(c.notes)
			return
		}
		if m.isResponse() {
			c.mu.Lock()
			ch := c.waits[string(m.ID)]
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		c.notes <- m
	}
}

// send writes a request and returns its id and the channel of its
// response, without waiting.
func (c *testClient) send(method string, params any) (json.RawMessage, chan *message) {
	c.t.Helper()
	body, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	c.nextID++
	id := json.RawMessage(strconv.Itoa(c.nextID))
	ch := make(chan *message, 1)
	c.waits[string(id)] = ch
	c.mu.Unlock()
	if err := c.conn.write(&message{ID: id, Method: method, Params: body}); err != nil {
		c.t.Fatal(err)
	}
	return id, ch
}

// request sends a request and unmarshals its result into result; a
// response error fails the test.
func (c *testClient) request(method string, params, result any) {
	c.t.Helper()
	if err := c.requestErr(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// requestErr is request returning the response's error.
func (c *testClient) requestErr(method string, params, result any) *ResponseError {
	c.t.Helper()
	_, ch := c.send(method, params)
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
			}
		}
		return nil
	case <-time.After(30 * time.Second):
		c.t.Fatalf("%s: no response in 30s", method)
	}
	return nil
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	body, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.conn.write(&message{Method: method, Params: body}); err != nil {
		c.t.Fatal(err)
	}
}

// open opens a document named name in the workspace folder and returns
// its URI. The file need not exist on disk.
func (c *testClient) open(name, text string) string {
	return c.openAt(filepath.Join(c.dir, name), text)
}

// openAt opens the document at an absolute path.
func (c *testClient) openAt(path, text string) string {
	uri := PathToURI(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "cogflow", "version": 1, "text": text}})
	return uri
}

// change sends one incremental edit: text replaces rng.
func (c *testClient) change(uri string, version int32, rng Range, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": rng, "text": text}},
	})
}

// diagnostics waits for the diagnostics of uri at version (any version
// when version is 0), skipping other notifications.
func (c *testClient) diagnostics(uri string, version int32) []Diagnostic {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-c.notes:
			if !ok {
				c.t.Fatalf("the server ended before diagnostics of %s", uri)
			}
			if m.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			if p.URI != uri || (version != 0 && (p.Version == nil || *p.Version != version)) {
				continue
			}
			return p.Diagnostics
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d in 30s", uri, version)
		}
	}
}

// pos is a TextDocumentPositionParams.
func pos(uri string, line, char uint32) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{Line: line, Character: char}}
}

// shutdown ends the session properly and checks that Serve returned nil.
func (c *testClient) shutdown() {
	c.t.Helper()
	c.closed = true
	c.request("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(30 * time.Second):
		c.t.Error("Serve did not return after exit")
	}
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%d:%d-%d:%d %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Message)
}
