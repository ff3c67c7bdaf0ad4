package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"golang.org/x/tools/txtar"
)

// demoGolden reads a compiler golden file: the trace it compiles and the
// workflow the compiler wrote for it, so that these tests read what the
// compiler really writes.
func demoGolden(t *testing.T, name string) (traceJSON, cog string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "compiler", "testdata", "golden", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		switch f.Name {
		case "trace.json":
			traceJSON = string(f.Data)
		case "want.cog":
			cog = string(f.Data)
		}
	}
	if traceJSON == "" || cog == "" {
		t.Fatalf("%s: no trace.json or want.cog", name)
	}
	return traceJSON, cog
}

// demoHints asks for the inlay hints of the whole document, as
// "line:label" with the hint's position checked to be the end of the
// step's code, before its comment.
func demoHints(t *testing.T, c *testClient, uri, text string) []string {
	t.Helper()
	var hints []InlayHint
	c.request("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": Range{End: Position{Line: 1000}}}, &hints)
	lines := strings.Split(text, "\n")
	var out []string
	for _, h := range hints {
		line := lines[h.Position.Line]
		code := line
		if i := strings.Index(line, "  # "); i >= 0 {
			code = strings.TrimRight(line[:i], " ")
		}
		if want := uint32(len(utf16.Encode([]rune(code)))); h.Position.Character != want {
			t.Errorf("hint %q at %d:%d, want the end of the code, character %d", h.Label, h.Position.Line, h.Position.Character, want)
		}
		out = append(out, strings.TrimSpace(code[:strings.Index(code, "=")])+": "+h.Label)
	}
	return out
}

func TestDemoValues(t *testing.T) {
	kwTrace, kwCog := demoGolden(t, "keyword")
	pwTrace, pwCog := demoGolden(t, "password")
	ctTrace, ctCog := demoGolden(t, "controls")
	keywordHints := []string{
		`op1: saw "http://127.0.0.1:8088/wiki"`,
		`op2: saw "Denali"`,
		`op3: saw "Search"`,
		`op4: saw "Denali"`,
		`op5: saw "Denali is the highest mountain in North…"`,
		`op6: saw "Notes"`,
		`op7: saw "Alaska"`,
	}
	cases := []struct {
		name      string
		files     map[string]string // name → content, in a fresh folder
		cog       string            // the file opened
		want      []string
		noMessage bool
	}{
		{"keyword", map[string]string{"keyword.trace.json": kwTrace, "keyword.cog": kwCog}, "keyword.cog", keywordHints, false},
		{"unicode before the hint", map[string]string{
			"keyword.trace.json": strings.ReplaceAll(kwTrace, `"Alaska"`, `"é中😀 Alaska"`),
			"keyword.cog":        strings.Replace(kwCog, `textbox(name: "Notes", id: "notes")`, `textbox(name: "é 中 😀 Notes", id: "notes")`, 1)},
			"keyword.cog", append(keywordHints[:6:6], `op7: saw "é中😀 Alaska"`), false},
		{"syntax error elsewhere", map[string]string{"keyword.trace.json": kwTrace,
			"keyword.cog": strings.Replace(kwCog, "  input notes", "  zz = ((\n  input notes", 1)}, "keyword.cog", keywordHints, false},
		{"absolute path in the header", map[string]string{"sub/keyword.trace.json": kwTrace,
			"keyword.cog": strings.Replace(kwCog, "from keyword.trace.json", "from {dir}/sub/keyword.trace.json", 1)}, "keyword.cog", keywordHints, false},
		{"password: the secret step shows nothing", map[string]string{"password.trace.json": pwTrace, "password.cog": pwCog}, "password.cog",
			[]string{`op1: saw "http://127.0.0.1:8088/login"`, `op2: saw "ada"`}, false},
		{"password: a secret input, even in a trace that does not mark it", map[string]string{
			"password.trace.json": strings.ReplaceAll(strings.ReplaceAll(pwTrace, `"secret": true`, `"secret": false`), "••••••", "hunter2"),
			"password.cog":        pwCog}, "password.cog",
			[]string{`op1: saw "http://127.0.0.1:8088/login"`, `op2: saw "ada"`}, false},
		{"a loop over a secret list: its variable is secret too", map[string]string{"keyword.trace.json": kwTrace, "keyword.cog": demoSecretLoop(kwCog)}, "keyword.cog",
			keywordHints[:6], false},
		{"controls: a checkbox's name, a select's option label (targets given by ref)", map[string]string{"controls.trace.json": ctTrace, "controls.cog": ctCog}, "controls.cog",
			[]string{`op1: saw "http://127.0.0.1:8088/prefs"`, `op2: saw "Newsletter"`, `op3: saw "Weekly"`, `op4: saw "Large"`, `op5: saw "Save"`}, false},
		{"no trace", map[string]string{"keyword.cog": kwCog}, "keyword.cog", nil, true},
		{"broken trace", map[string]string{"keyword.trace.json": kwTrace[:len(kwTrace)/2], "keyword.cog": kwCog}, "keyword.cog", nil, true},
		{"not a trace", map[string]string{"keyword.trace.json": `{"format": "something else"}`, "keyword.cog": kwCog}, "keyword.cog", nil, true},
		{"not compiled", map[string]string{"keyword.trace.json": kwTrace, "keyword.cog": strings.Replace(kwCog, "# Compiled from", "# Written after", 1)}, "keyword.cog", nil, true},
		{"merged", map[string]string{"keyword.trace.json": kwTrace,
			"keyword.cog": strings.Replace(kwCog, "keyword.trace.json by", "keyword.trace.json, other.json (2 demonstrations merged) by", 1)}, "keyword.cog", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				navWrite(t, filepath.Join(dir, name), strings.ReplaceAll(text, "{dir}", dir))
			}
			text := strings.ReplaceAll(tc.files[tc.cog], "{dir}", dir)
			c := newTestClient(t, dir, Options{})
			uri := c.open(tc.cog, text)
			got := demoHints(t, c, uri, text)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("hints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, h := range got {
				if strings.Contains(h, "hunter2") || strings.Contains(h, "•") {
					t.Errorf("a secret in a hint: %s", h)
				}
			}
			if tc.noMessage {
				demoNoPopup(t, c, uri)
			}
		})
	}
}

