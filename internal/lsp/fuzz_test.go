package lsp

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"
)

// FuzzEdits sends a document a sequence of random incremental edits, in
// UTF-16 positions that may split a surrogate pair or point past a line,
// with every request the server answers after each edit, and checks that
// the server never panics, keeps the same text as a reference that applies
// the edits on its own, and that its last diagnostics are those of the last
// text (never stale).
func FuzzEdits(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05op9 = \x00"), unicodeSrc)
	f.Add([]byte("\x00\x00\x00\x00\x09\x09}"), unicodeSrc)
	f.Add([]byte("\x03\x10\x03\x12\x02😀\x01\x00\x01\x00\x00\x05\x05 \"é"), "task t \"x\" {\n  driver browser\n  op1 = click(button(name: \"中\"))\n}\n")
	f.Add([]byte("\x00\x00\x09\x00\x08try {\n"), "")
	f.Add([]byte("\x01\x03\x01\x03\x02\r\x02\x00\x02\x00\x01\r"), "task t {\r  driver browser # é\r  op1 = click(button(name: \"😀\"))\n}\n")
	f.Fuzz(func(t *testing.T, script []byte, start string) {
		if len(script) > 300 || len(start) > 4000 {
			return
		}
		var mu sync.Mutex
		var panics []string
		onPanic = func(method string, p any) {
			mu.Lock()
			panics = append(panics, fmt.Sprintf("%s: %v", method, p))
			mu.Unlock()
		}
		defer func() { onPanic = nil }()
		// A client's JSON carries valid UTF-8 only: json.Marshal replaces
		// each invalid byte by U+FFFD, and so does the conversion to runes.
		start = string([]rune(start))
		c := newTestClient(t, "", Options{})
		uri := c.open("fuzz.cog", start)
		ref := []byte(start)
		version := int32(1)
		for len(script) >= 5 {
			rng := Range{Start: Position{uint32(script[0] % 8), uint32(script[1] % 40)}, End: Position{uint32(script[2] % 8), uint32(script[3] % 40)}}
			n := int(script[4] % 16)
			script = script[5:]
			n = min(n, len(script))
			text := string([]rune(string(script[:n])))
			script = script[n:]
			version++
			c.change(uri, version, rng, text)
			ref = applyReference(ref, rng, text)
			askEverything(c, uri, rng)
		}
		ds := c.diagnostics(uri, version)
		d, err := c.srv.Document(uri)
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Text) != string(ref) {
			t.Fatalf("server text %q, reference %q", d.Text, ref)
		}
		want := analyze(uri, d.Path, version, ref, d.KB, d.ProjectDir).ProtocolDiagnostics()
		if fmt.Sprint(ds) != fmt.Sprint(want) {
			t.Fatalf("last diagnostics %v, want those of the last text %v", ds, want)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(panics) > 0 {
			t.Fatalf("panics: %v", panics)
		}
	})
}

// askEverything sends every request the server registered, about the
// edited range, and fails on an internal error (a handler panicked).
func askEverything(c *testClient, uri string, rng Range) {
	params := map[string]any{
		"textDocument": map[string]any{"uri": uri}, "position": rng.Start, "range": rng,
		"newName": "renamed", "context": map[string]any{"diagnostics": []any{}, "includeDeclaration": true},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true},
	}
	for method := range handlers {
		if !isDocumentRequest(method) {
			continue
		}
		if err := c.requestErr(method, params, nil); err != nil && err.Code == CodeInternalError {
			c.t.Fatalf("%s at %v: %v", method, rng, err)
		}
	}
}

// isDocumentRequest tells the requests about a document from the
// notifications, which the fuzzer sends on its own.
func isDocumentRequest(method string) bool {
	switch method {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave":
		return false
	}
	return len(method) > len("textDocument/") && method[:len("textDocument/")] == "textDocument/"
}

// applyReference applies an edit the simple way, on UTF-16 code units, to
// compare with the server's byte-offset implementation.
func applyReference(text []byte, rng Range, newText string) []byte {
	lines := splitLines(string(text))
	offset := func(p Position) int {
		if int(p.Line) >= len(lines) {
			return len(utf16.Encode([]rune(string(text))))
		}
		units := 0
		for i := 0; i < int(p.Line); i++ {
			units += len(utf16.Encode([]rune(lines[i])))
		}
		body := []rune(strings.TrimRight(lines[p.Line], "\r\n"))
		u := 0
		for _, r := range body {
			w := len(utf16.Encode([]rune{r}))
			if u+w > int(p.Character) {
				break
			}
			u += w
		}
		return units + u
	}
	all := utf16.Encode([]rune(string(text)))
	s, e := offset(rng.Start), offset(rng.End)
	if e < s {
		s, e = e, s
	}
	out := append(append(append([]uint16{}, all[:s]...), utf16.Encode([]rune(newText))...), all[e:]...)
	return []byte(string(utf16.Decode(out)))
}

// splitLines splits s after each line break the protocol names: "\n",
// "\r\n" and a lone "\r".
func splitLines(s string) []string {
	var out []string
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return append(out, s)
		}
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
}
