//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/stdlib/kb"
)

// nvimFixture is the .cog file Neovim opens: one error (keywrd, line 9)
// after é 中 😀, a dependency on the project's own subcategory headline
// (hover), and an anchor declared after é 中 😀 on a line it shares with an
// input (definition; formatting splits the line). The Lua script names
// these lines; keep both in step.
const nvimFixture = `# é 中 😀: text in three widths before the positions the test checks
task look_up "Look up a keyword and note its headline" {
  driver browser
  input keyword: text = "Kilimanjaro"
  input mark: text = "é中😀"  anchor notes = textbox(name: "Notes")

  op1 = open("http://127.0.0.1:8088/wiki")
  op2 = type(textbox(name: "Search"), keyword)
  op3 = type(notes, "é中😀" + keywrd)
  op4 = type(textbox(name: "é中😀"), headline<"the keyword's introduction as a headline">(op2))
  op5 = type(textbox(name: "é中😀"), mark)  op6 = click(notes)
}
`

// headlineDefinition is the project knowledge base's definition of the
// subcategory the hover must show: not in the default knowledge base, so
// seeing it proves the server found the project's .cogflow folder.
const headlineDefinition = "Turn a text into a newspaper headline of at most eight words."

// TestNvimLSP is the acceptance test with a real editor as the client:
// Debian's Neovim, headless, with editor-support/nvim on its runtimepath,
// runs editor-support/nvim/test/lsp_spec.lua against `cogflow lsp`
// (filetype, syntax, diagnostic with UTF-16 columns, hover, definition,
// fix, formatting). tools/install-deps.sh installs neovim; a missing nvim
// fails the test rather than skipping it.
func TestNvimLSP(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim is not installed (tools/install-deps.sh installs Debian's neovim): %v", err)
	}
	checkNvimVersion(t, nvim)
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(repo, "editor-support", "nvim")
	spec := filepath.Join(plugin, "test", "lsp_spec.lua")

	tmp := t.TempDir()
	bin := cogflowBinary(t, tmp)
	file := writeNvimProject(t, filepath.Join(tmp, "project"))

	// Neovim writes its LSP log, shada and swap files under the XDG
	// folders: a temporary home keeps the test off the user's.
	home := filepath.Join(tmp, "home")
	const deadline = 2 * time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE", "-n",
		"--cmd", "set rtp^="+plugin,
		"-c", "luafile "+spec,
		// Reached only when the script itself could not run (it ends
		// Neovim either way): exit 2 instead of waiting for the deadline.
		"-c", "cquit 2")
	cmd.Dir = filepath.Dir(file)
	cmd.Env = append(os.Environ(), "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"COGFLOW_BIN="+bin, "COGFLOW_NVIM_FILE="+file, "COGFLOW_NVIM_HOVER="+headlineDefinition)
	// Neovim's own group, so that a timeout kills the server it started
	// with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		t.Fatalf("nvim did not finish in %s (killed); its output:\n%s", deadline, out.String())
	case err != nil:
		t.Fatalf("nvim: %v; its output:\n%s", err, out.String())
	case !strings.Contains(out.String(), "PASS"):
		t.Fatalf("nvim exited 0 without the script's PASS; its output:\n%s", out.String())
	}
	t.Logf("nvim (%s):\n%s", time.Since(start).Round(time.Millisecond), out.String())
}

// checkNvimVersion requires Neovim 0.7 or later, the oldest the client
// supports (vim.diagnostic, nvim_create_autocmd).
func checkNvimVersion(t *testing.T, nvim string) {
	t.Helper()
	v, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatalf("nvim --version: %v", err)
	}
	m := regexp.MustCompile(`NVIM v(\d+)\.(\d+)`).FindSubmatch(v)
	if m == nil {
		t.Fatalf("nvim --version: no version in %q", v)
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	if major == 0 && minor < 7 {
		t.Fatalf("nvim is %s.%s; the cogflow client needs 0.7 or later", m[1], m[2])
	}
}

// writeNvimProject writes the fixture into dir, a project whose .cogflow
// folder holds the default knowledge base plus the subcategory headline,
// and returns the file's path.
func writeNvimProject(t *testing.T, dir string) string {
	t.Helper()
	k := kb.Default().Clone()
	main, ok := k.MainOf("summarize")
	if !ok {
		t.Fatal("the default knowledge base has no summarize")
	}
	err := k.AddSubcategory(main, &kb.Subcategory{Name: "headline", Definition: headlineDefinition, Examples: []string{
		`headline<"the article's title as a headline">(op2)`,
		`headline<"the selected paragraph as a headline">(op5)`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".cogflow"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".cogflow", "knowledge.hcl"), k.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "look_up.cog")
	if err := os.WriteFile(file, []byte(nvimFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
