package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// withSubcategory is the default knowledge base with one more
// subcategory, as a project's knowledge.hcl after `cogflow reflect`.
func withSubcategory(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile("../../stdlib/knowledge.hcl")
	if err != nil {
		t.Fatal(err)
	}
	open := `category "information_comprehension" {`
	return strings.Replace(string(src), open, open+`
  subcategory "`+name+`" {
    definition = "Say how a review feels about the product."
    examples = [
      "`+name+`<\"how the review feels\">(op1)",
      "`+name+`<\"the mood of the comment\">(op2)",
    ]
  }
`, 1)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func usesSub(name string) string {
	return `task t "t" {
  driver browser
  op1 = copy(textbox(name: "Review"))
  op2 = type(textbox(name: "Mood"), ` + name + `<"how the review feels">(op1))
}
`
}

// Each root of a multi-root workspace has its own .cogflow folder: a
// subcategory one project's knowledge base adds is known in its files and
// unknown in the other's.
func TestProjectPerWorkspaceFolder(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	writeFile(t, filepath.Join(a, ".cogflow", "knowledge.hcl"), withSubcategory(t, "sentiment"))
	writeFile(t, filepath.Join(b, ".cogflow", "knowledge.hcl"), withSubcategory(t, "tone"))
	c := newTestClient(t, base, Options{})
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": PathToURI(a), "name": "a"}, map[string]any{"uri": PathToURI(b), "name": "b"}}}})
	inA := c.openAt(filepath.Join(a, "flows", "x.cog"), usesSub("sentiment"))
	if ds := c.diagnostics(inA, 1); len(ds) != 0 {
		t.Errorf("a/flows/x.cog: %v, want none (a's knowledge base has sentiment)", ds)
	}
	inB := c.openAt(filepath.Join(b, "x.cog"), usesSub("sentiment"))
	ds := c.diagnostics(inB, 1)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "sentiment") {
		t.Errorf("b/x.cog: %v, want one error about sentiment", ds)
	}
}

// A change of knowledge.hcl re-checks the open files; a knowledge.hcl
// that does not parse gets its errors on itself.
func TestKnowledgeBaseChangeRechecks(t *testing.T) {
	dir := t.TempDir()
	kbPath := filepath.Join(dir, ".cogflow", "knowledge.hcl")
	writeFile(t, kbPath, withSubcategory(t, "sentiment"))
	c := newTestClient(t, dir, Options{})
	uri := c.open("x.cog", usesSub("sentiment"))
	if ds := c.diagnostics(uri, 1); len(ds) != 0 {
		t.Fatalf("before: %v", ds)
	}
	writeFile(t, kbPath, withSubcategory(t, "tone"))
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": PathToURI(kbPath), "type": 2}}})
	if ds := c.diagnostics(uri, 1); len(ds) != 1 || !strings.Contains(ds[0].Message, "sentiment") {
		t.Errorf("after the knowledge base lost sentiment: %v", ds)
	}
	writeFile(t, kbPath, "category {")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": PathToURI(kbPath), "type": 2}}})
	if ds := c.diagnostics(PathToURI(kbPath), 0); len(ds) == 0 || ds[0].Range.Start.Line != 0 {
		t.Errorf("a broken knowledge.hcl: %v, want its errors on line 1", ds)
	}
}

func init() {
	register("cogflow/test/wait", func(ctx context.Context, _ *Server, _ json.RawMessage) (any, error) {
		select {
		case <-ctx.Done():
			return "cancelled", nil
		case <-time.After(20 * time.Second):
			return "not cancelled", nil
		}
	}, nil)
}

func TestCancelRequest(t *testing.T) {
	c := newTestClient(t, "", Options{})
	id, ch := c.send("cogflow/test/wait", nil)
	c.notify("$/cancelRequest", map[string]any{"id": id})
	select {
	case m := <-ch:
		if m.Error == nil || m.Error.Code != CodeRequestCancelled {
			t.Errorf("cancelled request: result %s error %v, want code %d", m.Result, m.Error, CodeRequestCancelled)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no response to the cancelled request")
	}
}

// The server answers bad messages with errors and goes on.
func TestBadMessages(t *testing.T) {
	c := newTestClient(t, "", Options{})
	for _, body := range []string{`{"jsonrpc": "2.0", "id": 1, "method": `, `[1, 2]`, `{"id": 7, "method": "shutdown"}`} {
		if _, err := c.conn.w.Write([]byte("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)); err != nil {
			t.Fatal(err)
		}
	}
	// Still alive: a document opens and is checked.
	uri := c.open("x.cog", "task t \"t\" {\n  driver browser\n  op1 = click(nope)\n}\n")
	if ds := c.diagnostics(uri, 1); len(ds) == 0 {
		t.Error("no diagnostics after bad messages")
	}
}

// A changed cogflow.hcl is checked, and its problems shown on it; fixed,
// they go away.
func TestConfigChangeIsChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cogflow.hcl")
	c := newTestClient(t, dir, Options{})
	changed := func() {
		c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": PathToURI(path), "type": 2}}})
	}
	writeFile(t, path, "llm {\n  text_modle = \"gpt-4o\"\n}\n")
	changed()
	ds := c.diagnostics(PathToURI(path), 0)
	if len(ds) == 0 || ds[0].Range.Start.Line != 1 {
		t.Fatalf("a misspelled attribute in cogflow.hcl: %v, want an error on line 2", ds)
	}
	writeFile(t, path, "llm {\n  text_model = \"gpt-4o\"\n}\n")
	changed()
	if ds := c.diagnostics(PathToURI(path), 0); len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}
}

