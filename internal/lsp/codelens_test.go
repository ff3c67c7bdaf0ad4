package lsp

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestCodeLens(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text := "task first \"é 中 😀\" {\n  driver browser\n  op1 = open(\"http://127.0.0.1:1/\")\n}\n\n" +
		"skill s() {\n  x = back()\n}\n\n  task second {\n  driver browser\n  op1 = back()\n}\n"
	uri := c.open("a.cog", text)
	var lenses []CodeLens
	c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
	want := []struct {
		line, char uint32
		title, cmd string
		task       string
	}{
		{0, 5, "▶ Run task", CommandRunTask, "first"},
		{0, 5, "Dry run", CommandDryRun, "first"},
		{9, 7, "▶ Run task", CommandRunTask, "second"},
		{9, 7, "Dry run", CommandDryRun, "second"},
	}
	if len(lenses) != len(want) {
		t.Fatalf("%d lenses, want %d: %+v", len(lenses), len(want), lenses)
	}
	for i, w := range want {
		l := lenses[i]
		if l.Range.Start != (Position{w.line, w.char}) || l.Command == nil || l.Command.Title != w.title || l.Command.Command != w.cmd ||
			len(l.Command.Arguments) != 2 || l.Command.Arguments[0] != uri || l.Command.Arguments[1] != w.task {
			t.Errorf("lens %d = %+v %+v, want %+v", i, l.Range, l.Command, w)
		}
	}
	var res map[string]any
	if err := c.requestErr("workspace/executeCommand", map[string]any{"command": "cogflow.nothing", "arguments": []any{uri, "first"}}, &res); err == nil {
		t.Error("an unknown command: no error")
	}
}

// buildCogflow builds the cogflow binary once for the run tests.
func buildCogflow(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "cogflow")
	start := time.Now()
	out, err := exec.Command("go", "build", "-o", exe, "github.com/cogflow/cogflow/cmd/cogflow").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("built cogflow in %v", time.Since(start).Round(time.Millisecond))
	return exe
}

// closedPort is a port on 127.0.0.1 that nothing listens on.
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// notesUntil reads notifications until one of method whose params contain
// part arrives, and returns all it read.
func (c *testClient) notesUntil(method, part string) []*message {
	c.t.Helper()
	var seen []*message
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-c.notes:
			if !ok {
				c.t.Fatalf("the server ended before %s %q", method, part)
			}
			seen = append(seen, m)
			if m.Method == method && strings.Contains(string(m.Params), part) {
				return seen
			}
		case <-deadline:
			c.t.Fatalf("no %s with %q in 60s", method, part)
		}
	}
}

func showMessageText(m *message) (int, string) {
	var p struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.Type, p.Message
}

// writeOpen writes a workflow to the workspace folder and opens it.
func (c *testClient) writeOpen(name, text string) string {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.dir, name), []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
	return c.open(name, text)
}

