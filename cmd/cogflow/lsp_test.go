package main

import (
	"fmt"
	"strings"
	"testing"
)

// frame writes JSON-RPC bodies the way a client does on stdin.
func frame(bodies ...string) string {
	var b strings.Builder
	for _, body := range bodies {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	return b.String()
}

// `cogflow lsp` speaks the protocol on stdin/stdout; its exit code says
// whether the client shut it down properly.
func TestLSPCommand(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	tests := []struct {
		name   string
		stdin  string
		code   int
		stdout []string
	}{
		{"shutdown then exit", frame(initialize, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`),
			0, []string{`"name":"cogflow"`, `"textDocumentSync"`, `"id":2,"result":null`}},
		{"exit without shutdown", frame(initialize, `{"jsonrpc":"2.0","method":"exit"}`), 1, []string{`"capabilities"`}},
		{"input ends", frame(initialize), 1, []string{`"capabilities"`}},
		{"before initialize", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}`), 1, []string{`"code":-32002`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, tc.stdin, "lsp", "--stdio")
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d; stderr %s", r.code, tc.code, r.stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %s:\n%s", want, r.stdout)
				}
			}
		})
	}
}