// A knowledge.hcl that changes while the server reads it: the read may
// be of the old text, and the server must not keep it once told of the
// change (the next analysis reads the file again).
func TestKnowledgeBaseChangeDuringLoad(t *testing.T) {
	dir := t.TempDir()
	kbPath := filepath.Join(dir, ".cogflow", "knowledge.hcl")
	writeFile(t, kbPath, withSubcategory(t, "sentiment"))
	s := NewServer(Options{})
	s.conn = newConn(strings.NewReader(""), io.Discard)
	s.roots = []string{dir}
	changed := false
	onProjectLoaded = func(string) {
		if changed {
			return
		}
		changed = true
		writeFile(t, kbPath, withSubcategory(t, "tone"))
		params, _ := json.Marshal(map[string]any{"changes": []any{map[string]any{"uri": PathToURI(kbPath), "type": 2}}})
		if _, err := didChangeWatchedFiles(context.Background(), s, params); err != nil {
			t.Error(err)
		}
	}
	defer func() { onProjectLoaded = nil }()
	file := filepath.Join(dir, "x.cog")
	s.projectFor(file) // read before the change, told of it before it is cached
	k, _ := s.projectFor(file)
	if _, _, ok := k.Lookup("tone"); !ok {
		t.Error("after the change: the knowledge base has no tone (the old one was kept)")
	}
	if _, _, ok := k.Lookup("sentiment"); ok {
		t.Error("after the change: the knowledge base still has sentiment")
	}
}

// testRelease lets a cogflow/test/held request answer.
var testRelease = make(chan struct{})

func init() {
	register("cogflow/test/held", func(ctx context.Context, s *Server, params json.RawMessage) (any, error) {
		<-testRelease
		return "answered", nil
	}, nil)
}

// A request about a document that is edited before it is answered gets
// ContentModified, not an answer about a position in a text the document
// no longer has; one about another document, or left alone, is answered.
func TestRequestOvertakenByEdit(t *testing.T) {
	cases := []struct {
		name     string
		edit     bool // the document asked about is edited meanwhile
		editTo   string
		wantCode int // 0: answered
	}{
		{"edited meanwhile", true, "a.cog", CodeContentModified},
		{"another document edited", true, "b.cog", 0},
		{"not edited", false, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, "", Options{})
			a := c.open("a.cog", "task t \"t\" {\n  driver browser\n}\n")
			b := c.open("b.cog", "task u \"u\" {\n  driver browser\n}\n")
			_, ch := c.send("cogflow/test/held", pos(a, 1, 2))
			if tc.edit {
				uri := map[string]string{"a.cog": a, "b.cog": b}[tc.editTo]
				c.change(uri, 2, Range{Start: Position{0, 0}, End: Position{0, 0}}, "# x\n")
			}
			// Answered after the edit was read: the edit has been applied.
			c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": b}}, nil)
			testRelease <- struct{}{}
			select {
			case m := <-ch:
				switch {
				case tc.wantCode == 0 && m.Error != nil:
					t.Errorf("error %v, want an answer", m.Error)
				case tc.wantCode != 0 && (m.Error == nil || m.Error.Code != tc.wantCode):
					t.Errorf("result %s error %v, want code %d", m.Result, m.Error, tc.wantCode)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no response")
			}
		})
	}
}

// The .cogflow folder of a file: the nearest one, never above the
// workspace folder that holds the file, however the folder's URI is
// written (a trailing slash included).
func TestFindProjectDir(t *testing.T) {
	base := t.TempDir()
	writeFile(t, filepath.Join(base, ".cogflow", "knowledge.hcl"), "")
	writeFile(t, filepath.Join(base, "ws", "b", ".cogflow", "knowledge.hcl"), "")
	ws := filepath.Join(base, "ws")
	cases := []struct {
		name string
		root string // as the client writes it
		file string
		want string
	}{
		{"no .cogflow in the folder", PathToURI(ws), filepath.Join(ws, "a", "x.cog"), ""},
		{"a folder URI with a trailing slash", PathToURI(ws) + "/", filepath.Join(ws, "a", "x.cog"), ""},
		{"the nearest one", PathToURI(ws) + "/", filepath.Join(ws, "b", "c", "x.cog"), filepath.Join(ws, "b", ".cogflow")},
		{"a file outside the folders", PathToURI(ws), filepath.Join(base, "x.cog"), filepath.Join(base, ".cogflow")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(Options{})
			if _, err := s.initialize(json.RawMessage(`{"workspaceFolders": [{"uri": "` + tc.root + `", "name": "ws"}]}`)); err != nil {
				t.Fatal(err)
			}
			if got := s.findProjectDir(tc.file); got != tc.want {
				t.Errorf("findProjectDir(%s) = %q, want %q", tc.file, got, tc.want)
			}
		})
	}
}