// demoSecretLoop rewrites the keyword workflow so that op7 types each
// element of a secret list, in a loop: the demonstration's "Alaska" is
// then a secret's value.
func demoSecretLoop(cog string) string {
	cog = strings.Replace(cog, `input notes: text = "Alaska"`, `input notes: list<secret>`, 1)
	i := strings.Index(cog, "  op7 =")
	j := i + strings.Index(cog[i:], "\n")
	return cog[:i] + "  for note in notes {\n    op7 = type(textbox(name: \"Notes\", id: \"notes\"), note)  " + cog[strings.LastIndex(cog[:j], "# e"):j] + "\n  }" + cog[j:]
}

// demoNoPopup checks that no message reached the person: a missing or
// broken trace only means no hints.
func demoNoPopup(t *testing.T, c *testClient, uri string) {
	t.Helper()
	c.diagnostics(uri, 1) // everything the open caused has been sent
	for {
		select {
		case m := <-c.notes:
			if m.Method == "window/showMessage" {
				t.Errorf("a message: %s", m.Params)
			}
		default:
			return
		}
	}
}

// TestDemoHover: hovering a step of a compiled file shows what the
// demonstration saw, and the trace is read again when it changes.
func TestDemoHover(t *testing.T) {
	kwTrace, kwCog := demoGolden(t, "keyword")
	dir := t.TempDir()
	tracePath := filepath.Join(dir, "keyword.trace.json")
	navWrite(t, tracePath, kwTrace)
	c := newTestClient(t, dir, Options{})
	uri := c.open("keyword.cog", kwCog)
	hoverAt := func(marker string) string {
		var h *Hover
		c.request("textDocument/hover", navPosParams(uri, navAt(t, kwCog, marker, 0, 1)), &h)
		if h == nil {
			t.Fatalf("no hover on %s", marker)
		}
		return strings.ReplaceAll(h.Contents.Value, `\`, "")
	}
	if h := hoverAt("op7 ="); !strings.Contains(h, `Seen in the demonstration: typed "Alaska" (e22…e34 of keyword.trace.json)`) {
		t.Errorf("hover on op7:\n%s", h)
	}
	if h := hoverAt("op2, within"); !strings.Contains(h, `typed "Denali"`) {
		t.Errorf("hover on a use of op2:\n%s", h)
	}
	// Hints only for the range asked for: the line of op2.
	line := navAt(t, kwCog, "op2 =", 0, 0).Line
	var hints []InlayHint
	c.request("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": Range{Start: Position{Line: line}, End: Position{Line: line + 1}}}, &hints)
	if len(hints) != 1 || hints[0].Label != `saw "Denali"` || hints[0].Position.Line != line {
		t.Errorf("hints of op2's line: %+v", hints)
	}
	// The trace changes: the hint follows (the cache is by time and size).
	navWrite(t, tracePath, strings.ReplaceAll(kwTrace, `"Alaska"`, `"Yukon"`))
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(tracePath, later, later); err != nil {
		t.Fatal(err)
	}
	if h := hoverAt("op7 ="); !strings.Contains(h, `typed "Yukon"`) {
		t.Errorf("hover after the trace changed:\n%s", h)
	}
}

func TestDemoIDs(t *testing.T) {
	cases := map[string]string{
		"e1":             "e1",
		"e15, e16, e17":  "e15 e16 e17",
		"e2…e5":          "e2 e3 e4 e5",
		"e5…e7, e9, e12": "e5 e6 e7 e9 e12",
		"e1, e3, …":      "e1 e3",
		"e9…e2":          "",
	}
	for in, want := range cases {
		if got := strings.Join(demoIDs(in), " "); got != want {
			t.Errorf("demoIDs(%q) = %q, want %q", in, got, want)
		}
	}
}
