package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cogflow/cogflow/stdlib/kb"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// Debounce is how long the server waits after an edit before it
	// analyzes the file and publishes diagnostics, so that typing a word
	// costs one analysis. A request about the file (hover …) never waits:
	// it analyzes at once what is not analyzed yet. 0: 150ms.
	Debounce time.Duration
	// Version is cogflow's version, for the initialize result.
	Version string
	// Log receives the server's own log lines (stderr for `cogflow lsp`);
	// nil: none.
	Log io.Writer
	// Executable is the cogflow binary that runs tasks for the "Run task"
	// code lens; "": the running one.
	Executable string
}

// Server is one language server session, for one client.
type Server struct {
	opts Options
	conn *conn

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	client      clientCapabilities
	roots       []string // workspace folders, as paths
	docs        map[string]*docState
	projects    map[string]*project
	projectsGen uint64                        // counts knowledge.hcl changes: a load begun before one is not cached
	builtinKB   *kb.KB                        // see defaultKB
	inflight    map[string]context.CancelFunc // requests being answered, by id
	nextCall    int
	calls       map[string]chan *message // the server's own requests awaiting a response

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewServer makes a server; Serve runs it.
func NewServer(opts Options) *Server {
	if opts.Debounce <= 0 {
		opts.Debounce = 150 * time.Millisecond
	}
	return &Server{opts: opts, docs: map[string]*docState{}, projects: map[string]*project{},
		inflight: map[string]context.CancelFunc{}, calls: map[string]chan *message{}}
}

// ErrExitWithoutShutdown is Serve's error when the client sent exit
// without shutdown first (the protocol's exit code 1).
var ErrExitWithoutShutdown = errors.New("lsp: exit without shutdown")

// Serve reads messages from r and writes to w until the client sends exit
// or r ends. It returns nil after shutdown and exit, ErrExitWithoutShutdown
// after exit alone, and io.ErrUnexpectedEOF when the input ends first.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.conn = newConn(r, w)
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer func() {
		s.cancel()
		s.stopTimers()
		s.wg.Wait()
	}()
	for {
		m, err := s.conn.read()
		var rerr *ResponseError
		switch {
		case errors.As(err, &rerr):
			s.logf("bad message: %v", rerr)
			var id json.RawMessage
			if m != nil {
				id = m.ID
			}
			if id == nil {
				id = json.RawMessage("null")
			}
			s.reply(id, nil, rerr)
			continue
		case errors.Is(err, io.EOF):
			return io.ErrUnexpectedEOF
		case err != nil:
			return err
		}
		if m.isResponse() {
			s.answered(m)
			continue
		}
		if m.Method == "exit" {
			s.mu.Lock()
			down := s.shutdown
			s.mu.Unlock()
			if !down {
				return ErrExitWithoutShutdown
			}
			return nil
		}
		s.dispatch(m)
	}
}

// dispatch answers one request or notification. Notifications run in
// order, here, since each may change a document the next message reads
// (didOpen, didChange); they only record text and schedule analysis, so
// they are quick. Requests run concurrently, each with a context that
// $/cancelRequest cancels.
func (s *Server) dispatch(m *message) {
	isRequest := len(m.ID) > 0
	s.mu.Lock()
	initialized, down := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize":
		res, err := s.initialize(m.Params)
		s.reply(m.ID, res, err)
		return
	case !initialized:
		if isRequest {
			s.reply(m.ID, nil, &ResponseError{Code: CodeServerNotInit, Message: "the server is not initialized: send initialize first"})
		}
		return
	case m.Method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.reply(m.ID, nil, nil)
		return
	case down && isRequest:
		s.reply(m.ID, nil, &ResponseError{Code: CodeInvalidRequest, Message: "the server is shut down"})
		return
	}
	reg, ok := handlers[m.Method]
	if !ok {
		if isRequest {
			s.reply(m.ID, nil, &ResponseError{Code: CodeMethodNotFound, Message: "method not supported: " + m.Method})
		}
		return // unknown notifications, $/… included, are ignored
	}
	if !isRequest {
		s.call(s.ctx, m, reg.handler)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	key := string(m.ID)
	uri := requestURI(m.Params)
	s.mu.Lock()
	s.inflight[key] = cancel
	asked := s.docs[uri] // the document as it was when asked, nil when none
	var askedEdits uint64
	if asked != nil {
		askedEdits = asked.edits
	}
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		res, err := s.call(ctx, m, reg.handler)
		switch {
		case ctx.Err() != nil && s.ctx.Err() == nil:
			res, err = nil, &ResponseError{Code: CodeRequestCancelled, Message: "cancelled"}
		case asked != nil && s.editedSince(uri, asked, askedEdits):
			// The position asked about is in a text the document no
			// longer has: an answer computed on either text could point
			// at the wrong name (a rename would rename another one).
			res, err = nil, &ResponseError{Code: CodeContentModified, Message: "the document changed while the request was answered"}
		}
		s.reply(m.ID, res, err)
	}()
}

