package lsp

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// countingReader counts what the connection read of an input.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestReadFraming feeds conn.read hostile and broken streams: each ends
// in a framing error (or a clean end), and none makes the server read, so
// buffer, far more than the headers' bound.
func TestReadFraming(t *testing.T) {
	body := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	ok := "Content-Length: 52\r\n\r\n" + body
	endless := strings.Repeat("a", 16<<20) // 16 MiB with no line break
	cases := []struct {
		name    string
		in      string
		wantErr error // nil: a message
		maxRead int   // 0: no bound checked
	}{
		{"a message", ok, nil, 0},
		{"extra headers, any case", "content-type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 52\r\n\r\n" + body, nil, 0},
		{"nothing", "", io.EOF, 0},
		{"no Content-Length", "Content-Type: x\r\n\r\n" + body, errFraming, 0},
		{"a header without a colon", "Content-Length 52\r\n\r\n" + body, errFraming, 0},
		{"a negative length", "Content-Length: -1\r\n\r\n", errFraming, 0},
		{"a huge length", "Content-Length: 99999999999\r\n\r\n", errFraming, 0},
		{"a body cut short", "Content-Length: 52\r\n\r\n" + body[:10], errFraming, 0},
		{"headers cut short", "Content-Length: 52\r\n", errFraming, 0},
		{"a header line that never ends", endless, errFraming, 2 * maxHeader},
		{"a length line that never ends", "Content-Length: " + strings.Repeat("1", 16<<20), errFraming, 2 * maxHeader},
		{"endless header lines", strings.Repeat("X-Pad: "+strings.Repeat("p", 100)+"\r\n", 160000), errFraming, 2 * maxHeader},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := &countingReader{r: strings.NewReader(tc.in)}
			m, err := newConn(in, io.Discard).read()
			switch {
			case tc.wantErr == nil && (err != nil || m == nil || m.Method != "initialized"):
				t.Fatalf("read: %+v, %v; want the message", m, err)
			case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
				t.Fatalf("read: %+v, %v; want %v", m, err, tc.wantErr)
			}
			if tc.maxRead > 0 && in.n > tc.maxRead {
				t.Errorf("read %d bytes of the input before giving up, want at most %d", in.n, tc.maxRead)
			}
		})
	}
}

// A client that answers one of the server's requests several times must
// not block the read loop (answered), whatever the waiting Call does.
func TestDuplicateResponses(t *testing.T) {
	s := NewServer(Options{})
	id := `"cogflow-1"`
	s.calls[id] = make(chan *message, 1) // a Call waiting, not reading yet
	done := make(chan struct{})
	go func() {
		for range 3 {
			s.answered(&message{ID: json.RawMessage(id), Result: json.RawMessage("null")})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("answered blocked on a repeated response")
	}
}
