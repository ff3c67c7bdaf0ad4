package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC 2.0 error codes the server sends (the protocol's own and LSP's).
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeServerNotInit    = -32002
	CodeRequestCancelled = -32800
	CodeContentModified  = -32801
)

// maxMessage bounds one message's body: a client that announces more is
// cut off rather than allowed to make the server allocate it.
const maxMessage = 64 << 20

// maxHeader bounds one message's header lines together: a client's
// headers are a few dozen bytes, and a stream that never sends a line
// break must not make the server buffer it.
const maxHeader = 64 << 10

// ResponseError is an error the client sees in a response.
type ResponseError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *ResponseError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, and Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *ResponseError  `json:"error,omitempty"`
}

func (m *message) isResponse() bool { return m.Method == "" && len(m.ID) > 0 }

// conn reads and writes framed messages: a Content-Length header, a blank
// line, then the JSON body.
type conn struct {
	r  *bufio.Reader
	mu sync.Mutex // one writer at a time: handlers answer concurrently
	w  io.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReader(r), w: w}
}

// errFraming is a message the server cannot delimit: the stream cannot go
// on after it.
var errFraming = errors.New("lsp: bad message framing")

// read returns the next message. A body that is not JSON-RPC gives a
// *ResponseError (the client is told, the stream goes on); a broken
// header gives errFraming; the end of input gives io.EOF.
func (c *conn) read() (*message, error) {
	length := -1
	budget := maxHeader
	for {
		line, err := c.headerLine(&budget)
		if err != nil {
			if errors.Is(err, io.EOF) && length < 0 && budget == maxHeader {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("%w: %v", errFraming, err)
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q", errFraming, line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("%w: Content-Length %q", errFraming, value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: no Content-Length", errFraming)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, fmt.Errorf("%w: %v", errFraming, err)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, &ResponseError{Code: CodeParseError, Message: "not JSON: " + err.Error()}
	}
	if m.JSONRPC != "2.0" || (m.Method == "" && len(m.ID) == 0) {
		return &m, &ResponseError{Code: CodeInvalidRequest, Message: `not a JSON-RPC 2.0 message (needs "jsonrpc": "2.0" and a method or an id)`}
	}
	return &m, nil
}

// headerLine reads one header line, without its line break, taking its
// length from *budget; a line that would exceed the budget is an error,
// read no further.
func (c *conn) headerLine(budget *int) (string, error) {
	var line []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(line)+len(chunk) > *budget {
			return "", fmt.Errorf("headers longer than %d bytes", maxHeader)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			*budget -= len(line)
			return strings.TrimRight(string(line), "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return "", io.ErrUnexpectedEOF
		default:
			return "", err
		}
	}
}

// write sends one message.
func (c *conn) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}