func (c *testClient) execute(cmd, uri, task string) runResult {
	c.t.Helper()
	var res runResult
	c.request("workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{uri, task}}, &res)
	return res
}

// The run tests run the real cogflow binary: a dry run (no browser), a run
// whose driver cannot start, a run whose step fails in a real headless
// Chromium, and a cancelled run whose processes must all be gone.
func TestRunTask(t *testing.T) {
	exe := buildCogflow(t)
	c := newTestClient(t, "", Options{Executable: exe})

	t.Run("dry run", func(t *testing.T) {
		uri := c.writeOpen("dry.cog", "task dry \"é 中 😀\" {\n  driver browser\n  input q: text = \"中\"\n  op1 = open(\"http://127.0.0.1:1/\")\n  op2 = type(textbox(name: \"😀\"), q)\n}\n")
		res := c.execute(CommandDryRun, uri, "dry")
		if res.Outcome != "dry-run" || !strings.Contains(res.Message, "2 steps planned") {
			t.Fatalf("result %+v", res)
		}
		seen := c.notesUntil("window/showMessage", "2 steps planned")
		plan := false
		for _, m := range seen {
			if m.Method == "window/logMessage" && strings.Contains(string(m.Params), "task dry") {
				plan = true
			}
		}
		if !plan {
			t.Error("the plan is not in the log")
		}
	})

	t.Run("unsaved file", func(t *testing.T) {
		c.writeOpen("unsaved.cog", "task u {\n  driver browser\n  op1 = back()\n}\n")
		uri := c.open("unsaved.cog", "task u {\n  driver browser\n  op1 = back()\n  op2 = back()\n}\n")
		res := c.execute(CommandRunTask, uri, "u")
		if res.Outcome != "not-run" || !strings.Contains(res.Message, "save unsaved.cog first") {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("driver unavailable", func(t *testing.T) {
		uri := c.writeOpen("uia.cog", "task w {\n  driver uia\n  op1 = launch(\"notepad.exe\")\n}\n")
		res := c.execute(CommandRunTask, uri, "w")
		if res.Outcome != "not-run" || !strings.Contains(res.Message, "did not run") || res.RunID != "" {
			t.Fatalf("result %+v", res)
		}
		seen := c.notesUntil("window/showMessage", "did not run")
		if typ, msg := showMessageText(seen[len(seen)-1]); typ != 1 || !strings.Contains(msg, "uia") {
			t.Errorf("message %d %q, want an error naming the driver", typ, msg)
		}
		t.Logf("message: %s", res.Message)
	})

	// The server gives a run no input values, so a secret (which has no
	// default) never reaches it; the run says which input it lacks.
	t.Run("input without a value", func(t *testing.T) {
		uri := c.writeOpen("secret.cog", "task s {\n  driver browser\n  input pw: secret\n  op1 = type(textbox(name: \"é\"), pw)\n}\n")
		res := c.execute(CommandRunTask, uri, "s")
		if res.Outcome != "not-run" || !strings.Contains(res.Message, "input pw has no value") {
			t.Fatalf("result %+v", res)
		}
	})

	t.Run("failing step", func(t *testing.T) {
		port := closedPort(t)
		text := fmt.Sprintf("task fails \"é 中 😀\" {\n  driver browser\n  op1 = open(\"http://127.0.0.1:%d/\")\n  op2 = back()\n}\n", port)
		uri := c.writeOpen("fails.cog", text)
		c.diagnostics(uri, 1)
		res := c.execute(CommandRunTask, uri, "fails")
		if res.Outcome != "failed" || res.RunID == "" || !strings.Contains(res.Message, "at step op1 (line 3)") {
			t.Fatalf("result %+v", res)
		}
		t.Logf("message: %s", res.Message)
		seen := c.notesUntil("window/showMessage", "at step op1")
		var runDiag *Diagnostic
		for _, m := range seen {
			if m.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p PublishDiagnosticsParams
			_ = json.Unmarshal(m.Params, &p)
			for i := range p.Diagnostics {
				if p.URI == uri && p.Diagnostics[i].Source == runSource {
					runDiag = &p.Diagnostics[i]
				}
			}
		}
		if runDiag == nil || runDiag.Range.Start != (Position{2, 2}) || !strings.Contains(runDiag.Message, "op1 failed") {
			t.Fatalf("run diagnostic %+v", runDiag)
		}
		if typ, _ := showMessageText(seen[len(seen)-1]); typ != 1 {
			t.Errorf("message type %d, want 1 (error)", typ)
		}
		// The next edit clears it.
		c.change(uri, 2, Range{Start: Position{3, 0}, End: Position{3, 0}}, "  # é\n")
		for _, d := range c.diagnostics(uri, 2) {
			if d.Source == runSource {
				t.Errorf("the run's diagnostic outlived an edit: %v", d)
			}
		}
	})

	t.Run("cancel", func(t *testing.T) { testRunCancel(t, c) })
}

// A cancelled run ($/cancelRequest) stops: the request answers
// "cancelled", and the run's processes, the browser included, are gone.
func testRunCancel(t *testing.T, c *testClient) {
	if runtime.GOOS != "linux" {
		t.Skip("the test finds the run's processes in /proc")
	}
	pids := make(chan int, 1)
	runStarted = func(pid int) { pids <- pid }
	defer func() { runStarted = nil }()
	uri := c.writeOpen("long.cog", "task long {\n  driver browser\n  op1 = wait(120)\n}\n")
	id, ch := c.send("workspace/executeCommand", map[string]any{"command": CommandRunTask, "arguments": []any{uri, "long"}})
	var pid int
	select {
	case pid = <-pids:
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not start")
	}
	// Wait for the browser: the run's descendants include a chromium.
	var procs []int
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		procs = descendants(pid)
		if hasChromium(procs) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !hasChromium(procs) {
		t.Fatalf("no browser under the run after 30s: %v", procs)
	}
	procs = append(procs, pid)
	time.Sleep(time.Second) // let the step begin
	start := time.Now()
	c.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
	select {
	case m := <-ch:
		if m.Error == nil || m.Error.Code != CodeRequestCancelled {
			t.Errorf("response %+v, want cancelled", m)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no response 60s after the cancel")
	}
	t.Logf("cancelled in %v; %d processes", time.Since(start).Round(time.Millisecond), len(procs))
	for _, p := range procs {
		if alive(p) {
			t.Errorf("process %d outlived the cancelled run: %s", p, procName(p))
		}
	}
}

func hasChromium(pids []int) bool {
	for _, p := range pids {
		if strings.Contains(procName(p), "chrom") {
			return true
		}
	}
	return false
}

func procName(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}

// alive: the process exists and is not a zombie waiting for its reaper.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