// requestURI is the document a request is about (its
// params.textDocument.uri), "" when it names none.
func requestURI(params json.RawMessage) string {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return p.TextDocument.URI
}

// editedSince reports whether the document uri was edited, closed or
// opened again since it was st with edits edits.
func (s *Server) editedSince(uri string, st *docState, edits uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri] != st || st.edits != edits
}

// call runs a handler, turning a panic into an internal error: one bad
// request must not end the session the person is typing in.
func (s *Server) call(ctx context.Context, m *message, h Handler) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			if onPanic != nil {
				onPanic(m.Method, p)
			}
			s.logf("panic in %s: %v\n%s", m.Method, p, debug.Stack())
			res, err = nil, &ResponseError{Code: CodeInternalError, Message: fmt.Sprintf("internal error in %s: %v", m.Method, p)}
		}
	}()
	res, err = h(ctx, s, m.Params)
	if err != nil && len(m.ID) == 0 {
		s.logf("%s: %v", m.Method, err)
	}
	return res, err
}

// onPanic, when set (by tests and the fuzzer), is told of every panic a
// handler had: the server survives them, so the client alone would see
// only an internal error.
var onPanic func(method string, p any)

func (s *Server) reply(id json.RawMessage, res any, err error) {
	m := &message{ID: id}
	if err != nil {
		var rerr *ResponseError
		if !errors.As(err, &rerr) {
			rerr = &ResponseError{Code: CodeInternalError, Message: err.Error()}
		}
		m.Error = rerr
	} else {
		body, merr := json.Marshal(res)
		if merr != nil {
			m.Error = &ResponseError{Code: CodeInternalError, Message: merr.Error()}
		} else {
			m.Result = body
		}
	}
	if werr := s.conn.write(m); werr != nil {
		s.logf("write: %v", werr)
	}
}

// Notify sends a notification to the client.
func (s *Server) Notify(method string, params any) {
	body, err := json.Marshal(params)
	if err != nil {
		s.logf("notify %s: %v", method, err)
		return
	}
	if err := s.conn.write(&message{Method: method, Params: body}); err != nil {
		s.logf("write: %v", err)
	}
}

// Call sends a request to the client and waits for its response, which is
// unmarshalled into result (when not nil).
func (s *Server) Call(ctx context.Context, method string, params, result any) error {
	body, err := json.Marshal(params)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.nextCall++
	id := json.RawMessage(strconv.Quote("cogflow-" + strconv.Itoa(s.nextCall)))
	ch := make(chan *message, 1)
	s.calls[string(id)] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.calls, string(id))
		s.mu.Unlock()
	}()
	if err := s.conn.write(&message{ID: id, Method: method, Params: body}); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if result != nil && len(m.Result) > 0 {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) answered(m *message) {
	s.mu.Lock()
	ch := s.calls[string(m.ID)]
	s.mu.Unlock()
	if ch != nil {
		// The channel holds one response; a client that answers twice
		// must not block the read loop, which nothing would then unblock.
		select {
		case ch <- m:
		default:
			s.logf("a second response to %s, ignored", m.ID)
		}
	}
}

// ShowMessage shows text to the person (window/showMessage); typ is 1
// error, 2 warning, 3 info, 4 log.
func (s *Server) ShowMessage(typ int, text string) {
	s.Notify("window/showMessage", map[string]any{"type": typ, "message": text})
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "cogflow lsp: "+format+"\n", args...)
	}
}

func init() {
	register("$/cancelRequest", cancelRequest, nil)
	register("initialized", func(ctx context.Context, s *Server, _ json.RawMessage) (any, error) {
		s.watchProjectFiles(ctx)
		return nil, nil
	}, nil)
}

func cancelRequest(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	cancel := s.inflight[string(p.ID)]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil, nil
}
